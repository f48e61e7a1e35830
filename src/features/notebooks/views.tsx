import type { Notebook } from '../../db/schema.js';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues, TextArea } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { NoteList } from '../notes/list-views.js';
import type { NotePage } from '../notes/repository.js';
import { Swatch } from '../../platform/views/color.js';
import { DEFAULT_NOTEBOOK_COLOR } from './forms.js';
import type { NotebookWithCount } from './repository.js';

export function NotebookListPage({ ctx, notebooks }: { ctx: ViewContext; notebooks: NotebookWithCount[] }) {
  return (
    <Layout ctx={ctx} title="Notebooks">
      <div class="page-header">
        <h1>Notebooks</h1>
        <a href="/notebooks/new/" role="button">New notebook</a>
      </div>
      {notebooks.length === 0 ? (
        <p class="empty-state">
          No notebooks yet: <a href="/notebooks/new/">create your first notebook</a> to file your notes.
        </p>
      ) : (
        <ul class="plain-list">
          {notebooks.map((notebook) => (
            <li class="row">
              <span>
                <a href={`/notebooks/${notebook.id}/`} class="notebook-chip">
                  <Swatch color={notebook.color} /> {notebook.title}
                </a>{' '}
                <small>{notebook.note_count === 1 ? '1 note' : `${notebook.note_count} notes`}</small>
                {notebook.description ? <small class="description">{notebook.description}</small> : null}
              </span>
              <span class="row-actions">
                <a href={`/notebooks/${notebook.id}/edit/`}>Edit<span class="visually-hidden"> {notebook.title}</span></a>
                <a href={`/notebooks/${notebook.id}/delete/`} data-confirm>Delete<span class="visually-hidden"> {notebook.title}</span></a>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}

/** A notebook: its description and actions, then its first notes (the rest on the filtered list). */
export function NotebookDetailPage({ ctx, notebook, result }: { ctx: ViewContext; notebook: Notebook; result: NotePage }) {
  return (
    <Layout ctx={ctx} title={notebook.title}>
      <div class="page-header">
        <h1>
          <Swatch color={notebook.color} /> {notebook.title}
        </h1>
        <span class="row-actions">
          <a href={`/notes/new/?notebook=${notebook.id}`} role="button">New note</a>
          <a href={`/notebooks/${notebook.id}/edit/`} role="button" class="secondary outline">Edit</a>
          <a href={`/notebooks/${notebook.id}/delete/`} data-confirm role="button" class="secondary outline">Delete</a>
        </span>
      </div>
      {notebook.description ? <p class="notebook-description">{notebook.description}</p> : null}
      {result.notes.length === 0 ? (
        <p class="empty-state">
          No notes in this notebook yet: <a href={`/notes/new/?notebook=${notebook.id}`}>write a note</a> in it.
        </p>
      ) : (
        <NoteList ctx={ctx} notes={result.notes} viewerId={ctx.user!.id} />
      )}
      {result.hasNext ? (
        <p>
          <a href={`/notes/?notebook=${notebook.id}&page=2`}>More notes in this notebook →</a>
        </p>
      ) : null}
    </Layout>
  );
}

export function NotebookFormPage({ ctx, notebook, values = {}, errors = {} }: { ctx: ViewContext; notebook?: Notebook; values?: FormValues; errors?: FormErrors }) {
  const heading = notebook ? 'Edit notebook' : 'New notebook';
  return (
    <Layout ctx={ctx} title={heading}>
      <article class="narrow">
        <h1>{heading}</h1>
        <form method="post" action={notebook ? `/notebooks/${notebook.id}/edit/` : '/notebooks/new/'} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="title" label="Title" value={values.title ?? notebook?.title} errors={errors} required maxLength={200} autofocus />
          <TextArea name="description" label="Description (optional)" value={values.description ?? notebook?.description} errors={errors} rows={3} maxLength={2000} />
          <Field name="color" label="Colour" type="color" value={values.color ?? notebook?.color ?? DEFAULT_NOTEBOOK_COLOR} errors={errors} />
          <div class="actions">
            <button type="submit">Save</button>
            <a href={notebook ? `/notebooks/${notebook.id}/` : '/notebooks/'} role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
