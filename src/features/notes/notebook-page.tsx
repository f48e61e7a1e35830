import type { Notebook } from '../../db/schema.js';
import { Swatch } from '../../platform/views/color.js';
import type { ViewContext } from '../../platform/views/context.js';
import { Layout } from '../../platform/views/layout.js';
import { NoteList } from './list-views.js';
import type { NotePage } from './repository.js';

// A notebook's own page is its notes (the notebooks feature keeps the notebooks themselves: their
// list, form and deletion), so that notes depend on notebooks and never the other way round.

/** A notebook: its description and actions, then its first notes (the rest on the filtered list). */
export function NotebookDetailPage({ ctx, notebook, result }: { ctx: ViewContext; notebook: Notebook; result: NotePage }) {
  return (
    <Layout ctx={ctx} title={notebook.title}>
      <div class="page-header">
        <h1>
          <Swatch color={notebook.color} /> {notebook.title}
        </h1>
        <span class="row-actions">
          <a href={`/notes/new/?notebook=${notebook.id}`} role="button">{ctx.t('notes.new')}</a>
          <a href={`/notebooks/${notebook.id}/edit/`} role="button" class="secondary outline">{ctx.t('note.edit')}</a>
          <a href={`/notebooks/${notebook.id}/delete/`} data-confirm role="button" class="secondary outline">{ctx.t('note.delete')}</a>
        </span>
      </div>
      {notebook.description ? <p class="notebook-description">{notebook.description}</p> : null}
      {result.notes.length === 0 ? (
        <p class="empty-state">
          {ctx.t('notebook.no_notes')} <a href={`/notes/new/?notebook=${notebook.id}`}>{ctx.t('notebook.no_notes_link')}</a> {ctx.t('notebook.no_notes_after')}
        </p>
      ) : (
        <NoteList ctx={ctx} notes={result.notes} viewerId={ctx.user!.id} />
      )}
      {result.hasNext ? (
        <p>
          <a href={`/notes/?notebook=${notebook.id}&page=2`}>{ctx.t('notebook.more_notes')} →</a>
        </p>
      ) : null}
    </Layout>
  );
}
