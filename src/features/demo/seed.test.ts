import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, loggedIn, TEST_ITERATIONS, type TestApp, TestBrowser } from '../../../test/index.js';
import { DEMO_USERNAMES, DemoRefused, type DemoLogin, seedDemo } from './seed.js';

let t: TestApp;
let logins: DemoLogin[];
const browsers: Record<string, TestBrowser> = {};

async function signIn(login: DemoLogin): Promise<TestBrowser> {
  const browser = new TestBrowser(t.app);
  await browser.login(login.username, login.password);
  return browser;
}

beforeAll(async () => {
  t = await buildTestApp();
  ({ logins } = await seedDemo(t.db, t.database.dialect, { iterations: TEST_ITERATIONS }));
  for (const login of logins) browsers[login.username] = await signIn(login);
});
afterAll(() => t.close());

const demoIds = async () => (await t.db.selectFrom('users').select('id').where('username', 'in', [...DEMO_USERNAMES]).execute()).map((row) => row.id);

describe('seed-demo', () => {
  it('gives three demo users random passwords they sign in with', () => {
    expect(logins.map((login) => login.username)).toEqual(['demo-ada', 'demo-ben', 'demo-cleo']);
    expect(new Set(logins.map((login) => login.password)).size).toBe(3);
    for (const login of logins) expect(login.password).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('shows each user their Markdown notes and the group’s notes, not another’s private note', async () => {
    const ada = await browsers['demo-ada']!.get('/notes/');
    expect(ada.body).toContain('Welcome to groupnotes');
    expect(ada.body).toContain('Holiday plan'); // demo-ben's, in the group
    expect(ada.body).toContain('Band rehearsal'); // demo-cleo's, in the group
    expect(ada.body).not.toContain('Private thoughts');
    const note = await t.db.selectFrom('notes').select('id').where('title', '=', 'Welcome to groupnotes').executeTakeFirstOrThrow();
    const page = await browsers['demo-cleo']!.get(`/notes/${note.id}/`);
    expect(page.statusCode).toBe(404); // not in the group: demo-ada's own
    const own = await browsers['demo-ada']!.get(`/notes/${note.id}/`);
    expect(own.body).toContain('<strong>demo note</strong>');
  });

  it('has a group of all three with a chat history, a to-do list with due dates, and a shopping list shared with the group', async () => {
    const group = await t.db.selectFrom('groups').select('id').where('name', '=', 'Demo household').executeTakeFirstOrThrow();
    for (const login of logins) {
      const chat = await browsers[login.username]!.get(`/groups/${group.id}/chat/messages/`);
      expect(chat.statusCode).toBe(200);
      expect((chat.json() as { messages: unknown[] }).messages).toHaveLength(6);
    }
    const todo = await t.db.selectFrom('todo_lists').select('id').where('title', '=', 'Chores').executeTakeFirstOrThrow();
    const items = await t.db.selectFrom('todo_items').select('due_date').where('list_id', '=', todo.id).execute();
    expect(items.filter((item) => item.due_date !== null)).toHaveLength(3);
    expect((await browsers['demo-ben']!.get(`/todo/${todo.id}/`)).body).toContain('Fix the dripping tap');
    const market = await t.db.selectFrom('shopping_lists').select(['id', 'group_id']).where('title', '=', 'Weekend groceries').executeTakeFirstOrThrow();
    expect(market.group_id).toBe(group.id);
    expect((await browsers['demo-cleo']!.get(`/shopping/${market.id}/`)).body).toContain('Apples');
  });

  it('sets demo-ada two reminders to come on her notes, one weekly, shown on her note page only', async () => {
    const ada = await t.db.selectFrom('users').select('id').where('username', '=', 'demo-ada').executeTakeFirstOrThrow();
    const reminders = await t.db
      .selectFrom('reminders')
      .innerJoin('notes', 'notes.id', 'reminders.note_id')
      .select(['notes.title', 'notes.owner_id', 'reminders.owner_id as reminder_owner', 'reminders.repeat', 'reminders.time_zone', 'reminders.local_time', 'reminders.next_due_at', 'reminders.message'])
      .orderBy('reminders.next_due_at')
      .execute();
    expect(reminders.map((row) => [row.title, row.repeat])).toEqual([
      ['Pancakes', 'weekly'],
      ['Ideas for the garden', 'none'],
    ]);
    for (const row of reminders) {
      expect(row).toMatchObject({ owner_id: ada.id, reminder_owner: ada.id, time_zone: 'UTC' });
      expect(row.next_due_at).toBeGreaterThan(Date.now());
      expect(new Date(row.next_due_at).toISOString().slice(0, 16)).toBe(row.local_time);
    }
    const pancakes = await t.db.selectFrom('notes').select('id').where('title', '=', 'Pancakes').executeTakeFirstOrThrow();
    const page = await browsers['demo-ada']!.get(`/notes/${pancakes.id}/`);
    expect(page.body).toContain('Every week · Pancake Saturday: check there are eggs');
    // demo-ben reads the note in the group, not its owner's reminders.
    expect((await browsers['demo-ben']!.get(`/notes/${pancakes.id}/`)).body).not.toContain('Pancake Saturday');
  });

  it('refuses to run again, changing nothing', async () => {
    const before = await demoIds();
    await expect(seedDemo(t.db, t.database.dialect, { iterations: TEST_ITERATIONS })).rejects.toThrow(DemoRefused);
    expect(await demoIds()).toEqual(before);
    expect((await browsers['demo-ada']!.get('/notes/')).statusCode).toBe(200);
  });

  it('with --force replaces only the demo users’ data, and ends their sessions', async () => {
    const other = await loggedIn(t);
    const before = await demoIds();
    const group = await t.db.selectFrom('groups').select('id').where('name', '=', 'Demo household').executeTakeFirstOrThrow();
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: other.user.id, joined_at: Date.now() }).execute();
    const ownGroup = await createGroup(t.db, other.user);
    await other.browser.post('/notes/new/', { title: 'Mine, in the demo group', content: 'x', group: String(group.id), priority: '0' });
    await other.browser.post('/notes/new/', { title: 'Mine alone', content: 'y', group: String(ownGroup.id), priority: '0' });

    const forced = await seedDemo(t.db, t.database.dialect, { iterations: TEST_ITERATIONS, force: true });
    expect(forced.endedSessions.length).toBeGreaterThanOrEqual(3);
    const after = await demoIds();
    expect(after.some((id) => before.includes(id))).toBe(false);
    expect(Number((await t.db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).where('owner_id', 'in', after).executeTakeFirstOrThrow()).n)).toBe(8);
    expect(await t.db.selectFrom('groups').select('name').where('name', '=', 'Demo household').execute()).toHaveLength(1);

    // The other user keeps their notes; the one in the old demo group loses that group.
    const mine = await t.db.selectFrom('notes').select(['title', 'group_id']).where('owner_id', '=', other.user.id).orderBy('title').execute();
    expect(mine).toEqual([
      { title: 'Mine alone', group_id: ownGroup.id },
      { title: 'Mine, in the demo group', group_id: null },
    ]);
    // The old demo sessions are gone; the new passwords work.
    expect((await browsers['demo-ada']!.get('/notes/')).statusCode).toBe(302);
    expect((await signIn(forced.logins[0]!)).cookies.has('sessionid')).toBe(true);
  });

  it('never replaces a real user who chose a demo name', async () => {
    await t.db.updateTable('users').set({ email: 'ben@example.com' }).where('username', '=', 'demo-ben').execute();
    const before = await demoIds();
    await expect(seedDemo(t.db, t.database.dialect, { iterations: TEST_ITERATIONS, force: true })).rejects.toThrow('demo-ben is not a demo user (no demo.invalid address)');
    expect(await demoIds()).toEqual(before);
  });
});
