import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { fixedLimit } from '../../db/fixed-limit.js';
import { type Params, PreparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { NoteDetailsReader } from './details.js';

// The notes list's query (NotesRepository.listVisiblePage), apart from the repository so that its
// common shape can be built once: the list of every user with no notebook or tag chosen.

/**
 * The notes page's size, and the API's default limit. Only pages of this size are built once:
 * each of the API's other limits (1 to 100) would be a statement of its own, and a script asking
 * for them all would fill the kept shapes with its own.
 */
export const PAGE_SIZE = 50;

export type NotesWhere = (eb: ExpressionBuilder<Database, 'notes'>) => ReturnType<ExpressionBuilder<Database, 'notes'>['and']>;

/** A note's place in the list (pinned, priority, updated_at, id; each descending): the API's list cursor. */
export type ListKey = [isPinned: number, priority: number, updatedAt: number, id: number];

/** Where a page starts: after `offset` notes, or after the note at `after`; `bound` is offset + size + 1. */
export interface ListStart {
  offset: number;
  size: number;
  bound: number;
  after?: ListKey | null;
}

/** The notes of a group of the user's that someone else owns: one part of what the user sees. */
const groupPart = (userId: number, groupId: number): NotesWhere => (eb) => eb.and([eb('notes.group_id', '=', groupId), eb('notes.owner_id', '<>', userId)]);

/** What the user sees, as disjoint parts: their own notes, then each of `groupIds` (groupPart). */
export const visibleParts = (userId: number, groupIds: readonly number[]): NotesWhere[] => [(eb) => eb.and([eb('notes.owner_id', '=', userId)]), ...groupIds.map((groupId) => groupPart(userId, groupId))];

/**
 * The ordered page of `parts` (disjoint ways of being visible, each readable in list order from
 * one index) merged. The two planners need the merge spelled differently: SQLite merges the
 * branches of a compound SELECT's ORDER BY ("MERGE (UNION ALL)") when the branches are plain
 * (each is flattened into an index search); PostgreSQL builds a "Merge Append" of backward index
 * scans only when each branch is itself ordered and limited to the rows a page could need.
 */
export function orderedList(db: Kysely<Database>, dialect: Dialect, parts: NotesWhere[], archived: boolean, start: ListStart) {
  const { offset, size, bound, after } = start;
  const branches = parts.map((where, index) => {
    let branch = db
      .selectFrom('notes')
      .select(['notes.id', 'notes.is_pinned', 'notes.priority', 'notes.updated_at'])
      .where(where)
      .where('notes.is_archived', '=', archived ? 1 : 0);
    // All four descending: a row value "below" the key is exactly "after it in the list".
    if (after) branch = branch.where((eb) => eb(eb.refTuple('notes.is_pinned', 'notes.priority', 'notes.updated_at', 'notes.id'), '<', eb.tuple(...after)));
    const bounded = dialect === 'postgres' ? inListOrder(branch).limit(bound) : branch;
    return db.selectFrom(bounded.as(`branch${index}`)).selectAll();
  });
  // Unqualified names: the ORDER BY of a compound SELECT names its result columns.
  return branches
    .reduce((all, branch) => all.unionAll(branch))
    .orderBy('is_pinned', 'desc')
    .orderBy('priority', 'desc')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(fixedLimit(size + 1))
    .offset(offset);
}

/** The page's ids joined to their details, back in list order; `full`: with the whole content and the creation time (the API's note). */
export function withDetails(db: Kysely<Database>, page: ReturnType<typeof orderedList>, full = false) {
  return new NoteDetailsReader(db)
    .query(full)
    .innerJoin(page.as('page'), 'page.id', 'notes.id')
    .orderBy('page.is_pinned', 'desc')
    .orderBy('page.priority', 'desc')
    .orderBy('page.updated_at', 'desc')
    .orderBy('page.id', 'desc');
}

/** The shape of a list statement besides the number of groups: whether it starts after a cursor, and whether it reads the whole note. */
interface PageShape {
  archived: boolean;
  size: number;
  after: boolean;
  full: boolean;
}

/**
 * The list with no notebook or tag chosen (the page's, or the API's after a cursor), built and
 * compiled once per number of the user's groups and shape: building it anew (a UNION of a branch
 * per group, joined to the details) cost more JavaScript than the database takes to run it. The
 * user, the groups, the page's place and the cursor are the statement's parameters.
 */
function pageQuery(dialect: Dialect, groups: number, { archived, size, after, full }: PageShape) {
  return new PreparedQuery((db, params: Params<Record<string, number>>) => {
    const groupIds = Array.from({ length: groups }, (_, index) => params[`group${index}`]!);
    const key: ListKey | null = after ? [params.afterPinned!, params.afterPriority!, params.afterUpdated!, params.afterId!] : null;
    return withDetails(db, orderedList(db, dialect, visibleParts(params.userId!, groupIds), archived, { offset: params.offset!, size, bound: params.bound!, after: key }), full);
  });
}

/** Shapes kept: more groups than this are built each time (a statement text per count). */
const MAX_PREPARED_GROUPS = 16;
const pageQueries = new Map<string, ReturnType<typeof pageQuery>>();

/**
 * The rows of the page of `size` after `offset` notes (or, given `after`, after that note), of the
 * user's own notes and those of `groupIds`; `full` as withDetails.
 */
export function listPageRows(db: Kysely<Database>, dialect: Dialect, userId: number, groupIds: readonly number[], archived: boolean, start: { offset: number; size: number; after?: ListKey | null; full?: boolean }) {
  const { offset, size, after = null, full = false } = start;
  const values: Record<string, number> = { userId, offset, bound: offset + size + 1 };
  groupIds.forEach((groupId, index) => (values[`group${index}`] = groupId));
  if (after) [values.afterPinned, values.afterPriority, values.afterUpdated, values.afterId] = after;
  const key = `${dialect}:${groupIds.length}:${archived}:${size}:${after !== null}:${full}`;
  let query = pageQueries.get(key);
  if (!query && groupIds.length <= MAX_PREPARED_GROUPS && size === PAGE_SIZE) {
    pageQueries.set(key, (query = pageQuery(dialect, groupIds.length, { archived, size, after: after !== null, full })));
  }
  if (!query) return withDetails(db, orderedList(db, dialect, visibleParts(userId, groupIds), archived, { offset, size, bound: values.bound!, after }), full).execute();
  return query.execute(db, values);
}

function inListOrder<O>(query: SelectQueryBuilder<Database, 'notes', O>): SelectQueryBuilder<Database, 'notes', O> {
  return query.orderBy('notes.is_pinned', 'desc').orderBy('notes.priority', 'desc').orderBy('notes.updated_at', 'desc').orderBy('notes.id', 'desc');
}
