import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { type NoteRow, NoteDetailsReader } from './details.js';
import { type ListKey, listPageRows, withDetails } from './list-query.js';
import { type NoteFilters, NotesRepository } from './repository.js';
import { type SearchTerms, matchingNotesQuery } from './search.js';

/** A note as the API shows it: the list's details with the whole content and the creation time. */
export type FullNoteRow = NoteRow & { content: string; created_at: number };

export interface FullNotePage {
  notes: FullNoteRow[];
  hasNext: boolean;
}

const isFull = (row: NoteRow & { content?: string; created_at?: number }): row is FullNoteRow => row.content !== undefined && row.created_at !== undefined;

/** A row read with the details' `full` columns: its content and creation time are there. */
function fullRow(row: NoteRow & { content?: string; created_at?: number }): FullNoteRow {
  if (!isFull(row)) throw new Error('a full note row without its content');
  return row;
}

/**
 * The JSON API's variants of the pages' scoped reads: the same visibility rules and the same
 * queries (the pages' NotesRepository, which it is built on), paged by a key (the API's cursor)
 * instead of a page number, and with the whole note rather than the list's excerpt.
 */
export class NotesApiRepository {
  readonly notes: NotesRepository;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.notes = new NotesRepository(db, dialect);
  }

  /** A note the user may see, as the pages read it. */
  findVisibleNote(userId: number, id: number) {
    return this.notes.findVisibleNote(userId, id);
  }

  /** A note the user owns, as the pages read it. */
  findOwnedNote(userId: number, id: number) {
    return this.notes.findOwnedNote(userId, id);
  }

  /**
   * listPageQuery for a page that starts after a note's ListKey rather than after a count of
   * notes: each branch starts its index scan at the key ("keyset" paging), so a page costs the
   * same however deep it is, and notes added meanwhile shift nothing.
   */
  listAfterQuery(userId: number, filters: NoteFilters, after: ListKey | null, size: number) {
    return this.notes.orderedQuery(userId, filters, { offset: 0, after, size });
  }

  /**
   * listVisiblePage's notes and order: `size` notes after `after` (null: from the top). Without a
   * notebook or a tag, the statement is one built before (list-query.ts), and `memberOf` (the
   * caller's groups, read with their token or session) spares the query that would read them.
   */
  async listVisibleAfter(userId: number, filters: NoteFilters, after: ListKey | null, size: number, memberOf?: readonly number[]): Promise<FullNotePage> {
    const rows =
      filters.notebookId === undefined && filters.tagId === undefined
        ? await listPageRows(this.notes.db, this.notes.dialect, userId, await this.notes.memberGroupIdsOr(userId, memberOf), filters.archived, { offset: 0, size, after, full: true })
        : await withDetails(this.notes.db, await this.listAfterQuery(userId, filters, after, size), true).execute();
    return { notes: rows.slice(0, size).map((row) => fullRow(NoteDetailsReader.noteRow(row))), hasNext: rows.length > size };
  }

  /**
   * searchVisiblePage's matches: `size` of them older than note `beforeId` (null: the newest).
   * Search is newest first, by id (search.ts, not ranked), so the id alone places a page exactly.
   */
  async searchVisibleAfter(userId: number, terms: SearchTerms, filters: NoteFilters, beforeId: number | null, size: number): Promise<FullNotePage> {
    const query = matchingNotesQuery(this.notes.db, this.notes.dialect, this.notes.searchScope(userId, filters), terms.text, { limit: size + 1, offset: 0, beforeId });
    if (!query) return { notes: [], hasNext: false };
    const rows = await this.notes.details.query(true).innerJoin(query.as('page'), 'page.id', 'notes.id').orderBy('page.id', 'desc').execute();
    return { notes: rows.slice(0, size).map((row) => fullRow(NoteDetailsReader.noteRow(row))), hasNext: rows.length > size };
  }

  /**
   * Inside a transaction: locks the user's own note until the transaction ends, so that what is
   * read next is what the write will change (an If-Match check). PostgreSQL locks the row; on
   * SQLite every transaction already holds the database's write lock (BEGIN IMMEDIATE). False
   * when the user owns no such note.
   */
  async lockOwned(userId: number, id: number): Promise<boolean> {
    const owned = this.notes.ownedNotes(userId).select('notes.id').where('notes.id', '=', id);
    return (await lockedForUpdate(this.notes.db, owned).executeTakeFirst()) !== undefined;
  }
}
