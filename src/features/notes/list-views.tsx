import { CsrfField } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { NoteBadges } from './badges.js';
import { Time } from '../../platform/views/controls.js';
import type { NoteRow } from './details.js';
import type { NotePage } from './repository.js';

export interface ListQuery {
  q: string;
  archived: boolean;
  notebook?: { id: number; title: string } | undefined;
  tag?: { id: number; name: string } | undefined;
}

/** The list's address with the same filters and another page. */
export function listUrl(query: ListQuery, page = 1): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.tag) params.set('tag', String(query.tag.id));
  if (query.notebook) params.set('notebook', String(query.notebook.id));
  if (query.archived) params.set('archived', '1');
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `/notes/?${search}` : '/notes/';
}

/** "New note" from a filtered list: the list's notebook and tag preselected in the form. */
export function newNoteUrl(query: Pick<ListQuery, 'notebook' | 'tag'>): string {
  const params = new URLSearchParams();
  if (query.notebook) params.set('notebook', String(query.notebook.id));
  if (query.tag) params.set('tag', String(query.tag.id));
  const search = params.toString();
  return search ? `/notes/new/?${search}` : '/notes/new/';
}

export function PinButton({ ctx, note }: { ctx: ViewContext; note: { id: number; is_pinned: number; title: string } }) {
  return (
    <form method="post" action={`/notes/${note.id}/pin/`} class="inline">
      <CsrfField ctx={ctx} />
      <button type="submit" class="secondary outline small" aria-label={note.is_pinned ? ctx.t('note.unpin_named', { title: note.title }) : ctx.t('note.pin_named', { title: note.title })}>
        {note.is_pinned ? ctx.t('note.unpin') : ctx.t('note.pin')}
      </button>
    </form>
  );
}

function NoteItem({ ctx, note, viewerId }: { ctx: ViewContext; note: NoteRow; viewerId: number }) {
  const excerpt = note.excerpt;
  return (
    <li class={note.is_pinned ? 'note-item pinned' : 'note-item'}>
      <h2 class="note-title">
        <a href={`/notes/${note.id}/`}>{note.title}</a>
      </h2>
      {excerpt ? <p class="note-excerpt">{excerpt}</p> : null}
      <NoteBadges ctx={ctx} note={note} viewerId={viewerId} />
      <div class="note-meta">
        <small>
          {ctx.t('notes.updated')} <Time ms={note.updated_at} timeZone={ctx.user?.timezone} />
        </small>
        {note.owner_id === viewerId ? (
          <span class="row-actions">
            <PinButton ctx={ctx} note={note} />
            <a href={`/notes/${note.id}/edit/`}>{ctx.t('note.edit')}<span class="visually-hidden"> {note.title}</span></a>
          </span>
        ) : null}
      </div>
    </li>
  );
}

export function NoteList({ ctx, notes, viewerId }: { ctx: ViewContext; notes: NoteRow[]; viewerId: number }) {
  return (
    <ul class="note-list">
      {notes.map((note) => (
        <NoteItem ctx={ctx} note={note} viewerId={viewerId} />
      ))}
    </ul>
  );
}

function heading(ctx: ViewContext, query: ListQuery): string {
  if (query.q) return ctx.t('notes.heading_search', { q: query.q });
  if (query.notebook) return ctx.t('notes.heading_notebook', { title: query.notebook.title });
  if (query.tag) return ctx.t('notes.heading_tag', { name: query.tag.name });
  return query.archived ? ctx.t('notes.heading_archived') : ctx.t('notes.heading');
}

function EmptyState({ ctx, query }: { ctx: ViewContext; query: ListQuery }) {
  if (query.q) return <p class="empty-state">{ctx.t('notes.empty_search', { q: query.q })}</p>;
  if (query.notebook || query.tag) {
    return <p class="empty-state">{ctx.t('notes.empty_filtered')} <a href={newNoteUrl(query)}>{ctx.t('notes.empty_filtered_link')}</a> {ctx.t('notes.empty_filtered_after')}</p>;
  }
  if (query.archived) return <p class="empty-state">{ctx.t('notes.empty_archived')}</p>;
  return (
    <p class="empty-state">
      {ctx.t('notes.empty')} <a href="/notes/new/">{ctx.t('notes.empty_link')}</a>.
    </p>
  );
}

/** The other side's matches of a search (archived ones for the current list, and back). */
export interface OtherMatches {
  count: number;
  /** True when the count stopped at its cap: "100 or more". */
  capped: boolean;
}

function OtherMatchesLine({ ctx, query, other }: { ctx: ViewContext; query: ListQuery; other: OtherMatches | undefined }) {
  if (!other || other.count === 0) return null;
  const values = { count: other.count };
  const line = query.archived
    ? other.capped ? ctx.t('notes.other_current_capped', values) : ctx.t('notes.other_current', values)
    : other.capped ? ctx.t('notes.other_archived_capped', values) : ctx.t('notes.other_archived', values);
  const href = listUrl({ ...query, archived: !query.archived });
  return (
    <p class="other-matches" id="other-matches">
      {`${line} `}
      <a href={href}>{query.archived ? ctx.t('notes.search_current') : ctx.t('notes.search_archived')}</a>
    </p>
  );
}

/** The active notebook and tag filters, each a chip that removes it (the search keeps them). */
function FilterChips({ ctx, query }: { ctx: ViewContext; query: ListQuery }) {
  if (!query.notebook && !query.tag) return null;
  const remove = <span class="visually-hidden"> {ctx.t('notes.filter_remove')}</span>;
  return (
    <ul class="filter-chips" aria-label={ctx.t('notes.filters')}>
      {query.notebook ? (
        <li>
          <a class="notebook-chip" href={listUrl({ ...query, notebook: undefined })}>
            {ctx.t('notes.filter_in', { filter: 'notebook', name: query.notebook.title })} <span aria-hidden="true">×</span>{remove}
          </a>
        </li>
      ) : null}
      {query.tag ? (
        <li>
          <a class="tag-chip" href={listUrl({ ...query, tag: undefined })}>
            {ctx.t('notes.filter_in', { filter: 'tag', name: query.tag.name })} <span aria-hidden="true">×</span>{remove}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

export function NoteListPage({ ctx: requestCtx, query, result, other }: { ctx: ViewContext; query: ListQuery; result: NotePage; other?: OtherMatches | undefined }) {
  // One masked CSRF token serves every pin form of the page (masking 50 is measurable work).
  const token = requestCtx.csrfToken();
  const ctx: ViewContext = { ...requestCtx, csrfToken: () => token };
  const viewerId = ctx.user!.id;
  const filtered = Boolean(query.q || query.notebook || query.tag);
  return (
    <Layout ctx={ctx} title={heading(ctx, query)}>
      <div class="page-header">
        <h1>{heading(ctx, query)}</h1>
        <a href={newNoteUrl(query)} role="button">{ctx.t('notes.new')}</a>
      </div>
      <form method="get" action="/notes/" role="search" class="note-search">
        <label for="id_q" class="visually-hidden">{ctx.t('notes.search_label')}</label>
        <input type="search" id="id_q" name="q" value={query.q} placeholder={ctx.t('notes.search_placeholder')} maxLength={200} />
        {query.archived ? <input type="hidden" name="archived" value="1" /> : null}
        {query.tag ? <input type="hidden" name="tag" value={String(query.tag.id)} /> : null}
        {query.notebook ? <input type="hidden" name="notebook" value={String(query.notebook.id)} /> : null}
        <button type="submit">{ctx.t('notes.search')}</button>
      </form>
      <FilterChips ctx={ctx} query={query} />
      <OtherMatchesLine ctx={ctx} query={query} other={other} />
      <p class="list-filters">
        {filtered ? <a href={query.archived ? '/notes/?archived=1' : '/notes/'}>{ctx.t('notes.show_all')}</a> : null}
        {query.archived ? <a href="/notes/">{ctx.t('notes.back_to_current')}</a> : <a href="/notes/?archived=1">{ctx.t('notes.heading_archived')}</a>}
      </p>
      {result.notes.length === 0 ? <EmptyState ctx={ctx} query={query} /> : <NoteList ctx={ctx} notes={result.notes} viewerId={viewerId} />}
      <Pager ctx={ctx} query={query} result={result} />
    </Layout>
  );
}

function Pager({ ctx, query, result }: { ctx: ViewContext; query: ListQuery; result: NotePage }) {
  if (result.page === 1 && !result.hasNext) return null;
  return (
    <nav class="pager" aria-label={ctx.t('notes.pages')}>
      {result.page > 1 ? <a href={listUrl(query, result.page - 1)} rel="prev">← {ctx.t('notes.previous_page')}</a> : <span />}
      <span>{ctx.t('notes.page', { page: result.page })}</span>
      {result.hasNext ? <a href={listUrl(query, result.page + 1)} rel="next">{ctx.t('notes.next_page')} →</a> : <span />}
    </nav>
  );
}
