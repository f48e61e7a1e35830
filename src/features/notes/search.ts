import { type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

const MAX_TERMS = 8;
const MAX_TERM_LENGTH = 64;

/**
 * The words of a search box, lowercased: letters and digits only. Everything else (quotes,
 * operators, parentheses, column filters, NEAR, `*`, `:`, `&`, `!`) is a separator, so no user
 * text ever reaches FTS5's or tsquery's query syntax as syntax.
 */
export function searchTerms(query: string): string[] {
  const words = query.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS).map((word) => word.slice(0, MAX_TERM_LENGTH));
}

/** FTS5: every term quoted as a string and matched as a prefix, all terms required. */
export function fts5Query(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"*`).join(' AND ');
}

/** tsquery: every term a prefix match, all terms required (terms hold letters and digits only). */
export function tsQuery(terms: string[]): string {
  return terms.map((term) => `${term.replace(/[^\p{L}\p{N}]/gu, '')}:*`).join(' & ');
}

type NotesQuery = SelectQueryBuilder<Database, 'notes', object>;

/**
 * The ids of the notes in `scope` (already limited to what the caller may see) whose title or
 * content holds every term, newest first. One function for both databases: SQLite's FTS5 index
 * (notes_fts, kept in step by triggers) or PostgreSQL's GIN-indexed tsvector.
 *
 * Newest first rather than best match first, on purpose: ranking (bm25, ts_rank) must score
 * every match before it can return the first page, so a common word over 100,000 notes costs
 * tens of milliseconds per request. Walking the matches newest first stops as soon as a page of
 * visible notes is found; each candidate's visibility is checked on the small covering index
 * notes_visibility instead of the note row.
 */
export function matchingNotesQuery(dialect: Dialect, scope: NotesQuery, terms: string[], page: { limit: number; offset: number }) {
  if (terms.length === 0) return null;
  if (dialect === 'postgres') {
    return scope
      .select('notes.id')
      .where(sql<boolean>`notes.search_vector @@ to_tsquery('simple', ${tsQuery(terms)})`)
      // An expression, not the bare column: the planner cannot estimate how many notes a prefix
      // tsquery matches, and given "ORDER BY id LIMIT" it walks the primary key backwards testing
      // every note (EXPLAIN ANALYZE: 380 ms for a rare word over 150,000 notes). This way it asks
      // the GIN index for the matches and sorts only those.
      .orderBy(sql`notes.id + 0`, 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  // The FTS5 subquery is the outer loop, read in descending rowid order (EXPLAIN QUERY PLAN:
  // "SCAN notes_fts VIRTUAL TABLE INDEX 192:M2", no temporary b-tree for the ORDER BY).
  const matches = sql<{ id: number }>`(select rowid as id from notes_fts where notes_fts match ${fts5Query(terms)})`;
  return scope
    .innerJoin(matches.as('fts'), (join) => join.onRef('fts.id', '=', 'notes.id'))
    .select('notes.id')
    .orderBy('fts.id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}
