import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
});

async function addNote(): Promise<{ userId: number; noteId: number }> {
  const user = await db.insertInto('users').values({ username: 'ann', username_key: 'ann', email: '', password: 'x', date_joined: 0 }).returning('id').executeTakeFirstOrThrow();
  const note = await db
    .insertInto('notes')
    .values({ owner_id: user.id, title: 'Milk', content: '', search_words: '', priority: 0, is_pinned: 0, is_archived: 0, created_at: 0, updated_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, noteId: note.id };
}

const reminder = (noteId: number, ownerId: number) => ({
  note_id: noteId, owner_id: ownerId, local_time: '2030-01-01T09:00', time_zone: 'UTC', repeat: 'none' as const, next_due_at: 1, created_at: 0,
});
const noteVersion = async (id: number) => (await db.selectFrom('notes').select('view_version').where('id', '=', id).executeTakeFirstOrThrow()).view_version;

describe('migration 0015 (reminders)', () => {
  it('moves the note page version on every reminder change, and deleting the note deletes its reminders', async () => {
    const { userId, noteId } = await addNote();
    const start = await noteVersion(noteId);
    const { id } = await db.insertInto('reminders').values(reminder(noteId, userId)).returning('id').executeTakeFirstOrThrow();
    expect(await noteVersion(noteId)).toBe(start + 1);
    await db.updateTable('reminders').set({ next_due_at: 2 }).where('id', '=', id).execute();
    expect(await noteVersion(noteId)).toBe(start + 2);
    await db.deleteFrom('reminders').where('id', '=', id).execute();
    expect(await noteVersion(noteId)).toBe(start + 3);
    await db.insertInto('reminders').values(reminder(noteId, userId)).execute();
    await db.deleteFrom('notes').where('id', '=', noteId).execute();
    expect(await db.selectFrom('reminders').selectAll().execute()).toEqual([]);
  });

  it('goes down, keeping the notes, and up again', async () => {
    const { userId, noteId } = await addNote();
    await db.insertInto('reminders').values(reminder(noteId, userId)).execute();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo('0014_notifications');
    expect(down.error).toBeUndefined();
    await expect(sql`select * from reminders`.execute(db)).rejects.toThrow(/reminders/);
    const before = await noteVersion(noteId);
    await db.updateTable('notes').set({ title: 'Bread' }).where('id', '=', noteId).execute();
    expect(await noteVersion(noteId)).toBe(before + 1);
    await migrateToLatest(db);
    // Later migrations may move it too (0031 fills the note's search words).
    const up = await noteVersion(noteId);
    expect(up).toBeGreaterThanOrEqual(before + 1);
    await db.insertInto('reminders').values(reminder(noteId, userId)).execute();
    expect(await noteVersion(noteId)).toBe(up + 1);
  });
});
