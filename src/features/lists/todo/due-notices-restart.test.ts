import { afterEach, describe, expect, it } from 'vitest';
import { addTodoItem, createTestDatabase, createTodoList, createUser, testConfig, type TestDatabase } from '../../../../test/index.js';
import { openDatabase } from '../../../db/database.js';
import { migrateToLatest } from '../../../db/migrate.js';
import { type RunningServer, startServer } from '../../../server.js';

// An item that fell overdue while the service was down is told once the server is back (the
// server starts the due-date scheduler, which looks at once), and not again after another restart.

let testDb: TestDatabase | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  await testDb?.drop();
  server = undefined;
  testDb = undefined;
});

describe('a to-do item overdue while the service was down', () => {
  it('is told once the server starts, and not again after a restart', async () => {
    testDb = await createTestDatabase();
    const offline = openDatabase(testDb.url, { poolSize: 1 });
    await migrateToLatest(offline.db);
    const owner = await createUser(offline.db);
    const list = await createTodoList(offline.db, owner, { title: 'Bills' });
    const item = await addTodoItem(offline.db, list, { text: 'Pay rent', due_date: '2020-01-01' });
    // As the page leaves a new item with a date: looked at by the next scheduler to run.
    await offline.db.updateTable('todo_items').set({ due_notice_at: 0 }).where('id', '=', item.id).execute();
    await offline.close();

    const start = () => startServer(testConfig({ DATABASE_URL: testDb!.url, PORT: '0' }));
    server = await start();
    const notifications = () => server!.database.db.selectFrom('notifications').select(['user_id', 'kind', 'text']).execute();
    const overdue = [{ user_id: owner.id, kind: 'todo.overdue', text: 'Overdue: “Pay rent” in the to-do list Bills' }];
    await expect.poll(notifications, { timeout: 5_000, interval: 20 }).toEqual(overdue);
    await server.close();

    server = await start();
    await expect.poll(async () => (await server!.database.db.selectFrom('todo_items').select('due_notice_at').executeTakeFirstOrThrow()).due_notice_at).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await notifications()).toEqual(overdue);
  });
});
