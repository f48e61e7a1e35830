import { afterEach, describe, expect, it } from 'vitest';
import { createNote, createTestDatabase, createUser, testConfig, type TestDatabase } from '../../../test/index.js';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { type RunningServer, startServer } from '../../server.js';

// A reminder that fell due while the service was down is delivered when it comes back: the
// server starts the scheduler, which looks at the table at once.

let testDb: TestDatabase | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  await testDb?.drop();
  server = undefined;
  testDb = undefined;
});

describe('a reminder due while the service was down', () => {
  it('is delivered once the server starts', async () => {
    testDb = await createTestDatabase();
    const offline = openDatabase(testDb.url, { poolSize: 1 });
    await migrateToLatest(offline.db);
    const user = await createUser(offline.db);
    const note = await createNote(offline.db, user, { title: 'Pay rent' });
    const dueAt = Date.now() - 60 * 60 * 1000;
    await offline.db
      .insertInto('reminders')
      .values({ note_id: note.id, owner_id: user.id, local_time: new Date(dueAt).toISOString().slice(0, 16), time_zone: 'UTC', repeat: 'none', message: '', next_due_at: dueAt, created_at: dueAt })
      .execute();
    await offline.close();

    server = await startServer(testConfig({ DATABASE_URL: testDb.url, PORT: '0' }));
    const notifications = () => server!.database.db.selectFrom('notifications').select(['user_id', 'kind', 'text']).execute();
    await expect.poll(notifications, { timeout: 5_000, interval: 20 }).toEqual([{ user_id: user.id, kind: 'reminder', text: 'Reminder: Pay rent' }]);
    expect(await server.database.db.selectFrom('reminders').selectAll().execute()).toEqual([]);
  });
});
