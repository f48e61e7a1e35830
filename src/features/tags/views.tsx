import type { Tag } from '../../db/schema.js';
import { CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { Swatch } from '../../platform/views/color.js';
import { DEFAULT_TAG_COLOR } from './forms.js';
import type { TagWithCount } from './repository.js';

export function TagListPage({ ctx, tags }: { ctx: ViewContext; tags: TagWithCount[] }) {
  return (
    <Layout ctx={ctx} title={ctx.t('tag.list_heading')}>
      <div class="page-header">
        <h1>{ctx.t('tag.list_heading')}</h1>
        <a href="/tags/new/" role="button">{ctx.t('tag.new')}</a>
      </div>
      {tags.length === 0 ? (
        <p class="empty-state">
          {ctx.t('tag.empty')} <a href="/tags/new/">{ctx.t('tag.empty_link')}</a> {ctx.t('tag.empty_after')}
        </p>
      ) : (
        <ul class="plain-list">
          {tags.map((tag) => (
            <li class="row">
              <span>
                <a href={`/notes/?tag=${tag.id}`} class="tag-chip">
                  <Swatch color={tag.color} /> {tag.name}
                </a>{' '}
                <small>{ctx.t('notebook.note_count', { count: Number(tag.note_count) })}</small>
              </span>
              <span class="row-actions">
                <a href={`/tags/${tag.id}/edit/`}>{ctx.t('note.edit')}<span class="visually-hidden"> {tag.name}</span></a>
                <a href={`/tags/${tag.id}/delete/`} data-confirm>{ctx.t('note.delete')}<span class="visually-hidden"> {tag.name}</span></a>
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
  const heading = tag ? ctx.t('tag_form.edit_heading') : ctx.t('tag.new');
  return (
    <Layout ctx={ctx} title={heading}>
      <article class="narrow">
        <h1>{heading}</h1>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="name" label={ctx.t('tag_form.name')} value={values.name ?? tag?.name} errors={errors} required maxLength={50} autofocus />
          <Field name="color" label={ctx.t('notebook_form.color')} type="color" value={values.color ?? tag?.color ?? DEFAULT_TAG_COLOR} errors={errors} help={ctx.t('tag_form.color_help')} />
          <div class="actions">
            <button type="submit">{ctx.t('note_form.save')}</button>
            <a href="/tags/" role="button" class="secondary outline">{ctx.t('note_form.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
