import type { Kysely } from 'kysely';
import { isOneOf } from '../../db/id-lists.js';
import type { Database, SharePermission } from '../../db/schema.js';
import { searchWords } from '../../db/search-words.js';
import { identityKey } from '../../platform/identity-key.js';
import type { Repeat } from '../../platform/wall-clock.js';
import { plainExcerpt } from '../notes/index.js';
import { TagsRepository } from '../tags/index.js';

export interface ImportedNote {
  title: string;
  content: string;
  notebook_id: number | null;
  group_id: number | null;
  priority: number;
  is_pinned: number;
  is_archived: number;
  created_at: number;
  updated_at: number;
}

export interface ImportedReminder {
  local_time: string;
  time_zone: string;
  repeat: Repeat;
  message: string;
  next_due_at: number;
}

/**
 * The writes of one import, run inside its transaction. Every row is written with the importing
 * user as owner, and the only rows of others it reads are the groups the user is a member of.
 */
export class ImportRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly ownerId: number,
  ) {}

  /** The user's notebooks by the key of their title: an import reuses a notebook of the same name. */
  async notebooksByKey(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('notebooks').select(['id', 'title']).where('owner_id', '=', this.ownerId).orderBy('id').execute();
    const byKey = new Map<string, number>();
    for (const row of rows) if (!byKey.has(identityKey(row.title))) byKey.set(identityKey(row.title), row.id);
    return byKey;
  }

  async tagsByKey(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('tags').select(['id', 'name_key']).where('owner_id', '=', this.ownerId).execute();
    return new Map(rows.map((row) => [row.name_key, row.id]));
  }

  /** The groups the user is a member of now, by id, with their names. */
  async memberGroups(): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('group_members')
      .innerJoin('groups', 'groups.id', 'group_members.group_id')
      .select(['groups.id', 'groups.name'])
      .where('group_members.user_id', '=', this.ownerId)
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async insertNotebook(fields: { title: string; description: string; color: string; created_at: number; updated_at: number }): Promise<number> {
    const row = await this.db.insertInto('notebooks').values({ ...fields, title_key: identityKey(fields.title), owner_id: this.ownerId }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async insertTag(fields: { name: string; color: string }, createdAt: number): Promise<number> {
    return (await new TagsRepository(this.db).insert(this.ownerId, fields, createdAt)).id;
  }

  /** `title\0content` of the user's notes with one of these titles: the notes an import would duplicate. */
  async existingNoteKeys(titles: string[]): Promise<Set<string>> {
    if (titles.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('notes')
      .select(['title', 'content'])
      .where('owner_id', '=', this.ownerId)
      .where((eb) => isOneOf(this.db, eb.ref('title'), [...new Set(titles)]))
      .execute();
    return new Set(rows.map((row) => noteKey(row.title, row.content)));
  }

  /** The new note's id. */
  async insertNote(note: ImportedNote, tagIds: number[]): Promise<number> {
    const { id } = await this.db
      .insertInto('notes')
      .values({ ...note, excerpt: plainExcerpt(note.content), search_words: searchWords(note.title, note.content), owner_id: this.ownerId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unique = [...new Set(tagIds)];
    if (unique.length > 0) await this.db.insertInto('note_tags').values(unique.map((tagId) => ({ note_id: id, tag_id: tagId }))).execute();
    return id;
  }

  /** Reminders on a note this import has just created (so the user owns it, and it has no others). */
  async insertReminders(noteId: number, reminders: ImportedReminder[], createdAt: number): Promise<void> {
    if (reminders.length === 0) return;
    await this.db.insertInto('reminders').values(reminders.map((reminder) => ({ ...reminder, note_id: noteId, owner_id: this.ownerId, created_at: createdAt }))).execute();
  }

  /** Whether the user has a list of this kind with this title made at this time: the same list, imported before. */
  async hasList(kind: 'todo_lists' | 'shopping_lists', title: string, createdAt: number): Promise<boolean> {
    const row = await this.db.selectFrom(kind).select('id').where('owner_id', '=', this.ownerId).where('title', '=', title).where('created_at', '=', createdAt).executeTakeFirst();
    return row !== undefined;
  }

  async insertTodoList(
    list: { title: string; description: string; group_id: number | null; group_permission: SharePermission; created_at: number; updated_at: number },
    items: { text: string; due_date: string | null; is_done: number; position: number; created_at: number }[],
  ): Promise<void> {
    const { id } = await this.db.insertInto('todo_lists').values({ ...list, owner_id: this.ownerId }).returning('id').executeTakeFirstOrThrow();
    // Due-date notices as for items there before migration 0029: the past counts as told, the rest is looked at.
    const today = new Date().toISOString().slice(0, 10);
    const notices = (item: { due_date: string | null; is_done: number }) =>
      item.due_date === null ? {} : item.due_date < today ? { due_notice: 2 } : { due_notice_at: item.is_done === 0 ? 0 : null };
    for (const chunk of chunks(items)) await this.db.insertInto('todo_items').values(chunk.map((item) => ({ ...item, list_id: id, ...notices(item) }))).execute();
  }

  async insertShoppingList(
    list: { title: string; store_name: string; group_id: number | null; group_permission: SharePermission; currency?: string | undefined; created_at: number; updated_at: number },
    items: { name: string; quantity_milli: number; unit: string; estimated_price_cents: number | null; is_bought: number; created_at: number; bought_at?: number | null }[],
  ): Promise<void> {
    // Without a currency (an export made before it had one), the importing user's.
    const currency = list.currency ?? this.db.selectFrom('users').select('users.currency').where('users.id', '=', this.ownerId);
    const { id } = await this.db.insertInto('shopping_lists').values({ ...list, currency, owner_id: this.ownerId }).returning('id').executeTakeFirstOrThrow();
    // The document says bought; the table says done (migration 0024).
    const rows = items.map(({ is_bought, bought_at, ...item }) => ({ ...item, is_done: is_bought, done_at: bought_at ?? null, list_id: id }));
    for (const chunk of chunks(rows)) await this.db.insertInto('shopping_items').values(chunk).execute();
  }
}

/** Rows per multi-row insert: well under SQLite's limit of bound values per statement. */
const INSERT_CHUNK = 500;

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) yield rows.slice(start, start + INSERT_CHUNK);
}

export function noteKey(title: string, content: string): string {
  return `${title}\u0000${content}`;
}
