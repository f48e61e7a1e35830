import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Flips a note's pinned or archived flag in one statement (no read-modify-write race), for its
 * owner only: the new state, or undefined when the user owns no such note (the caller's 404).
 * The note's updated time stays: pinning or archiving is not editing.
 */
export async function toggleOwnedFlag(db: Kysely<Database>, flag: 'is_pinned' | 'is_archived', ownerId: number, id: number): Promise<boolean | undefined> {
  const row = await db
    .updateTable('notes')
    .set({ [flag]: sql<number>`1 - ${sql.ref(flag)}` })
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .returning(flag)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row[flag]) === 1;
}
