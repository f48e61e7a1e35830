import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { addShoppingItem, addTodoItem, buildTestApp, createGroup, createNote, createNotebook, createReminder, createShoppingList, createTag, createTodoList, createUser, listen, loggedIn, type TestApp, TestBrowser, unzip } from '../../../test/index.js';
import { exportDocumentSchema } from './export-document.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function frontMatter(file: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n\n/.exec(file);
  expect(match).not.toBeNull();
  return parseYaml(match![1]!) as Record<string, unknown>;
}

describe('export of my data', () => {
  it('sends anonymous callers to log in', async () => {
    const response = await new TestBrowser(t.app).get('/accounts/export/');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/?next=%2Faccounts%2Fexport%2F');
  });

  it('is a zip of exactly the caller’s own notes, lists, notebooks and tags, with front matter and groupnotes.json', async () => {
    const { user, browser } = await loggedIn(t);
    const member = await createUser(t.db);
    const stranger = await createUser(t.db);
    const group = await createGroup(t.db, user, [member], 'Household');
    const work = await createNotebook(t.db, user, { title: 'Work / Projects', color: '#123456' });
    const urgent = await createTag(t.db, user, { name: 'urgent', color: '#ff0000' });
    const created = Date.UTC(2024, 0, 2, 3, 4, 5);
    const planNote = await createNote(t.db, user, { title: 'Plan', content: '# Plan\n\nShip it.', notebook_id: work.id, tags: [urgent], priority: 2, is_pinned: 1, created_at: created, updated_at: created + 1000 });
    await createReminder(t.db, planNote, { local_time: '2030-03-02T09:30', time_zone: 'Europe/Kyiv', repeat: 'weekly', message: 'Review the plan', next_due_at: Date.UTC(2030, 2, 2, 7, 30) });
    await createReminder(t.db, planNote, { local_time: '2031-01-01T10:00', next_due_at: Date.UTC(2031, 0, 1, 10) });
    await createNote(t.db, user, { title: 'Shared plan', content: 'For the house', group_id: group.id });
    await createNote(t.db, user, { title: '../../etc/passwd', content: 'not a path' });
    await createNote(t.db, user, { title: 'Same', content: 'one' });
    await createNote(t.db, user, { title: 'same', content: 'two' });
    const memberNote = await createNote(t.db, member, { title: 'Member secret', content: 'in the same group', group_id: group.id });
    await createReminder(t.db, memberNote, { message: 'Member reminder' });
    await createNote(t.db, stranger, { title: 'Stranger secret', content: 'elsewhere' });
    const chores = await createTodoList(t.db, user, { title: 'Chores' });
    await addTodoItem(t.db, chores, { text: 'Water the plants', is_done: 1, due_date: '2024-05-01' });
    await addTodoItem(t.db, chores, { text: 'Fix the door', position: 1 });
    const groceries = await createShoppingList(t.db, user, { title: 'Groceries' });
    await addShoppingItem(t.db, groceries, { name: 'Apples', quantity_milli: 1500, unit: 'kg', estimated_price_cents: 249, is_bought: 1 });
    await addShoppingItem(t.db, groceries, { name: 'Bread', quantity_milli: 1000, unit: '', estimated_price_cents: null });
    await createTodoList(t.db, member, { title: 'Member chores', sharedWith: [user] });

    const response = await browser.get('/accounts/export/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="groupnotes-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(response.rawPayload);
    const names = [...files.keys()].sort();
    expect(names).toEqual(
      ['Same.md', 'Shared plan.md', 'Shopping lists/Groceries.md', 'To-do lists/Chores.md', 'Work - Projects/Plan.md', 'etc-passwd.md', 'groupnotes.json', 'same-2.md'].sort(),
    );
    const everything = [...files.values()].join('\n');
    expect(everything).not.toContain('Member secret');
    expect(everything).not.toContain('Stranger secret');
    expect(everything).not.toContain('Member chores');
    expect(everything).not.toContain('Member reminder');

    const plan = files.get('Work - Projects/Plan.md')!;
    expect(frontMatter(plan)).toEqual({
      title: 'Plan', tags: ['urgent'], notebook: 'Work / Projects', created: '2024-01-02T03:04:05.000Z', updated: '2024-01-02T03:04:06.000Z',
      pinned: true, priority: 'high', archived: false,
      reminders: [{ at: '2030-03-02T09:30', time_zone: 'Europe/Kyiv', repeat: 'weekly', message: 'Review the plan' }, { at: '2031-01-01T10:00', time_zone: 'UTC', repeat: 'none' }],
    });
    expect(frontMatter(files.get('Same.md')!)).not.toHaveProperty('reminders');
    expect(plan.endsWith('\n\n# Plan\n\nShip it.')).toBe(true);
    expect(frontMatter(files.get('Shared plan.md')!).group).toBe('Household');
    expect(files.get('To-do lists/Chores.md')).toContain('- [x] Water the plants (due 2024-05-01)\n- [ ] Fix the door');
    expect(files.get('Shopping lists/Groceries.md')).toContain('- [x] Apples (1.5 kg · about 2.49 each)\n- [ ] Bread\n');

    const document = exportDocumentSchema.parse(JSON.parse(files.get('groupnotes.json')!));
    expect(document.notes.map((note) => note.title).sort()).toEqual(['../../etc/passwd', 'Plan', 'Same', 'Shared plan', 'same']);
    expect(document.notebooks).toEqual([expect.objectContaining({ id: work.id, title: 'Work / Projects', color: '#123456' })]);
    expect(document.tags).toEqual([expect.objectContaining({ id: urgent.id, name: 'urgent', color: '#ff0000' })]);
    expect(document.notes.find((note) => note.title === 'Plan')).toMatchObject({ notebook_id: work.id, tag_ids: [urgent.id], priority: 2, is_pinned: 1, created_at: created });
    expect(document.notes.find((note) => note.title === 'Plan')!.reminders).toEqual([
      { local_time: '2030-03-02T09:30', time_zone: 'Europe/Kyiv', repeat: 'weekly', message: 'Review the plan', next_due_at: Date.UTC(2030, 2, 2, 7, 30) },
      { local_time: '2031-01-01T10:00', time_zone: 'UTC', repeat: 'none', message: '', next_due_at: Date.UTC(2031, 0, 1, 10) },
    ]);
    expect(document.notes.find((note) => note.title === 'Same')!.reminders).toEqual([]);
    expect(document.groups).toEqual([{ id: group.id, name: 'Household' }]);
    expect(document.todo_lists).toEqual([expect.objectContaining({ title: 'Chores', items: [expect.objectContaining({ text: 'Water the plants', is_done: 1, done_at: null }), expect.objectContaining({ text: 'Fix the door' })] })]);
    expect(document.shopping_lists).toEqual([expect.objectContaining({ title: 'Groceries', group_permission: 'read', items: [expect.objectContaining({ name: 'Apples', quantity_milli: 1500, estimated_price_cents: 249, is_bought: 1 }), expect.objectContaining({ name: 'Bread' })] })]);
  });

  it('writes the lists and the chat for their owner: in their language (prices in the list’s currency), with who ticked and who it is for, and file names without stray dashes', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk', currency: 'UAH', timezone: 'Europe/Kyiv' }).where('id', '=', user.id).execute();
    const member = await createUser(t.db, { username: 'sofiia' });
    const group = await createGroup(t.db, user, [member], 'Родина');
    const chores = await createTodoList(t.db, user, { title: 'Справи', sharedWith: [member] });
    await addTodoItem(t.db, chores, { text: 'Заплатити за світло', due_date: '2026-12-04', assignee: member });
    const paid = await addTodoItem(t.db, chores, { text: 'Винести сміття', is_done: 1, position: 1 });
    await t.db.updateTable('todo_items').set({ done_by: member.id }).where('id', '=', paid.id).execute();
    const shop = await createShoppingList(t.db, user, { title: 'Сільпо: субота', currency: 'UAH' });
    const bread = await addShoppingItem(t.db, shop, { name: 'Хліб', estimated_price_cents: 4250, is_bought: 1 });
    await t.db.updateTable('shopping_items').set({ done_by: member.id }).where('id', '=', bread.id).execute();
    await addShoppingItem(t.db, shop, { name: 'Гречка', quantity_milli: 1500, unit: 'кг', estimated_price_cents: null });
    const at = Date.UTC(2026, 11, 4, 8, 5);
    await t.db.insertInto('chat_messages').values([
      { group_id: group.id, author_id: user.id, content: 'Хто купить хліб?\nІ молоко', created_at: at },
      { group_id: group.id, author_id: member.id, content: 'Not mine to export', created_at: at + 1000 },
      { group_id: group.id, author_id: user.id, content: 'Дякую!', created_at: at + 2000 },
    ]).execute();
    // Deleted (its content emptied): not exported as an empty line.
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: user.id, content: '', created_at: at + 1500, deleted_at: at + 1600 }).execute();

    const files = await unzip((await browser.get('/accounts/export/')).rawPayload);
    const todo = files.get('Списки справ/Справи.md')!;
    expect(todo).toContain('- [ ] Заплатити за світло (до 2026-12-04 · для sofiia)');
    expect(todo).toContain('- [x] Винести сміття (виконано: sofiia)');
    const shopping = files.get('Списки покупок/Сільпо - субота.md')!;
    expect(shopping.replace(/\u00a0|\u202f/g, ' ')).toContain('- [x] Хліб (приблизно 42,50 ₴ за одиницю · куплено: sofiia)');
    expect(shopping).toContain('- [ ] Гречка (1,5 кг)');
    const chat = files.get('Чат/Родина.md')!;
    expect(chat).toContain('# Мої повідомлення в групі «Родина»');
    // In the owner's zone (Kyiv, two hours ahead in December), a message's lines kept together.
    expect(chat).toMatch(/- 4 груд\. 2026 р\., 10:05: Хто купить хліб\?\n {2}І молоко\n- 4 груд\. 2026 р\., 10:05: Дякую!/);
    expect(chat).not.toContain('Not mine to export');
    expect(chat).not.toMatch(/10:05: *$/m);
    expect([...files.keys()].some((name) => /\w- /u.test(name))).toBe(false);
  });

  it('pages through many notes into one valid zip', async () => {
    const { user, browser } = await loggedIn(t);
    const rows = Array.from({ length: 450 }, (_, i) => ({ owner_id: user.id, title: `Note ${i}`, content: `Body ${i}`, excerpt: '', search_words: '', created_at: i, updated_at: i }));
    await t.db.insertInto('notes').values(rows).execute();
    const response = await browser.get('/accounts/export/');
    const files = await unzip(response.rawPayload);
    expect(files.size).toBe(451);
    expect(exportDocumentSchema.parse(JSON.parse(files.get('groupnotes.json')!)).notes).toHaveLength(450);
  });

  it('runs two exports at once; a third waits (503, Retry-After) until one ends, even one the client abandoned', async () => {
    const { user, browser } = await loggedIn(t);
    // About 18 MB that does not compress: more than the sockets' buffers hold, so an unread download stays open.
    const rows = Array.from({ length: 600 }, (_, i) => ({ owner_id: user.id, title: `Big ${i}`, content: randomBytes(22_500).toString('base64'), excerpt: '', search_words: '', created_at: i, updated_at: i }));
    for (let start = 0; start < rows.length; start += 100) await t.db.insertInto('notes').values(rows.slice(start, start + 100)).execute();
    const address = await listen(t.app);
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const stalled = () =>
      new Promise<{ status: number; request: http.ClientRequest }>((resolve, reject) => {
        const request = http.get(`http://${address}/accounts/export/`, { headers: { cookie, host: 'localhost' } }, (response) => {
          response.pause();
          resolve({ status: response.statusCode!, request });
        });
        request.on('error', reject);
      });
    const first = await stalled();
    const second = await stalled();
    expect([first.status, second.status]).toEqual([200, 200]);
    const refused = await browser.get('/accounts/export/');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    first.request.destroy();
    await expect.poll(async () => (await browser.get('/accounts/export/')).statusCode, { timeout: 5_000 }).toBe(200);
    second.request.destroy();
  });
});
