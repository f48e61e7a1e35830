import type { Message } from '../../platform/i18n/index.js';
import type { Kysely } from 'kysely';
import { lockedForUpdate } from '../../db/locks.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Notebook } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';

export type NotebookFields = Pick<Notebook, 'title' | 'description' | 'color'>;
export type NotebookWithCount = Notebook & { note_count: number };

/** The form's words for a title the owner already has (once folded, as tag names are). */
export const titleTaken = (title: string): Message => ({ key: 'notebook_form.title_taken', values: { title } });

/**
 * `write` (an insert or a rename), or null when the unique index on (owner_id, title_key) refused
 * it: two saves of one title at once cannot both pass, and the loser gets the form's error.
 */
export async function unlessTitleTaken<T>(write: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await write() };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false };
    throw error;
  }
}

/** Notebooks are private to their owner: every lookup here is scoped to the caller. */
export class NotebooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The owner's notebooks by title, each with how many notes it holds (counted off the notebook index). */
  listOwned(ownerId: number): Promise<NotebookWithCount[]> {
    return this.db
      .selectFrom('notebooks')
      .selectAll('notebooks')
      .select((eb) => eb.selectFrom('notes').select(eb.fn.countAll<number>().as('n')).whereRef('notes.notebook_id', '=', 'notebooks.id').as('note_count'))
      .where('notebooks.owner_id', '=', ownerId)
      .orderBy('notebooks.title_key')
      .orderBy('notebooks.id')
      .execute() as Promise<NotebookWithCount[]>;
  }

  /** Id and title only, for the notebook chooser of the note form. */
  listChoices(ownerId: number): Promise<Pick<Notebook, 'id' | 'title'>[]> {
    return this.db.selectFrom('notebooks').select(['id', 'title']).where('owner_id', '=', ownerId).orderBy('title_key').orderBy('id').execute();
  }

  /** `lock`: in a transaction, keeps the row as read until it ends (an API update's If-Match). */
  findOwned(ownerId: number, id: number, { lock = false } = {}): Promise<Notebook | undefined> {
    const query = this.db.selectFrom('notebooks').selectAll().where('owner_id', '=', ownerId).where('id', '=', id);
    return (lock ? lockedForUpdate(this.db, query) : query).executeTakeFirst();
  }

  /** A page of the owner's notebooks in id order, after `afterId`: keyset paging for the API. */
  pageOwned(ownerId: number, afterId: number | null, limit: number): Promise<Notebook[]> {
    let query = this.db.selectFrom('notebooks').selectAll().where('owner_id', '=', ownerId);
    if (afterId !== null) query = query.where('id', '>', afterId);
    return query.orderBy('id').limit(limit).execute();
  }

  insert(ownerId: number, fields: NotebookFields, now = Date.now()): Promise<Notebook> {
    return this.db
      .insertInto('notebooks')
      .values({ ...fields, title_key: identityKey(fields.title), owner_id: ownerId, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateOwned(ownerId: number, id: number, fields: NotebookFields, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('notebooks')
      .set({ ...fields, title_key: identityKey(fields.title), updated_at: now })
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Deletes the notebook; its notes stay, without a notebook (ON DELETE SET NULL). */
  async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('notebooks').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
