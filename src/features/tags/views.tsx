import type { Tag } from '../../db/schema.js';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { Swatch } from '../../platform/views/color.js';
import { DEFAULT_TAG_COLOR } from './forms.js';

export function TagListPage({ ctx, tags }: { ctx: ViewContext; tags: Tag[] }) {
  return (
    <Layout ctx={ctx} title="Tags">
      <div class="page-header">
        <h1>Tags</h1>
        <a href="/tags/new/" role="button">New tag</a>
      </div>
      {tags.length === 0 ? (
        <p class="empty-state">
          No tags yet: <a href="/tags/new/">create your first tag</a> to label your notes.
        </p>
      ) : (
        <ul class="plain-list">
          {tags.map((tag) => (
            <li class="row">
              <a href={`/notes/?tag=${tag.id}`} class="tag-chip">
                <Swatch color={tag.color} /> {tag.name}
              </a>
              <span class="row-actions">
                <a href={`/tags/${tag.id}/edit/`}>Edit<span class="visually-hidden"> {tag.name}</span></a>
                <a href={`/tags/${tag.id}/delete/`} data-confirm>Delete<span class="visually-hidden"> {tag.name}</span></a>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}

export function TagFormPage({ ctx, tag, values = {}, errors = {} }: { ctx: ViewContext; tag?: Tag; values?: FormValues; errors?: FormErrors }) {
  const action = tag ? `/tags/${tag.id}/edit/` : '/tags/new/';
  const heading = tag ? 'Edit tag' : 'New tag';
  return (
    <Layout ctx={ctx} title={heading}>
      <article class="narrow">
        <h1>{heading}</h1>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label="Name" value={values.name ?? tag?.name} errors={errors} required maxLength={50} autofocus />
          <Field name="color" label="Colour" type="color" value={values.color ?? tag?.color ?? DEFAULT_TAG_COLOR} errors={errors} help="Shown beside the tag." />
          <div class="actions">
            <button type="submit">Save</button>
            <a href="/tags/" role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
