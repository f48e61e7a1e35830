import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, counts, FIXTURE, PASSWORDS, type TestApp, TestBrowser } from '../../../test/index.js';
import { formatReport, importDjango, NotEmpty } from './import.js';

describe('import-django of the fixture', () => {
  let t: TestApp;
  let report: string;
  const browsers: Record<string, TestBrowser> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    const { dump, plan } = await importDjango(t.db, t.database.dialect, FIXTURE);
    report = formatReport(dump, plan);
    for (const [username, password] of Object.entries(PASSWORDS)) {
      browsers[username] = new TestBrowser(t.app);
      await browsers[username].login(username, password);
    }
  });
  afterAll(() => t.close());

  it('keeps the Django pks and reports counts, ignored models and the group owner', async () => {
    expect(await counts(t)).toEqual({
      users: 3,
      groups: 1,
      group_members: 2,
      notebooks: 1,
      tags: 1,
      notes: 2,
      note_tags: 1,
      todo_lists: 1,
      todo_items: 1,
      todo_list_shares: 1,
      shopping_lists: 1,
      shopping_items: 2,
      chat_messages: 2,
      reminders: 1,
    });
    const note = await t.db.selectFrom('notes').selectAll().where('id', '=', 516).executeTakeFirstOrThrow();
    expect(note).toMatchObject({ owner_id: 495, notebook_id: 506, group_id: 502, priority: 2, is_pinned: 1, created_at: Date.UTC(2024, 4, 2, 12), updated_at: Date.UTC(2024, 5, 2, 9) });
    expect(await t.db.selectFrom('groups').select(['id', 'owner_id']).execute()).toEqual([{ id: 502, owner_id: 495 }]);
    const items = await t.db.selectFrom('shopping_items').select(['quantity_milli', 'estimated_price_cents']).orderBy('id').execute();
    expect(items).toEqual([
      { quantity_milli: 1500, estimated_price_cents: 299 },
      { quantity_milli: 2000, estimated_price_cents: 35 },
    ]);
    expect(report).toMatch(/notes_app\.note\s+2 imported\n/);
    expect(report).toMatch(/notes_app\.reminder\s+1 imported\n/);
    expect(report).toContain('reminders are set at remind_at in UTC');
    expect(report).toContain('other models, ignored: admin.logentry 1, sessions.session 1');
    expect(report).toContain('group "Family a5cd" (pk 502): owner olenaa5cd, its earliest member');
    expect(report).toContain('2 date(s) and time(s) had no time zone and were read as UTC');
    expect(report).not.toContain('left out');
  });

  it('lets each user see their own notes, and the group note read-only', async () => {
    const olena = await browsers.olenaa5cd!.get('/notes/');
    expect(olena.body).toContain('Borscht a5cd');
    expect(olena.body).toContain('Private diary a5cd');
    expect((await browsers.olenaa5cd!.get('/notes/516/edit/')).statusCode).toBe(200);

    const taras = await browsers.tarasa5cd!.get('/notes/');
    expect(taras.body).toContain('Borscht a5cd');
    expect(taras.body).not.toContain('Private diary a5cd');
    const groupNote = await browsers.tarasa5cd!.get('/notes/516/');
    expect(groupNote.statusCode).toBe(200);
    expect(groupNote.body).toContain('Beets, <em>lots</em> of them.');
    expect(groupNote.body).not.toContain('/notes/516/edit/');
    expect((await browsers.tarasa5cd!.get('/notes/516/edit/')).statusCode).toBe(404);
    expect((await browsers.tarasa5cd!.post('/notes/516/delete/')).statusCode).toBe(404);
    expect((await browsers.tarasa5cd!.get('/notes/517/')).statusCode).toBe(404);

    // Not a member of the group: neither note, nor the group's chat.
    expect((await browsers.irynaa5cd!.get('/notes/')).body).not.toContain('Borscht a5cd');
    expect((await browsers.irynaa5cd!.get('/notes/516/')).statusCode).toBe(404);
  });

  it('gives the note’s owner its reminder, at remind_at in UTC, and no one else', async () => {
    expect(await t.db.selectFrom('reminders').select(['id', 'note_id', 'owner_id', 'local_time', 'time_zone', 'repeat', 'message', 'next_due_at']).execute()).toEqual([
      { id: 526, note_id: 516, owner_id: 495, local_time: '2030-01-01T08:00', time_zone: 'UTC', repeat: 'weekly', message: 'Buy beets a5cd', next_due_at: Date.UTC(2030, 0, 1, 8) },
    ]);
    const own = await browsers.olenaa5cd!.get('/notes/516/');
    expect(own.body).toContain('1 Jan 2030, 08:00 (UTC)');
    expect(own.body).toContain('Buy beets a5cd');
    // A group member reads the note, not its owner's reminders.
    expect((await browsers.tarasa5cd!.get('/notes/516/')).body).not.toContain('Buy beets a5cd');
  });

  it('shows the shared to-do list to the user it is shared with, and the group shopping list to the group', async () => {
    const todo = await browsers.tarasa5cd!.get('/todo/536/');
    expect(todo.statusCode).toBe(200);
    expect(todo.body).toContain('Fix the tap a5cd');
    expect((await browsers.tarasa5cd!.get('/todo/536/edit/')).statusCode).toBe(404);
    expect((await browsers.irynaa5cd!.get('/todo/536/')).statusCode).toBe(404);

    const market = await browsers.olenaa5cd!.get('/shopping/546/');
    expect(market.statusCode).toBe(200);
    expect(market.body).toContain('sour cream');
    expect((await browsers.olenaa5cd!.get('/shopping/546/edit/')).statusCode).toBe(404);
    expect((await browsers.irynaa5cd!.get('/shopping/546/')).statusCode).toBe(404);
  });

  it('gives the group members the chat history, in order, and no one else', async () => {
    for (const username of ['olenaa5cd', 'tarasa5cd']) {
      const response = await browsers[username]!.get('/groups/502/chat/messages/');
      expect(response.statusCode).toBe(200);
      const messages = (response.json() as { messages: { author: string; content: string }[] }).messages;
      expect(messages.map((message) => [message.author, message.content])).toEqual([
        ['olenaa5cd', 'Dinner at 7? a5cd'],
        ['tarasa5cd', 'Yes!'],
      ]);
    }
    expect((await browsers.irynaa5cd!.get('/groups/502/chat/messages/')).statusCode).toBe(404);
  });

  it('moves the id sequences past the kept pks, so that new objects can be created', async () => {
    const created = await browsers.irynaa5cd!.post('/notes/new/', { title: 'After the move', content: 'hello', priority: '0' });
    expect(created.statusCode).toBe(302);
    expect(Number(/\/notes\/(\d+)\//.exec(created.headers.location as string)![1])).toBeGreaterThan(517);
    const tag = await browsers.irynaa5cd!.post('/tags/new/', { name: 'fresh', color: '#123456' });
    expect(tag.statusCode).toBe(302);
  });

  it('leaves the view-version triggers working: a change to the group note reaches the other member’s kept page', async () => {
    expect((await browsers.tarasa5cd!.get('/notes/')).body).toContain('Borscht a5cd');
    expect((await browsers.tarasa5cd!.get('/notes/')).body).toContain('Borscht a5cd');
    const edited = await browsers.olenaa5cd!.post('/notes/516/edit/', { title: 'Borscht, revised', content: 'More beets.', notebook: '506', tags: '508', group: '502', priority: '2', is_pinned: 'on' });
    expect(edited.statusCode).toBe(302);
    const after = await browsers.tarasa5cd!.get('/notes/');
    expect(after.body).toContain('Borscht, revised');
    expect(after.body).not.toContain('Borscht a5cd');
  });

  it('refuses a second import into the now non-empty database, changing nothing', async () => {
    const before = await counts(t);
    await expect(importDjango(t.db, t.database.dialect, FIXTURE)).rejects.toThrow(NotEmpty);
    expect(await counts(t)).toEqual(before);
  });
});
