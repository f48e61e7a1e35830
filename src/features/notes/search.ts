import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { PLAN_FOR_VALUES } from '../../db/pg-prepared.js';
import type { Database } from '../../db/schema.js';
import { type SearchTerm, searchTerms as textTerms, wordToken } from '../../db/search-words.js';

export type { SearchTerm } from '../../db/search-words.js';

/** A search box's words: as the text search looks for them, and as tag names are compared. */
export interface SearchTerms {
  /** Normalized and stemmed (db/search-words.ts): what `notes.search_words` is searched for. */
  text: SearchTerm[];
  /** Lowercased letters and digits, as typed: what the caller's tag names are searched for (search-tags.ts). */
  tags: string[];
}

const MAX_TAG_TERMS = 8;
const MAX_TAG_TERM_LENGTH = 64;

/**
 * The words of a search box. Everything but letters and digits (quotes, operators, parentheses,
 * column filters, NEAR, `*`, `:`, `&`, `!`) separates words, and each word reaches the databases
 * only as a token of letters a to p (wordToken), so no user text is ever FTS5's or tsquery's
 * syntax.
 */
export function searchTerms(query: string): SearchTerms {
  const words = query.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return { text: textTerms(query), tags: [...new Set(words)].slice(0, MAX_TAG_TERMS).map((word) => word.slice(0, MAX_TAG_TERM_LENGTH)) };
}

/**
 * FTS5: each term matches a stored word that starts with it, or a stored stem equal to its stem;
 * all terms are required.
 */
export function fts5Query(terms: SearchTerm[]): string {
  return terms
    .map(({ word, stem }) => (stem === null ? `"${wordToken(word)}"*` : `("${wordToken(word)}"* OR "${wordToken(stem)}")`))
    .join(' AND ');
}

/** tsquery: fts5Query's question (tokens hold the letters a to p only). */
export function tsQuery(terms: SearchTerm[]): string {
  return terms.map(({ word, stem }) => (stem === null ? `${wordToken(word)}:*` : `(${wordToken(word)}:* | ${wordToken(stem)})`)).join(' & ');
}

type NotesQuery = SelectQueryBuilder<Database, 'notes', object>;

/** Which matches: after `offset` of them (the pages' numbers), or below the id `beforeId` (the API's cursor). */
export interface SearchPage {
  limit: number;
  offset: number;
  beforeId?: number | null;
}

/** How many of the newest notes (by id) PostgreSQL searches first; see matchingNotesQuery. */
export const RECENT_WINDOW = 4000;

/** The matching ids' query, as callers use it: nested in the page's query, or compiled to EXPLAIN it. */
export type MatchingIds = Pick<SelectQueryBuilder<Database, keyof Database, { id: number }>, 'as' | 'compile'>;

/**
 * The ids of the notes in `scope` (already limited to what the caller may see) whose title or
 * content holds every term, newest first. One function for both databases: SQLite's FTS5 index
 * (notes_fts, kept in step by triggers) or PostgreSQL's GIN-indexed tsvector, both of the one
 * column `notes.search_words` (db/search-words.ts, migration 0031), so both find the same notes.
 *
 * Newest first rather than best match first, on purpose: ranking (bm25, ts_rank) must score
 * every match before it can return the first page, so a common word over 100,000 notes costs
 * tens of milliseconds per request. Walking the matches newest first stops as soon as a page of
 * visible notes is found.
 */
export function matchingNotesQuery(db: Kysely<Database>, dialect: Dialect, scope: NotesQuery, terms: SearchTerm[], page: SearchPage): MatchingIds | null {
  if (terms.length === 0) return null;
  // Keyset paging (the API's cursor): only notes older than the last one of the previous page.
  const beforeId = page.beforeId ?? null;
  if (beforeId !== null) scope = scope.where('notes.id', '<', beforeId);
  if (dialect === 'postgres') return postgresMatches(db, scope, terms, page);
  // The FTS5 subquery is the outer loop, read in descending rowid order (EXPLAIN QUERY PLAN:
  // "SCAN notes_fts VIRTUAL TABLE INDEX 192:M2", no temporary b-tree for the ORDER BY); each
  // candidate's visibility is checked on the small covering index notes_visibility.
  const matches = sql<{ id: number }>`(select rowid as id from notes_fts where notes_fts match ${fts5Query(terms)})`;
  return scope
    .innerJoin(matches.as('fts'), (join) => join.onRef('fts.id', '=', 'notes.id'))
    .select('notes.id')
    .orderBy('fts.id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * PostgreSQL's GIN index hands out matches in no useful order, so "newest first" is one of two
 * plans, and neither fits every word: walking the notes down the primary key and testing each
 * stops after a page for a common word but reads every note for a rare one (380 ms over 150,000
 * notes), while the GIN index finds a rare word's few matches at once but, for a word in a
 * quarter of the notes, reads all 37,000 of those wide rows to sort them (100 to 900 ms). The
 * planner's statistics cannot choose safely: they count a word over all notes, not over the ones
 * this caller sees (a word common in another household's notes and rare in yours).
 *
 * So the search runs in two tiers, each bounded. First only the newest RECENT_WINDOW notes
 * (ids above max(id) - RECENT_WINDOW), where either plan costs at most that many rows; when they
 * hold the page (`needed` matches), that is the answer. Only when they do not is the word rare
 * among recent notes, and the second tier asks the GIN index for every match (`id + 0`: an
 * expression, so that it is never the walk down the primary key) and sorts them. Each tier is
 * gated by the count of the first, a condition that PostgreSQL checks once ("One-Time Filter")
 * before running the tier at all. Which plan serves the first tier best depends on how common
 * the word is, so the statement is planned for its values each time (PLAN_FOR_VALUES) rather
 * than prepared: a prepared one settled on a plan costed for no word in particular, which asked
 * the GIN index for all 37,000 matches of a common word (75 ms instead of 6).
 */
function postgresMatches(db: Kysely<Database>, scope: NotesQuery, terms: SearchTerm[], page: SearchPage): MatchingIds {
  const query = tsQuery(terms);
  const needed = page.offset + page.limit;
  // The window of "recent" notes ends at the cursor, so that a deep page's first tier is as
  // bounded as the first page's (RECENT_WINDOW ids), not empty.
  const beforeId = page.beforeId ?? null;
  const top = beforeId !== null ? sql<number>`cast(${beforeId} as integer)` : sql<number>`(select max(id) from notes)`;
  // The window's candidates are read from the covering index notes_visibility (id, owner,
  // group, archived: every column the scope tests), and only a candidate's words are then looked
  // up, by its id. Testing the words in the scan itself would unpack the tsvector (stored out of
  // line, TOAST) of every note in the window, most of them another user's or on the other side
  // of the archive: counting the archived matches (a tenth of the notes) took 13 ms that way,
  // against 2 ms. A subquery, not a join: given a join, PostgreSQL chose to merge two walks of
  // the window, which unpacks every note again.
  const recent = scope
    .select('notes.id')
    .where(sql<boolean>`notes.id > ${top} - ${RECENT_WINDOW}`)
    .where(sql<boolean>`(select found.search_vector from notes as found where found.id = notes.id) @@ to_tsquery('simple', ${query})`)
    .orderBy('notes.id', 'desc')
    .limit(needed);
  const older = scope
    .select('notes.id')
    .where(sql<boolean>`notes.search_vector @@ to_tsquery('simple', ${query})`)
    .orderBy(sql`notes.id + 0`, 'desc')
    .limit(needed);
  return db
    .with((cte) => cte('recent').materialized(), () => recent)
    .selectFrom('recent')
    .modifyFront(sql.raw(PLAN_FOR_VALUES))
    .select('recent.id')
    .where(sql<boolean>`(select count(*) from recent) >= ${needed}`)
    // The gate outside the LIMIT, where PostgreSQL cannot push it down: under it, a parallel plan
    // of the tier started its workers (50 ms) before looking at the gate.
    .unionAll(db.selectFrom(older.as('older')).select('older.id').where(sql<boolean>`(select count(*) from recent) < ${needed}`))
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}
