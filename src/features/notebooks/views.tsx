import type { Notebook } from '../../db/schema.js';
import { CsrfField, Field, FormAlert, TextArea } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { Swatch } from '../../platform/views/color.js';
import { DEFAULT_NOTEBOOK_COLOR } from './forms.js';
import type { NotebookWithCount } from './repository.js';

export function NotebookListPage({ ctx, notebooks }: { ctx: ViewContext; notebooks: NotebookWithCount[] }) {
  return (
    <Layout ctx={ctx} title={ctx.t('notebook.list_heading')}>
      <div class="page-header">
        <h1>{ctx.t('notebook.list_heading')}</h1>
        <a href="/notebooks/new/" role="button">{ctx.t('notebook.new')}</a>
      </div>
      {notebooks.length === 0 ? (
        <p class="empty-state">
          {ctx.t('notebook.empty')} <a href="/notebooks/new/">{ctx.t('notebook.empty_link')}</a> {ctx.t('notebook.empty_after')}
        </p>
      ) : (
        <ul class="plain-list">
          {notebooks.map((notebook) => (
            <li class="row">
              <span>
                <a href={`/notebooks/${notebook.id}/`} class="notebook-chip">
                  <Swatch color={notebook.color} /> {notebook.title}
                </a>{' '}
                <small>{ctx.t('notebook.note_count', { count: notebook.note_count })}</small>
                {notebook.description ? <small class="description">{notebook.description}</small> : null}
              </span>
              <span class="row-actions">
                <a href={`/notebooks/${notebook.id}/edit/`}>{ctx.t('note.edit')}<span class="visually-hidden"> {notebook.title}</span></a>
                <a href={`/notebooks/${notebook.id}/delete/`} data-confirm>{ctx.t('note.delete')}<span class="visually-hidden"> {notebook.title}</span></a>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}

export function NotebookFormPage({ ctx, notebook, values = {}, errors = {} }: { ctx: ViewContext; notebook?: Notebook; values?: FormValues; errors?: FormErrors }) {
  const heading = notebook ? ctx.t('notebook_form.edit_heading') : ctx.t('notebook.new');
  return (
    <Layout ctx={ctx} title={heading}>
      <article class="narrow">
        <h1>{heading}</h1>
        <form method="post" action={notebook ? `/notebooks/${notebook.id}/edit/` : '/notebooks/new/'} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="title" label={ctx.t('note_form.title')} value={values.title ?? notebook?.title} errors={errors} required maxLength={200} autofocus />
          <TextArea name="description" label={ctx.t('notebook_form.description')} value={values.description ?? notebook?.description} errors={errors} rows={3} maxLength={2000} />
          <Field name="color" label={ctx.t('notebook_form.color')} type="color" value={values.color ?? notebook?.color ?? DEFAULT_NOTEBOOK_COLOR} errors={errors} />
          <div class="actions">
            <button type="submit">{ctx.t('note_form.save')}</button>
            <a href={notebook ? `/notebooks/${notebook.id}/` : '/notebooks/'} role="button" class="secondary outline">{ctx.t('note_form.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
