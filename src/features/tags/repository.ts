import type { Kysely } from 'kysely';
import { lockedForUpdate } from '../../db/locks.js';
import type { Database, Tag } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';

export type TagFields = Pick<Tag, 'name' | 'color'>;

/** A tag with the number of notes that carry it. */
export type TagWithCount = Tag & { note_count: number };

/** Tags are private to their owner: every lookup here is scoped to the caller. */
export class TagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listOwned(ownerId: number): Promise<Tag[]> {
    return this.db.selectFrom('tags').selectAll().where('owner_id', '=', ownerId).orderBy('name_key').orderBy('id').execute();
  }

  /** The owner's tags by name, each with how many of their notes carry it (counted off the tag index). */
  listOwnedWithCounts(ownerId: number): Promise<TagWithCount[]> {
    return this.db
      .selectFrom('tags')
      .selectAll('tags')
      .select((eb) => eb.selectFrom('note_tags').select(eb.fn.countAll<number>().as('n')).whereRef('note_tags.tag_id', '=', 'tags.id').as('note_count'))
      .where('tags.owner_id', '=', ownerId)
      .orderBy('tags.name_key')
      .orderBy('tags.id')
      .execute() as Promise<TagWithCount[]>;
  }

  /** `lock`: in a transaction, keeps the row as read until it ends (an API update's If-Match). */
  findOwned(ownerId: number, id: number, { lock = false } = {}): Promise<Tag | undefined> {
    const query = this.db.selectFrom('tags').selectAll().where('owner_id', '=', ownerId).where('id', '=', id);
    return (lock ? lockedForUpdate(this.db, query) : query).executeTakeFirst();
  }

  /** A page of the owner's tags in id order, after `afterId`: keyset paging for the API. */
  pageOwned(ownerId: number, afterId: number | null, limit: number): Promise<Tag[]> {
    let query = this.db.selectFrom('tags').selectAll().where('owner_id', '=', ownerId);
    if (afterId !== null) query = query.where('id', '>', afterId);
    return query.orderBy('id').limit(limit).execute();
  }

  async nameTaken(ownerId: number, name: string, exceptId?: number): Promise<boolean> {
    let query = this.db.selectFrom('tags').select('id').where('owner_id', '=', ownerId).where('name_key', '=', identityKey(name));
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Tag names are written here only (insert and update), so that every row's key is worked out the same way. */
  insert(ownerId: number, fields: TagFields, now = Date.now()): Promise<Tag> {
    return this.db
      .insertInto('tags')
      .values({ ...fields, name_key: identityKey(fields.name), owner_id: ownerId, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateOwned(ownerId: number, id: number, fields: TagFields): Promise<boolean> {
    const result = await this.db.updateTable('tags').set({ ...fields, name_key: identityKey(fields.name) }).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Unlinks the tag from its notes (note_tags cascades) and deletes it. */
  async deleteOwned(ownerId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('tags').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
