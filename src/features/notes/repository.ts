import { type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database, Note } from '../../db/schema.js';
import { searchWords } from '../../db/search-words.js';
import { type ActivityEvent, activityInsertWhen, groupShareNotice, recordActivity } from '../groups/index.js';
import type { Notifier } from '../../services.js';
import { GroupsRepository } from '../groups/index.js';
import { type NoteRow, NoteDetailsReader } from './details.js';
import { type ListKey, type NotesWhere, PAGE_SIZE, listPageRows, orderedList, visibleParts, withDetails } from './list-query.js';
import { ownedBy, type UserRef, visibleTo } from './visibility.js';
import { readVisibleNote, type VisibleNote } from './visible-note.js';
import { plainExcerpt } from './excerpt.js';
import type { SearchTerms } from './search.js';
import { searchMatches } from './search-tags.js';

/** How long a deleted note's tombstone says so to those who could read it. */
export const TOMBSTONE_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A note's stored columns from its fields: the excerpt and the search's words are worked out of the text. */
const noteValues = (fields: NoteFields, now: number) => ({ ...fields, excerpt: plainExcerpt(fields.content), search_words: searchWords(fields.title, fields.content), updated_at: now });

export interface NoteFilters {
  archived: boolean;
  /** The caller's own notebook or tag (checked by the caller of this repository). */
  notebookId?: number | undefined;
  tagId?: number | undefined;
}

export type NoteFields = Pick<Note, 'title' | 'content' | 'notebook_id' | 'group_id' | 'priority' | 'is_pinned' | 'is_archived'>;

export interface NotePage {
  notes: NoteRow[];
  page: number;
  hasNext: boolean;
}

/**
 * Notes, always through a query scoped to the caller. Who sees a note is decided here and only
 * here: its owner, and the members of its group (the same 404 for a hidden note as for a missing one).
 */
export class NotesRepository {
  private readonly groups: GroupsRepository;
  readonly details: NoteDetailsReader;

  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: Dialect,
  ) {
    this.groups = new GroupsRepository(db);
    this.details = new NoteDetailsReader(db);
  }

  /** The visibility rule (visibility.ts) as a query. */
  visibleNotes(userId: UserRef): SelectQueryBuilder<Database, 'notes', object> {
    return this.db.selectFrom('notes').where(this.visibleTo(userId));
  }

  /** visibleNotes() as a condition, for queries that join more tables to the notes. */
  private visibleTo(userId: UserRef) {
    return visibleTo(this.db, userId);
  }

  /** Notes the user may change: owned ones only; group membership never grants a change. */
  ownedNotes(userId: UserRef): SelectQueryBuilder<Database, 'notes', object> {
    return this.db.selectFrom('notes').where(ownedBy(userId));
  }

  /**
   * A note the user may see with its details and tags, the user's own reminders on it (none unless
   * they own it) and who may read and change it (the audience panel), in one query: the page's
   * only one besides the session's.
   */
  findVisibleNote(userId: number, id: number): Promise<VisibleNote | undefined> {
    return readVisibleNote(this.db, userId, id);
  }

  findOwnedNote(userId: number, id: number): Promise<Note | undefined> {
    return this.ownedNotes(userId).selectAll('notes').where('notes.id', '=', id).executeTakeFirst();
  }

  /** The tag ids of a note the user owns (for its edit form); empty for anyone else's note. */
  async ownedNoteTagIds(userId: number, noteId: number): Promise<number[]> {
    const rows = await this.ownedNotes(userId)
      .innerJoin('note_tags', 'note_tags.note_id', 'notes.id')
      .select('note_tags.tag_id')
      .where('notes.id', '=', noteId)
      .execute();
    return rows.map((row) => row.tag_id);
  }

  /**
   * One page of the visible notes, pinned first, then by priority, then most recently updated.
   * "owner = U or group in (...)" ordered and cut by LIMIT would make the database read and sort
   * every visible note. Instead each way of being visible (owned; each of the user's groups) is
   * one branch of a UNION ALL, read in list order straight off its covering index
   * (notes_owner_list, notes_group_list), and the ordered branches are merged until the page is
   * full. The cost grows with the page number, never with the number of notes. One row more than
   * a page tells whether there is a next page, without counting.
   */
  async listVisiblePage(userId: number, filters: NoteFilters, page: number, memberOf?: readonly number[]): Promise<NotePage> {
    // The page's ids and their details in one query: the page (at most PAGE_SIZE + 1 rows) is
    // joined to the details and put back in list order. Without a notebook or a tag, the
    // statement is one built before (list-query.ts).
    const offset = (page - 1) * PAGE_SIZE;
    const rows =
      filters.notebookId === undefined && filters.tagId === undefined
        ? await listPageRows(this.db, this.dialect, userId, await this.memberGroupIdsOr(userId, memberOf), filters.archived, { offset, size: PAGE_SIZE })
        : await withDetails(this.db, await this.listPageQuery(userId, filters, page, memberOf)).execute();
    return { notes: rows.slice(0, PAGE_SIZE).map((row) => NoteDetailsReader.noteRow(row)), page, hasNext: rows.length > PAGE_SIZE };
  }

  /** The page query of listVisiblePage (orderedList in list-query.ts), apart so that tests can EXPLAIN it. */
  listPageQuery(userId: number, filters: NoteFilters, page: number, memberOf?: readonly number[]) {
    return this.orderedQuery(userId, filters, { offset: (page - 1) * PAGE_SIZE, size: PAGE_SIZE }, memberOf);
  }

  /**
   * listPageQuery's query for a page of `size` that starts after `offset` notes (the page's
   * numbers) or after the note at `after` (the API's cursor, NotesApiRepository: keyset paging).
   */
  async orderedQuery(userId: number, filters: NoteFilters, start: { offset: number; size: number; after?: ListKey | null }, memberOf?: readonly number[]) {
    const parts = await this.visibilityBranches(userId, filters, memberOf);
    return orderedList(this.db, this.dialect, parts, filters.archived, { ...start, bound: start.offset + start.size + 1 });
  }

  /**
   * Full-text search over title and content of the visible notes, newest first (see search.ts),
   * with their details, in one query as the list is. Notes carrying one of the caller's own tags
   * named by the words match too (search-tags.ts).
   */
  async searchVisiblePage(userId: number, terms: SearchTerms, filters: NoteFilters, page: number): Promise<NotePage> {
    const query = this.searchPageQuery(userId, terms, filters, page);
    if (!query) return { notes: [], page, hasNext: false };
    const rows = await this.details.query().innerJoin(query.as('page'), 'page.id', 'notes.id').orderBy('page.id', 'desc').execute();
    return { notes: rows.slice(0, PAGE_SIZE).map((row) => NoteDetailsReader.noteRow(row)), page, hasNext: rows.length > PAGE_SIZE };
  }

  /** The query behind searchVisiblePage (null when there is no word to search for). */
  searchPageQuery(userId: number, terms: SearchTerms, filters: NoteFilters, page: number) {
    return searchMatches(this.db, this.dialect, this.searchScope(userId, filters), userId, terms, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
  }

  /** How many notes match with the archived filter the other way round, counting at most `cap`: the search's one extra query. */
  async countSearchMatches(userId: number, terms: SearchTerms, filters: NoteFilters, cap: number): Promise<number> {
    const query = searchMatches(this.db, this.dialect, this.searchScope(userId, filters), userId, terms, { limit: cap, offset: 0 });
    if (!query) return 0;
    return Number((await this.db.selectFrom(query.as('m')).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  }

  /** The visible notes a search may return: the filters applied, the terms not yet. */
  searchScope(userId: number, filters: NoteFilters) {
    let scope = this.visibleNotes(userId).where('notes.is_archived', '=', filters.archived ? 1 : 0);
    if (filters.notebookId !== undefined) scope = scope.where('notes.notebook_id', '=', filters.notebookId);
    if (filters.tagId !== undefined) scope = scope.where('notes.id', 'in', this.taggedNoteIds(filters.tagId));
    return scope;
  }

  /** The user's groups: `memberOf` when the caller read them already (with the session or the token), else read now. */
  async memberGroupIdsOr(userId: number, memberOf?: readonly number[]): Promise<readonly number[]> {
    return memberOf ?? (await this.groups.memberGroupIds(userId).execute()).map((row) => row.group_id);
  }

  /**
   * visibleNotes() split into disjoint parts, each readable in list order from one index: the
   * owner's notes, then per group of the user (`memberOf`, when the caller already read them with
   * the session; else read here) the group's notes owned by someone else. A filter
   * on the caller's own notebook or tag keeps the owner part only: forms link a note only to its
   * owner's notebook and tags, so no other part could match.
   */
  private async visibilityBranches(userId: number, filters: NoteFilters, memberOf?: readonly number[]): Promise<NotesWhere[]> {
    if (filters.notebookId === undefined && filters.tagId === undefined) return visibleParts(userId, await this.memberGroupIdsOr(userId, memberOf));
    const owned: NotesWhere = (eb) => {
      const conditions = [eb('notes.owner_id', '=', userId)];
      if (filters.notebookId !== undefined) conditions.push(eb('notes.notebook_id', '=', filters.notebookId));
      if (filters.tagId !== undefined) conditions.push(eb('notes.id', 'in', this.taggedNoteIds(filters.tagId)));
      return eb.and(conditions);
    };
    return [owned];
  }

  /** Run inside a transaction: the note and its tag links are one change. */
  async insert(ownerId: number, fields: NoteFields, tagIds: number[], now = Date.now()): Promise<number> {
    const { id } = await this.db
      .insertInto('notes')
      .values({ ...noteValues(fields, now), owner_id: ownerId, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.linkTags(id, tagIds);
    return id;
  }

  /**
   * The owner's note and its tags saved at once (atomically), only if `checks` (a one-row query
   * with a boolean `passed`) passes; the checks' row comes back, with whether anything was saved
   * (not when they own no such note). `shared`, the event of the note put into a group, is
   * recorded in the same change when the note was not in that group before (once, not on every
   * edit). On PostgreSQL one statement, so no lock is held across round trips: every note write
   * also takes its author's and its group's row (their view versions, migration 0007), and a
   * transaction of five round trips held the group's for as long, queueing the group's other
   * writers behind it. `before` locks the note first, so that of two edits at once the second
   * reads the group the first left. SQLite runs the checks and the change as one transaction of
   * statements in this process. With `notifier`, the members of a group the note is put into are
   * told in the same change (`told`: who was), on PostgreSQL in the same statement.
   */
  async updateOwned<C extends { passed: SqlBool }>(
    checks: SelectQueryBuilder<Database, never, C>,
    ownerId: number,
    id: number,
    fields: NoteFields,
    tagIds: number[],
    shared?: ActivityEvent,
    now = Date.now(),
    notifier?: Notifier,
  ): Promise<{ checked: C; saved: boolean; told: number[] }> {
    const values = noteValues(fields, now);
    // Put into a group it was not in: the group's other members are told (groupShareNotice), with the change.
    const tell = shared && notifier ? { notifier, ...groupShareNotice(this.db, { groupId: shared.groupId, actorId: ownerId, object: { kind: 'note', title: sql.val(fields.title), path: `/notes/${id}/` } }) } : undefined;
    if (this.dialect === 'postgres') {
      const before = this.db.selectFrom('notes').select(['id', 'group_id']).where('owner_id', '=', ownerId).where('id', '=', id).where(sql<SqlBool>`(select passed from checks)`).forUpdate();
      const moved = (group: number) => sql<SqlBool>`exists (select 1 from before where before.group_id is distinct from ${group})`;
      const record = shared ? sql`, shared as (${activityInsertWhen(this.db, shared, moved(shared.groupId), now)})` : sql``;
      const told = tell && shared ? tell.notifier.mergingStatements(this.db, tell.recipients, tell.notification, moved(shared.groupId), now) : undefined;
      const telling = told ? sql`, told_merged as (${told.merged}), told_added as (${told.added})` : sql``;
      const toldIds = told ? sql`array(select user_id from told_merged union select user_id from told_added)` : sql`array[]::int[]`;
      const { rows } = await sql<C & { saved: number; told: number[] }>`with checks as (${checks}), before as (${before}),
        saved as (${this.db.updateTable('notes').set(values).where('id', 'in', sql<number>`(select id from before)`).returning('id')}),
        removed as (delete from note_tags where note_id in (select id from saved) and tag_id <> all(${tagIds}::int[])),
        added as (insert into note_tags (note_id, tag_id) select saved.id, tag.id from saved cross join unnest(${tagIds}::int[]) as tag(id) on conflict do nothing)${record}${telling}
        select checks.*, (select count(*)::int from saved) as saved, ${toldIds} as told from checks`.execute(this.db);
      const { saved, told: toldRows, ...checked } = rows[0]!;
      return { checked: checked as unknown as C, saved: saved > 0, told: toldRows };
    }
    // In the caller's transaction when there is one (the API's If-Match check locks, reads, then writes).
    const write = async (trx: Kysely<Database>) => {
      const [checked] = (await trx.executeQuery(checks.compile())).rows;
      if (!checked) throw new Error('the checks gave no row');
      if (Number(checked.passed) !== 1) return { checked, saved: false, told: [] };
      const before = shared ? await trx.selectFrom('notes').select('group_id').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst() : undefined;
      const result = await trx.updateTable('notes').set(values).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
      if (result.numUpdatedRows === 0n) return { checked, saved: false, told: [] };
      // Only the links that change, as on PostgreSQL: each link deleted or added fires the view
      // versions' triggers (three updates), so writing the same links again cost every edit.
      await trx.deleteFrom('note_tags').where('note_id', '=', id).$if(tagIds.length > 0, (query) => query.where('tag_id', 'not in', tagIds)).execute();
      if (tagIds.length > 0) await trx.insertInto('note_tags').values(tagIds.map((tagId) => ({ note_id: id, tag_id: tagId }))).onConflict((conflict) => conflict.doNothing()).execute();
      const moved = shared !== undefined && before?.group_id !== shared.groupId;
      if (moved) await recordActivity(trx, shared, now);
      const told = moved && tell ? await tell.notifier.addMerging(trx, tell.recipients, tell.notification, now) : [];
      return { checked, saved: true, told };
    };
    return this.db.isTransaction ? write(this.db) : this.db.transaction().execute(write);
  }

  /**
   * Deletes the owner's note and leaves its tombstone (its group of that moment, not its text), in
   * one transaction; the owner's tombstones older than TOMBSTONE_DAYS go with it.
   */
  async deleteOwned(ownerId: number, id: number, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('notes').where('owner_id', '=', ownerId).where('id', '=', id).returning('group_id').executeTakeFirst();
      if (!deleted) return false;
      await trx.deleteFrom('note_tombstones').where('owner_id', '=', ownerId).where('deleted_at', '<', now - TOMBSTONE_DAYS * DAY_MS).execute();
      await trx
        .insertInto('note_tombstones')
        .values({ note_id: id, owner_id: ownerId, group_id: deleted.group_id, deleted_at: now })
        .onConflict((oc) => oc.column('note_id').doUpdateSet({ owner_id: ownerId, group_id: deleted.group_id, deleted_at: now }))
        .execute();
      return true;
    });
  }

  /**
   * When note `id` was deleted and whether `userId` deleted it, if they may know: its owner, or a
   * member of the group it was in. Anyone else learns nothing (undefined, as for an id never used).
   */
  async deletedFor(userId: number, id: number): Promise<{ deletedAt: number; byViewer: boolean } | undefined> {
    const row = await this.db
      .selectFrom('note_tombstones')
      .select(['deleted_at', 'owner_id'])
      .where('note_id', '=', id)
      .where((eb) => eb.or([eb('owner_id', '=', userId), eb('group_id', 'in', this.groups.memberGroupIds(userId))]))
      .executeTakeFirst();
    return row && { deletedAt: row.deleted_at, byViewer: row.owner_id === userId };
  }

  private async linkTags(noteId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    await this.db.insertInto('note_tags').values(tagIds.map((tagId) => ({ note_id: noteId, tag_id: tagId }))).execute();
  }

  private taggedNoteIds(tagId: number) {
    return this.db.selectFrom('note_tags').select('note_tags.note_id').where('note_tags.tag_id', '=', tagId);
  }
}
