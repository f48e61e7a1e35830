import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { sql } from 'kysely';
import { ApiClient, buildTestApp, createToken, createTodoList, loggedIn, postgresBaseUrl, type TestApp, type TestBrowser, todoRows } from '../../../../test/index.js';
import { openDatabase } from '../../../db/database.js';
import { Hub } from '../../../platform/hub/hub.js';
import { MemoryTransport } from '../../../platform/hub/transport.js';
import { Outbox } from '../../../platform/mail/outbox.js';
import { Notifications } from '../../notifications/notifications.js';
import { DueNotices } from './due-notices.js';

// A to-do item's assignee is told "assigned to you" once, by whoever gave it to them but
// themself; its assignee (or, without one, its owner) is told "due today" and "overdue" once
// each, in their own time zone, by the scheduler; each is mailed too when they chose so on
// /accounts/notifications/. A new date, a new assignee or unticking starts them over.

type Caller = { user: User; browser: TestBrowser };
const PUBLIC_URL = 'https://notes.example.test';
let t: TestApp;
let owner: Caller;
let ticker: Caller;
let reader: Caller;
const schedulers: DueNotices[] = [];

beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL });
  [owner, ticker, reader] = [await loggedIn(t, { email: 'owner@example.test' }), await loggedIn(t, { email: 'ticker@example.test' }), await loggedIn(t, { email: 'reader@example.test' })];
});
afterEach(async () => {
  for (const scheduler of schedulers.splice(0)) await scheduler.stop();
  await t.db.deleteFrom('todo_items').execute();
  await t.db.deleteFrom('notifications').execute();
  await t.db.deleteFrom('mail_outbox').execute();
  await t.db.updateTable('users').set({ mail_notifications: 0, timezone: 'UTC' }).execute();
});
afterAll(() => t.close());

const told = (user: User) => t.db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', user.id).orderBy('id').execute();
const mails = () => t.db.selectFrom('mail_outbox').select(['recipient', 'subject', 'body']).orderBy('id').execute();
const item = async (listId: number) => (await todoRows(t.db).items(listId))[0]!;

/** A scheduler as an instance runs it (a new one is a restart), over the app's database. */
function scheduler(): DueNotices {
  const notifications = new Notifications(new Hub(new MemoryTransport(), t.app.log), { outbox: new Outbox(t.db, t.database.dialect), publicUrl: PUBLIC_URL });
  const made = new DueNotices({ db: t.db, notifications, log: t.app.log }, { stopWaitMs: 5_000 });
  schedulers.push(made);
  return made;
}

/** Noon UTC of a date: in UTC (and Kyiv), that date. */
const noonOf = (date: string) => Date.parse(`${date}T12:00:00Z`);

describe('"assigned to you"', () => {
  it('tells the assignee once, with the list and who gave it, whether on the page, the edit form or the API', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'House', sharedWith: [reader.user], tickers: [ticker.user] });
    expect((await ticker.browser.post(`/todo/${list.id}/items/add/`, { text: 'Mow the lawn', assignee: reader.user.username })).statusCode).toBe(302);
    const expected = { kind: 'todo.assigned', text: `${ticker.user.username} assigned you “Mow the lawn” in the to-do list House`, link: `/todo/${list.id}/` };
    expect(await told(reader.user)).toEqual([expected]);

    // Edited with the same assignee: nothing more.
    const { id } = await item(list.id);
    expect((await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Mow the lawn', due_date: '', assignee: reader.user.username })).statusCode).toBe(302);
    expect(await told(reader.user)).toEqual([expected]);

    // Given to another: that one is told; given back: the first is told again.
    await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Mow the lawn', due_date: '', assignee: ticker.user.username });
    expect(await told(ticker.user)).toEqual([{ ...expected, text: `${owner.user.username} assigned you “Mow the lawn” in the to-do list House` }]);
    await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Mow the lawn', due_date: '', assignee: reader.user.username });
    expect(await told(reader.user)).toHaveLength(2);

    // Through the API.
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    expect((await api.post(`/api/v1/todo/${list.id}/items/`, { text: 'Fix the gate', assignee: ticker.user.username })).statusCode).toBe(201);
    expect((await told(ticker.user)).map((row) => row.text)).toContain(`${owner.user.username} assigned you “Fix the gate” in the to-do list House`);
  });

  it('tells nobody when one assigns an item to themself, nor when an item has no assignee', async () => {
    const list = await createTodoList(t.db, owner.user, { tickers: [ticker.user] });
    await ticker.browser.post(`/todo/${list.id}/items/add/`, { text: 'Mine', assignee: ticker.user.username });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Nobody’s' });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Own', assignee: owner.user.username });
    expect(await told(ticker.user)).toEqual([]);
    expect(await told(owner.user)).toEqual([]);
  });

  it('is mailed, in the assignee’s language, only when they chose mail', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Дім', sharedWith: [reader.user, ticker.user] });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Not mailed', assignee: reader.user.username });
    expect(await told(reader.user)).toHaveLength(1);
    expect(await mails()).toEqual([]);

    // Chosen on the account area's page (unticked by default), in Ukrainian.
    const page = await reader.browser.get('/accounts/notifications/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<input type="checkbox" id="id_mail" name="mail" value="on"\s*\/?>/);
    expect((await reader.browser.post('/accounts/notifications/', { mail: 'on' })).headers.location).toBe('/accounts/notifications/');
    expect((await reader.browser.get('/accounts/notifications/')).body).toMatch(/name="mail" value="on" checked/);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', reader.user.id).execute();
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Полити квіти', assignee: reader.user.username });
    const [mail] = await mails();
    expect(mail).toMatchObject({ recipient: 'reader@example.test', subject: `${owner.user.username} доручає вам «Полити квіти» у списку справ Дім` });
    expect(mail!.body).toContain(`${PUBLIC_URL}/todo/${list.id}/`);
    expect(mail!.body).toContain(`${PUBLIC_URL}/accounts/notifications/`);

    // Turned off again (an unticked box sends nothing): no more mail.
    await reader.browser.post('/accounts/notifications/', {});
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Again', assignee: reader.user.username });
    expect(await mails()).toHaveLength(1);
    await t.db.updateTable('users').set({ language: '' }).where('id', '=', reader.user.id).execute();
  });
});

describe('"due today" and "overdue"', () => {
  it('tells the assignee each once, across passes and a restart, in their time zone', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Garden', sharedWith: [reader.user] });
    await t.db.updateTable('users').set({ timezone: 'Pacific/Auckland' }).where('id', '=', reader.user.id).execute();
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Prune', due_date: '2031-03-10', assignee: reader.user.username });
    const first = scheduler();

    // The day before in Auckland: nothing yet; the item waits for Auckland's midnight.
    expect(await first.runBatch(Date.parse('2031-03-09T10:00:00Z'))).toBe(1);
    const waiting = await t.db.selectFrom('todo_items').select(['due_notice', 'due_notice_at']).where('list_id', '=', list.id).executeTakeFirstOrThrow();
    expect(waiting).toEqual({ due_notice: 0, due_notice_at: Date.parse('2031-03-09T11:00:00Z') });
    expect(await first.earliestDue()).toBe(Date.parse('2031-03-09T11:00:00Z'));
    // Due in Auckland at 11:00 UTC, while it is still the 9th in UTC.
    const dueAt = Date.parse('2031-03-09T11:30:00Z');
    expect(await first.runBatch(dueAt)).toBe(1);
    expect(await first.runBatch(dueAt)).toBe(0);
    const due = { kind: 'todo.due', text: 'Due today: “Prune” in the to-do list Garden', link: `/todo/${list.id}/` };
    expect((await told(reader.user)).filter((row) => row.kind !== 'todo.assigned')).toEqual([due]);

    // A restart: a new scheduler finds nothing more to tell that day; the next day, overdue, once.
    const second = scheduler();
    expect(await second.runBatch(Date.parse('2031-03-10T10:00:00Z'))).toBe(0);
    expect(await second.runBatch(Date.parse('2031-03-10T11:30:00Z'))).toBe(1);
    expect(await second.runBatch(Date.parse('2031-03-12T11:30:00Z'))).toBe(0);
    expect(await scheduler().runBatch(Date.parse('2031-04-01T00:00:00Z'))).toBe(0);
    const overdue = { kind: 'todo.overdue', text: 'Overdue: “Prune” in the to-do list Garden', link: `/todo/${list.id}/` };
    expect((await told(reader.user)).filter((row) => row.kind !== 'todo.assigned')).toEqual([due, overdue]);
    expect(await told(owner.user)).toEqual([]);
    expect(await first.earliestDue()).toBe(Infinity);
  });

  it('tells nothing twice when the zone changed since: the next look, in the new zone, finds it still due today', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Trip', sharedWith: [reader.user] });
    await t.db.updateTable('users').set({ timezone: 'Pacific/Auckland' }).where('id', '=', reader.user.id).execute();
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Pack', due_date: '2031-08-10', assignee: reader.user.username });
    const runner = scheduler();
    await runner.runBatch(Date.parse('2031-08-09T12:30:00Z'));
    // Flown to Los Angeles: at Auckland's next midnight it is still the 10th there.
    await t.db.updateTable('users').set({ timezone: 'America/Los_Angeles' }).where('id', '=', reader.user.id).execute();
    expect(await runner.runBatch(Date.parse('2031-08-10T12:30:00Z'))).toBe(1);
    expect(await runner.runBatch(Date.parse('2031-08-11T06:30:00Z'))).toBe(0);
    expect(await runner.runBatch(Date.parse('2031-08-11T07:30:00Z'))).toBe(1);
    expect((await told(reader.user)).map((row) => row.kind)).toEqual(['todo.assigned', 'todo.due', 'todo.overdue']);
  });

  it('tells the owner, in the owner’s zone, when nobody is assigned; an item already overdue is told only that', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Errands' });
    await t.db.updateTable('users').set({ timezone: 'America/Los_Angeles' }).where('id', '=', owner.user.id).execute();
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Post office', due_date: '2031-05-01' });
    // 2 May, 03:00 UTC is still 1 May in Los Angeles: due today there, not overdue.
    expect(await scheduler().runBatch(Date.parse('2031-05-02T03:00:00Z'))).toBe(1);
    expect((await told(owner.user)).map((row) => row.kind)).toEqual(['todo.due']);

    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Old bill', due_date: '2031-04-01' });
    await scheduler().runBatch(Date.parse('2031-05-02T03:00:00Z'));
    expect((await told(owner.user)).map((row) => row.text)).toEqual(['Due today: “Post office” in the to-do list Errands', 'Overdue: “Old bill” in the to-do list Errands']);
  });

  it('starts over when the date or the assignee changes, or the item is unticked; a done item is never told', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Chores', sharedWith: [reader.user, ticker.user] });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Sweep', due_date: '2031-06-01', assignee: reader.user.username });
    const { id } = await item(list.id);
    const runner = scheduler();
    await runner.runBatch(noonOf('2031-06-01'));
    const kinds = async (user: User) => (await told(user)).map((row) => row.kind).filter((kind) => kind !== 'todo.assigned');
    expect(await kinds(reader.user)).toEqual(['todo.due']);

    // Another date: due again on it.
    await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Sweep', due_date: '2031-06-05', assignee: reader.user.username });
    expect(await runner.runBatch(noonOf('2031-06-01'))).toBe(1);
    expect(await kinds(reader.user)).toEqual(['todo.due']);
    await runner.runBatch(noonOf('2031-06-05'));
    expect(await kinds(reader.user)).toEqual(['todo.due', 'todo.due']);
    // Only the text changes: nothing starts over.
    await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Sweep the yard', due_date: '2031-06-05', assignee: reader.user.username });
    expect(await runner.runBatch(noonOf('2031-06-05'))).toBe(0);

    // Another assignee: told it is theirs, then that it is due.
    await owner.browser.post(`/todo/items/${id}/edit/`, { text: 'Sweep the yard', due_date: '2031-06-05', assignee: ticker.user.username });
    await runner.runBatch(noonOf('2031-06-05'));
    expect((await told(ticker.user)).map((row) => row.kind)).toEqual(['todo.assigned', 'todo.due']);

    // Ticked: never told, even once overdue; unticked: told it is overdue.
    await owner.browser.post(`/todo/items/${id}/toggle/`, {});
    expect(await runner.runBatch(noonOf('2031-06-07'))).toBe(0);
    expect(await kinds(ticker.user)).toEqual(['todo.due']);
    await owner.browser.post(`/todo/items/${id}/toggle/`, {});
    await runner.runBatch(noonOf('2031-06-07'));
    expect(await kinds(ticker.user)).toEqual(['todo.due', 'todo.overdue']);
    // Ticked and unticked again the same day, on the page and through the API: told again each time, as a person would expect.
    await owner.browser.post(`/todo/items/${id}/toggle/`, {});
    await owner.browser.post(`/todo/items/${id}/toggle/`, {});
    await runner.runBatch(noonOf('2031-06-07'));
    expect(await kinds(ticker.user)).toEqual(['todo.due', 'todo.overdue', 'todo.overdue']);
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    expect((await api.patch(`/api/v1/todo/items/${id}/`, { is_done: true })).statusCode).toBe(200);
    expect((await api.patch(`/api/v1/todo/items/${id}/`, { is_done: false })).statusCode).toBe(200);
    // Marked open while open changes nothing.
    expect((await api.patch(`/api/v1/todo/items/${id}/`, { is_done: false })).statusCode).toBe(200);
    await runner.runBatch(noonOf('2031-06-07'));
    expect(await kinds(ticker.user)).toEqual(['todo.due', 'todo.overdue', 'todo.overdue', 'todo.overdue']);
    expect(await runner.runBatch(noonOf('2031-06-08'))).toBe(0);
  });

  it('is mailed only to those who chose mail', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Bills', sharedWith: [reader.user] });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Rent', due_date: '2031-07-01', assignee: reader.user.username });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Water', due_date: '2031-07-01' });
    await scheduler().runBatch(noonOf('2031-07-01'));
    expect(await mails()).toEqual([]);
    await reader.browser.post('/accounts/notifications/', { mail: 'on' });
    await scheduler().runBatch(noonOf('2031-07-02'));
    expect((await mails()).map((mail) => [mail.recipient, mail.subject])).toEqual([['reader@example.test', 'Overdue: “Rent” in the to-do list Bills']]);
    expect((await told(owner.user)).map((row) => row.kind)).toEqual(['todo.due', 'todo.overdue']);
  });

  it.skipIf(!postgresBaseUrl())('leaves the work to the instance doing it: a batch while another holds the lock is `busy` and tells nothing', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Held' });
    await owner.browser.post(`/todo/${list.id}/items/add/`, { text: 'Wait', due_date: '2020-01-01' });
    const other = openDatabase(t.config.databaseUrl, { poolSize: 1 });
    try {
      await other.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended('todo-due-notices', 0))`.execute(trx);
        expect(await scheduler().runBatch(Date.now())).toBe('busy');
      });
    } finally {
      await other.close();
    }
    expect(await told(owner.user)).toEqual([]);
    expect(await scheduler().runBatch(Date.now())).toBe(1);
    expect((await told(owner.user)).map((row) => row.kind)).toEqual(['todo.overdue']);
  });

  it('looks at a bounded number of items per batch, and tells each of many once while two instances race', async () => {
    const list = await createTodoList(t.db, owner.user, { title: 'Many' });
    const now = Date.now();
    await t.db
      .insertInto('todo_items')
      .values(Array.from({ length: 120 }, (_, n) => ({ list_id: list.id, text: `task ${n}`, due_date: '2020-01-01', position: n, created_at: now, due_notice_at: 0 })))
      .execute();
    expect(await scheduler().runBatch(now)).toBe(50);
    const racers = [scheduler(), scheduler()];
    await Promise.all(racers.map(async (racer) => {
      for (let pass = 0; pass < 20; pass += 1) await racer.runBatch(now);
    }));
    const overdue = (await told(owner.user)).filter((row) => row.kind === 'todo.overdue');
    expect(overdue).toHaveLength(120);
    expect(new Set(overdue.map((row) => row.text)).size).toBe(120);
  });
});
