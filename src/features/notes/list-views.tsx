import { CsrfField } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
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
      <button type="submit" class="secondary outline small" aria-label={`${note.is_pinned ? 'Unpin' : 'Pin'} ${note.title}`}>
        {note.is_pinned ? 'Unpin' : 'Pin'}
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
      <NoteBadges note={note} viewerId={viewerId} />
      <div class="note-meta">
        <small>
          Updated <Time ms={note.updated_at} />
        </small>
        {note.owner_id === viewerId ? (
          <span class="row-actions">
            <PinButton ctx={ctx} note={note} />
            <a href={`/notes/${note.id}/edit/`}>Edit<span class="visually-hidden"> {note.title}</span></a>
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

function heading(query: ListQuery): string {
  if (query.q) return `Search: ${query.q}`;
  if (query.notebook) return `Notebook: ${query.notebook.title}`;
  if (query.tag) return `Tag: ${query.tag.name}`;
  return query.archived ? 'Archived notes' : 'Notes';
}

function EmptyState({ query }: { query: ListQuery }) {
  if (query.q) return <p class="empty-state">No notes match “{query.q}”. Try fewer or shorter words.</p>;
  if (query.notebook || query.tag) return <p class="empty-state">No notes here yet. <a href={newNoteUrl(query)}>Write a note</a> and file it here.</p>;
  if (query.archived) return <p class="empty-state">No archived notes. Archive a note from its edit page to keep it out of the way.</p>;
  return (
    <p class="empty-state">
      No notes yet: <a href="/notes/new/">create your first note</a>.
    </p>
  );
}

/** The other side's matches of a search (archived ones for the current list, and back). */
export interface OtherMatches {
  count: number;
  /** True when the count stopped at its cap: "100 or more". */
  capped: boolean;
}

function OtherMatchesLine({ query, other }: { query: ListQuery; other: OtherMatches | undefined }) {
  if (!other || other.count === 0) return null;
  const many = other.capped ? `${other.count} or more` : String(other.count);
  const one = other.count === 1 && !other.capped;
  const href = listUrl({ ...query, archived: !query.archived });
  return (
    <p class="other-matches" id="other-matches">
      {`${many} ${query.archived ? 'current' : 'archived'} ${one ? 'note also matches' : 'notes also match'}. `}
      <a href={href}>{query.archived ? 'Search current notes' : 'Search archived notes'}</a>
    </p>
  );
}

/** The active notebook and tag filters, each a chip that removes it (the search keeps them). */
function FilterChips({ query }: { query: ListQuery }) {
  if (!query.notebook && !query.tag) return null;
  return (
    <ul class="filter-chips" aria-label="Searching in">
      {query.notebook ? (
        <li>
          <a class="notebook-chip" href={listUrl({ ...query, notebook: undefined })}>
            in {query.notebook.title} <span aria-hidden="true">×</span><span class="visually-hidden"> (remove this filter)</span>
          </a>
        </li>
      ) : null}
      {query.tag ? (
        <li>
          <a class="tag-chip" href={listUrl({ ...query, tag: undefined })}>
            in {query.tag.name} <span aria-hidden="true">×</span><span class="visually-hidden"> (remove this filter)</span>
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
    <Layout ctx={ctx} title={heading(query)}>
      <div class="page-header">
        <h1>{heading(query)}</h1>
        <a href={newNoteUrl(query)} role="button">New note</a>
      </div>
      <form method="get" action="/notes/" role="search" class="note-search">
        <label for="id_q" class="visually-hidden">Search notes</label>
        <input type="search" id="id_q" name="q" value={query.q} placeholder="Search titles and text" maxLength={200} />
        {query.archived ? <input type="hidden" name="archived" value="1" /> : null}
        {query.tag ? <input type="hidden" name="tag" value={String(query.tag.id)} /> : null}
        {query.notebook ? <input type="hidden" name="notebook" value={String(query.notebook.id)} /> : null}
        <button type="submit">Search</button>
      </form>
      <FilterChips query={query} />
      <OtherMatchesLine query={query} other={other} />
      <p class="list-filters">
        {filtered ? <a href={query.archived ? '/notes/?archived=1' : '/notes/'}>Show all</a> : null}
        {query.archived ? <a href="/notes/">Back to current notes</a> : <a href="/notes/?archived=1">Archived notes</a>}
      </p>
      {result.notes.length === 0 ? <EmptyState query={query} /> : <NoteList ctx={ctx} notes={result.notes} viewerId={viewerId} />}
      <Pager query={query} result={result} />
    </Layout>
  );
}

function Pager({ query, result }: { query: ListQuery; result: NotePage }) {
  if (result.page === 1 && !result.hasNext) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {result.page > 1 ? <a href={listUrl(query, result.page - 1)} rel="prev">← Previous page</a> : <span />}
      <span>Page {result.page}</span>
      {result.hasNext ? <a href={listUrl(query, result.page + 1)} rel="next">Next page →</a> : <span />}
    </nav>
  );
}
