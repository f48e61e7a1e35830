import type { Kysely } from 'kysely';
import { isOneOf } from '../../db/id-lists.js';
import type { Database, Notebook, Note, Reminder, ShoppingItem, ShoppingList, Tag, TodoItem, TodoList } from '../../db/schema.js';

/** Rows read per query: a page of notes is at most a few megabytes however long they are. */
export const EXPORT_PAGE_SIZE = 200;

export type ExportReminder = Pick<Reminder, 'local_time' | 'time_zone' | 'repeat' | 'message' | 'next_due_at'>;
export type ExportNote = Omit<Note, 'excerpt' | 'search_words' | 'view_version' | 'owner_id'> & { tag_ids: number[]; reminders: ExportReminder[] };
/** Who an item is for and who ticked it, by name (null: nobody, or an account since deleted): for the Markdown files. */
export type ExportTodoList = TodoList & { items: (TodoItem & { assignee_name: string | null; done_by_name: string | null })[] };
export type ExportShoppingList = ShoppingList & { items: (ShoppingItem & { done_by_name: string | null })[] };
/** One of the user's own chat messages, with its group's name. */
export type ExportChatMessage = { group_id: number; group_name: string; content: string; created_at: number };

/**
 * Everything one user owns, read for their export: every query is scoped by owner_id (items
 * through their lists), so nothing of anyone else (a group member's notes included) is read.
 * Notes and lists come in pages, ordered by id, so an export of any size is read in bounded memory.
 */
export class ExportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  notebooks(ownerId: number): Promise<Notebook[]> {
    return this.db.selectFrom('notebooks').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  tags(ownerId: number): Promise<Tag[]> {
    return this.db.selectFrom('tags').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  /** The groups the user's notes and lists name, by id and name (for the re-import). */
  referencedGroups(ownerId: number): Promise<{ id: number; name: string }[]> {
    const fromNotes = this.db.selectFrom('notes').select('group_id').where('owner_id', '=', ownerId).where('group_id', 'is not', null);
    const fromTodoLists = this.db.selectFrom('todo_lists').select('group_id').where('owner_id', '=', ownerId).where('group_id', 'is not', null);
    const fromLists = this.db.selectFrom('shopping_lists').select('group_id').where('owner_id', '=', ownerId).where('group_id', 'is not', null);
    return this.db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('id', 'in', fromNotes), eb('id', 'in', fromTodoLists), eb('id', 'in', fromLists)]))
      .orderBy('id')
      .execute();
  }

  async *notes(ownerId: number): AsyncGenerator<ExportNote[]> {
    for (let after = 0; ; ) {
      const notes = await this.db
        .selectFrom('notes')
        .select(['id', 'title', 'content', 'notebook_id', 'group_id', 'priority', 'is_pinned', 'is_archived', 'created_at', 'updated_at'])
        .where('owner_id', '=', ownerId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(EXPORT_PAGE_SIZE)
        .execute();
      if (notes.length === 0) return;
      const links = await this.db
        .selectFrom('note_tags')
        .select(['note_id', 'tag_id'])
        .where((eb) => isOneOf(this.db, eb.ref('note_id'), notes.map((note) => note.id)))
        .orderBy('tag_id')
        .execute();
      const tagIds = new Map<number, number[]>();
      for (const link of links) tagIds.set(link.note_id, [...(tagIds.get(link.note_id) ?? []), link.tag_id]);
      const reminders = await this.db
        .selectFrom('reminders')
        .select(['note_id', 'local_time', 'time_zone', 'repeat', 'message', 'next_due_at'])
        .where('owner_id', '=', ownerId)
        .where((eb) => isOneOf(this.db, eb.ref('note_id'), notes.map((note) => note.id)))
        .orderBy('next_due_at')
        .orderBy('id')
        .execute();
      const remindersOf = new Map<number, ExportReminder[]>();
      for (const { note_id, ...reminder } of reminders) remindersOf.set(note_id, [...(remindersOf.get(note_id) ?? []), reminder]);
      yield notes.map((note) => ({ ...note, tag_ids: tagIds.get(note.id) ?? [], reminders: remindersOf.get(note.id) ?? [] }));
      after = notes.at(-1)!.id;
    }
  }

  async *todoLists(ownerId: number): AsyncGenerator<ExportTodoList[]> {
    for (let after = 0; ; ) {
      const lists = await this.db.selectFrom('todo_lists').selectAll().where('owner_id', '=', ownerId).where('id', '>', after).orderBy('id').limit(EXPORT_PAGE_SIZE).execute();
      if (lists.length === 0) return;
      const items = await this.db
        .selectFrom('todo_items')
        .leftJoin('users as assignee', 'assignee.id', 'todo_items.assignee_id')
        .leftJoin('users as doer', 'doer.id', 'todo_items.done_by')
        .selectAll('todo_items')
        .select(['assignee.username as assignee_name', 'doer.username as done_by_name'])
        .where((eb) => isOneOf(this.db, eb.ref('todo_items.list_id'), lists.map((list) => list.id)))
        .orderBy('todo_items.position')
        .orderBy('todo_items.id')
        .execute();
      yield lists.map((list) => ({ ...list, items: items.filter((item) => item.list_id === list.id) }));
      after = lists.at(-1)!.id;
    }
  }

  async *shoppingLists(ownerId: number): AsyncGenerator<ExportShoppingList[]> {
    for (let after = 0; ; ) {
      const lists = await this.db.selectFrom('shopping_lists').selectAll().where('owner_id', '=', ownerId).where('id', '>', after).orderBy('id').limit(EXPORT_PAGE_SIZE).execute();
      if (lists.length === 0) return;
      const items = await this.db
        .selectFrom('shopping_items')
        .leftJoin('users as buyer', 'buyer.id', 'shopping_items.done_by')
        .selectAll('shopping_items')
        .select('buyer.username as done_by_name')
        .where((eb) => isOneOf(this.db, eb.ref('shopping_items.list_id'), lists.map((list) => list.id)))
        .orderBy('shopping_items.id')
        .execute();
      yield lists.map((list) => ({ ...list, items: items.filter((item) => item.list_id === list.id) }));
      after = lists.at(-1)!.id;
    }
  }

  /** The user's own chat messages (not the other members': theirs to take away; not those deleted), by group, oldest first, a page at a time. */
  async *chatMessages(authorId: number): AsyncGenerator<ExportChatMessage[]> {
    for (let after = 0; ; ) {
      const rows = await this.db
        .selectFrom('chat_messages')
        .innerJoin('groups', 'groups.id', 'chat_messages.group_id')
        .select(['chat_messages.id', 'chat_messages.group_id', 'groups.name as group_name', 'chat_messages.content', 'chat_messages.created_at'])
        .where('chat_messages.author_id', '=', authorId)
        .where('chat_messages.deleted_at', 'is', null)
        .where('chat_messages.id', '>', after)
        .orderBy('chat_messages.id')
        .limit(EXPORT_PAGE_SIZE)
        .execute();
      if (rows.length === 0) return;
      yield rows.map(({ group_id, group_name, content, created_at }) => ({ group_id, group_name, content, created_at: Number(created_at) }));
      after = rows.at(-1)!.id;
    }
  }
}
