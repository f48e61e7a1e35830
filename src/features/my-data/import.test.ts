import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addShoppingItem, addTodoItem, buildTestApp, createGroup, createNote, createNotebook, createReminder, createShoppingList, createTag, createTodoList, createUser, loggedIn, makeZip, type TestApp, TestBrowser, unzip, upload } from '../../../test/index.js';
import type { User } from '../../db/schema.js';
import { dueFrom, parseWallTime } from '../../platform/wall-clock.js';
import { exportDocumentSchema } from './export-document.js';
import { importIntoAccount } from './import-service.js';
import { BadZip } from './zip-reader.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** What the user owns, in a form to compare before and after. */
async function snapshot(user: User) {
  const notes = await t.db
    .selectFrom('notes')
    .leftJoin('notebooks', 'notebooks.id', 'notes.notebook_id')
    .select(['notes.title', 'notes.content', 'notebooks.title as notebook', 'notes.group_id', 'notes.priority', 'notes.is_pinned', 'notes.is_archived', 'notes.created_at', 'notes.updated_at'])
    .select((eb) => eb.selectFrom('note_tags').innerJoin('tags', 'tags.id', 'note_tags.tag_id').whereRef('note_tags.note_id', '=', 'notes.id').select((inner) => inner.fn.countAll<number>().as('n')).as('tag_count'))
    .where('notes.owner_id', '=', user.id)
    .orderBy('notes.title')
    .execute();
  const notebooks = await t.db.selectFrom('notebooks').select(['title', 'color']).where('owner_id', '=', user.id).orderBy('title').execute();
  const tags = await t.db.selectFrom('tags').select(['name', 'color']).where('owner_id', '=', user.id).orderBy('name').execute();
  const todo = await t.db.selectFrom('todo_lists').innerJoin('todo_items', 'todo_items.list_id', 'todo_lists.id').select(['todo_lists.title', 'todo_items.text', 'todo_items.is_done']).where('owner_id', '=', user.id).orderBy('text').execute();
  const shopping = await t.db
    .selectFrom('shopping_lists')
    .innerJoin('shopping_items', 'shopping_items.list_id', 'shopping_lists.id')
    .select(['shopping_lists.title', 'shopping_lists.group_id', 'shopping_lists.created_at', 'shopping_items.name', 'shopping_items.quantity_milli', 'shopping_items.estimated_price_cents', 'shopping_items.is_done as is_bought'])
    .where('owner_id', '=', user.id)
    .orderBy('name')
    .execute();
  return { notes: notes.map((note) => ({ ...note, tag_count: Number(note.tag_count) })), notebooks, tags, todo, shopping };
}

/** The user's reminders with their note's title, soonest first. */
async function reminders(user: User) {
  return t.db
    .selectFrom('reminders')
    .innerJoin('notes', 'notes.id', 'reminders.note_id')
    .select(['notes.title', 'reminders.local_time', 'reminders.time_zone', 'reminders.repeat', 'reminders.message', 'reminders.next_due_at'])
    .where('reminders.owner_id', '=', user.id)
    .orderBy('reminders.next_due_at')
    .orderBy('notes.title')
    .execute();
}

/** A groupnotes.json of one note with these reminders (fields of the export's shape). */
function documentWith(noteReminders: unknown[] | undefined): string {
  const note = { id: 1, title: 'Hand-made', content: 'x', notebook_id: null, group_id: null, tag_ids: [], priority: 0, is_pinned: 0, is_archived: 0, created_at: 1, updated_at: 1 };
  return JSON.stringify({
    format: 'groupnotes-user-export', version: 1, groups: [], notebooks: [], tags: [], todo_lists: [], shopping_lists: [],
    notes: [noteReminders === undefined ? note : { ...note, reminders: noteReminders }],
  });
}

async function noteCount() {
  return Number((await t.db.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

describe('import into my account', () => {
  it('brings back a deleted note from an export, with its notebook, tags and group, and duplicates nothing', async () => {
    const { user, browser } = await loggedIn(t);
    const other = await createUser(t.db);
    const group = await createGroup(t.db, other, [user]);
    const notebook = await createNotebook(t.db, user, { title: 'Garden', color: '#225522' });
    const tag = await createTag(t.db, user, { name: 'outside', color: '#00aa00' });
    const kept = await createNote(t.db, user, { title: 'Kept', content: 'stays' });
    const lost = await createNote(t.db, user, { title: 'Roses', content: 'Prune in March', notebook_id: notebook.id, tags: [tag], group_id: group.id, priority: 3, is_archived: 1, created_at: 1000, updated_at: 2000 });
    // Weekly since 2024: next due at its next Monday 09:00 in Kyiv; and a one-off to come.
    await createReminder(t.db, lost, { local_time: '2024-01-01T09:00', time_zone: 'Europe/Kyiv', repeat: 'weekly', message: 'Feed the roses', next_due_at: dueFrom(parseWallTime('2024-01-01T09:00')!, 'Europe/Kyiv', 'weekly', Date.now())! });
    await createReminder(t.db, lost, { local_time: '2030-03-01T08:00', next_due_at: Date.UTC(2030, 2, 1, 8) });
    await createReminder(t.db, kept, { message: 'On the kept note' });
    const lostReminders = await reminders(user);
    const chores = await createTodoList(t.db, user, { title: 'Chores' });
    await addTodoItem(t.db, chores, { text: 'Rake', is_done: 1 });
    const groceries = await createShoppingList(t.db, user, { title: 'Groceries', group });
    await addShoppingItem(t.db, groceries, { name: 'Apples', quantity_milli: 1500, estimated_price_cents: 249, is_bought: 1 });
    const before = await snapshot(user);
    expect(before.shopping).toHaveLength(1);

    const zip = (await browser.get('/accounts/export/')).rawPayload;
    await t.db.deleteFrom('notes').where('id', '=', lost.id).execute();
    await t.db.deleteFrom('todo_lists').where('id', '=', chores.id).execute();
    await t.db.deleteFrom('shopping_lists').where('id', '=', groceries.id).execute();
    const response = await upload(t.app, browser, '/accounts/import/', zip);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/import/');
    const page = await browser.get('/accounts/import/');
    expect(page.body).toContain('Import done: created 1 note, 2 reminders, 0 notebooks, 0 tags, 1 to-do list, 1 shopping list. 1 note was already there and left out.');
    expect(await snapshot(user)).toEqual(before);
    // The note's reminders are back, on the new note; the kept note's one is not doubled.
    expect(await reminders(user)).toEqual(lostReminders);
    const roses = await t.db.selectFrom('notes').select('id').where('owner_id', '=', user.id).where('title', '=', 'Roses').executeTakeFirstOrThrow();
    const notePage = await browser.get(`/notes/${roses.id}/`);
    expect(notePage.body).toContain('Every week · Feed the roses');
    expect(kept.id).toBeGreaterThan(0);
    // The same export again: everything is there already, lists included, and the page says so.
    expect((await upload(t.app, browser, '/accounts/import/', zip)).statusCode).toBe(302);
    expect((await browser.get('/accounts/import/')).body).toContain(
      'Import done: created 0 notes, 0 reminders, 0 notebooks, 0 tags, 0 to-do lists, 0 shopping lists. 2 notes were already there and left out. 2 lists were already there and left out.',
    );
    expect(await snapshot(user)).toEqual(before);
  });

  it('restores reminders to come, leaves out one-off ones past and those over the 20 a note may have', async () => {
    const { user } = await loggedIn(t);
    const at = (day: number) => `2030-01-${String(day).padStart(2, '0')}T09:00`;
    const document = documentWith([
      { local_time: '2020-01-01T09:00', time_zone: 'UTC', repeat: 'none', message: 'long gone', next_due_at: Date.UTC(2020, 0, 1, 9) },
      ...Array.from({ length: 21 }, (_, i) => ({ local_time: at(i + 1), time_zone: 'UTC', repeat: 'none', message: `day ${i + 1}`, next_due_at: 0 })),
    ]);
    const summary = await importIntoAccount(t.db, user.id, { document, markdown: [] });
    expect(summary).toMatchObject({ notes: 1, reminders: 20, skippedReminders: 2 });
    const restored = await reminders(user);
    expect(restored.map((row) => row.message)).toEqual(Array.from({ length: 20 }, (_, i) => `day ${i + 1}`));
    // Due from the schedule, not the exported next_due_at.
    expect(restored[0]!.next_due_at).toBe(Date.UTC(2030, 0, 1, 9));
  });

  it('imports an export made before reminders (no reminders key), and refuses an unknown time zone, storing nothing', async () => {
    const { user } = await loggedIn(t);
    expect(await importIntoAccount(t.db, user.id, { document: documentWith(undefined), markdown: [] })).toMatchObject({ notes: 1, reminders: 0 });
    const count = await noteCount();
    const bad = documentWith([{ local_time: '2030-01-01T09:00', time_zone: 'Mars/Olympus', repeat: 'none', message: '', next_due_at: 0 }]).replace('Hand-made', 'Other');
    await expect(importIntoAccount(t.db, user.id, { document: bad, markdown: [] })).rejects.toThrow(BadZip);
    await expect(importIntoAccount(t.db, user.id, { document: bad, markdown: [] })).rejects.toThrow('notes.0.reminders.0.time_zone: not a time zone this server knows');
    expect(await noteCount()).toBe(count);
  });

  it('into another account, recreates notebooks and tags by name and leaves the group out when not a member', async () => {
    const { user, browser } = await loggedIn(t);
    const owner = await createUser(t.db);
    const group = await createGroup(t.db, owner, [user]);
    const notebook = await createNotebook(t.db, user, { title: 'Garden', color: '#225522' });
    const tag = await createTag(t.db, user, { name: 'outside', color: '#00aa00' });
    await createNote(t.db, user, { title: 'Roses', content: 'Prune', notebook_id: notebook.id, tags: [tag], group_id: group.id });
    const zip = (await browser.get('/accounts/export/')).rawPayload;

    const { user: other, browser: otherBrowser } = await loggedIn(t);
    await createTag(t.db, other, { name: 'OUTSIDE', color: '#111111' });
    expect((await upload(t.app, otherBrowser, '/accounts/import/', zip)).statusCode).toBe(302);
    const mine = await snapshot(other);
    expect(mine.notes).toEqual([expect.objectContaining({ title: 'Roses', notebook: 'Garden', group_id: null, tag_count: 1 })]);
    expect(mine.notebooks).toEqual([{ title: 'Garden', color: '#225522' }]);
    expect(mine.tags).toEqual([{ name: 'OUTSIDE', color: '#111111' }]);
  });

  it('round-trips a to-do list’s group and its permission: back in the group for a member, in none elsewhere or from an export made before to-do lists had groups', async () => {
    const { user, browser } = await loggedIn(t);
    const owner = await createUser(t.db);
    const group = await createGroup(t.db, owner, [user], 'Household');
    const chores = await createTodoList(t.db, user, { title: 'Chores', description: 'Weekly', group, group_permission: 'tick' });
    await addTodoItem(t.db, chores, { text: 'Bins', due_date: '2030-01-02' });
    const zip = (await browser.get('/accounts/export/')).rawPayload;
    const files = await unzip(zip);
    const document = exportDocumentSchema.parse(JSON.parse(files.get('groupnotes.json')!));
    expect(document.groups).toEqual([{ id: group.id, name: 'Household' }]);
    expect(document.todo_lists).toEqual([expect.objectContaining({ title: 'Chores', group_id: group.id, group_permission: 'tick' })]);
    expect(files.get('To-do lists/Chores.md')).toMatch(/^---\n[\s\S]*\ngroup: Household\n[\s\S]*---\n/);

    const todoList = async (ownerId: number) =>
      t.db.selectFrom('todo_lists').select(['title', 'description', 'group_id', 'group_permission']).where('owner_id', '=', ownerId).orderBy('id').execute();
    await t.db.deleteFrom('todo_lists').where('id', '=', chores.id).execute();
    expect((await upload(t.app, browser, '/accounts/import/', zip)).statusCode).toBe(302);
    expect(await todoList(user.id)).toEqual([{ title: 'Chores', description: 'Weekly', group_id: group.id, group_permission: 'tick' }]);
    // The group's members read it again.
    const [restored] = await t.db.selectFrom('todo_lists').select('id').where('owner_id', '=', user.id).execute();
    const ownerBrowser = new TestBrowser(t.app);
    await ownerBrowser.login(owner.username);
    expect((await ownerBrowser.get(`/todo/${restored!.id}/`)).statusCode).toBe(200);

    // Another account, in no such group: the list comes without it.
    const { user: other, browser: otherBrowser } = await loggedIn(t);
    expect((await upload(t.app, otherBrowser, '/accounts/import/', zip)).statusCode).toBe(302);
    expect(await todoList(other.id)).toEqual([{ title: 'Chores', description: 'Weekly', group_id: null, group_permission: 'tick' }]);

    // A document written before migration 0030: its to-do lists have no group keys.
    const { user: older } = await loggedIn(t);
    const before0030 = {
      format: 'groupnotes-user-export', version: 1, groups: [], notebooks: [], tags: [], notes: [], shopping_lists: [],
      todo_lists: [{ id: 7, title: 'Old chores', description: '', created_at: 1, updated_at: 1, items: [] }],
    };
    expect(await importIntoAccount(t.db, older.id, { document: JSON.stringify(before0030), markdown: [] })).toMatchObject({ todoLists: 1 });
    expect(await todoList(older.id)).toEqual([{ title: 'Old chores', description: '', group_id: null, group_permission: 'read' }]);
  });

  it('imports a zip of plain Markdown files: title, tags and notebook from front matter or folder', async () => {
    const { user, browser } = await loggedIn(t);
    const zip = await makeZip({
      'Recipes/soup.md': '---\ntitle: Tomato soup\ntags: [food, Quick]\npinned: true\ncreated: 2023-04-05T06:07:08Z\n---\n\nSimmer.\n',
      'Recipes/bread.md': '# Sourdough\n\nFeed the starter.\n',
      'journal.md': 'No heading at all.',
      'elsewhere/moved.md': '---\nnotebook: Travel\ntags: food\n---\nPack light.',
      'photo.jpg': 'not a note',
      '__MACOSX/._soup.md': 'resource fork',
    });
    const response = await upload(t.app, browser, '/accounts/import/', zip);
    expect(response.statusCode).toBe(302);
    const { notes, notebooks, tags } = await snapshot(user);
    expect(notes.map((note) => [note.title, note.notebook, note.tag_count])).toEqual([
      ['Sourdough', 'Recipes', 0],
      ['Tomato soup', 'Recipes', 2],
      ['journal', null, 0],
      ['moved', 'Travel', 1],
    ]);
    expect(notes[1]).toMatchObject({ content: 'Simmer.\n', is_pinned: 1, created_at: Date.UTC(2023, 3, 5, 6, 7, 8) });
    expect(notebooks.map((notebook) => notebook.title)).toEqual(['Recipes', 'Travel']);
    expect(tags.map((tag) => tag.name)).toEqual(['Quick', 'food']);
  });

  it('refuses what is not a zip, with the reason on the page, and stores nothing', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const response = await upload(t.app, browser, '/accounts/import/', Buffer.from('this is no zip file at all'));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Nothing was imported. This is not a zip file we can read');
    expect(await noteCount()).toBe(count);
  });

  it('refuses a zip with an entry that climbs out of its folder, storing none of the other files', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    // yazl refuses to write such a name: the same-length name is patched in afterwards.
    const zip = await makeZip({ 'good.md': '# Fine', 'xx/evil.md': '# Evil' });
    const patched = Buffer.from(zip.toString('latin1').replaceAll('xx/evil.md', '../evil.md'), 'latin1');
    const response = await upload(t.app, browser, '/accounts/import/', patched);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('invalid relative path');
    expect(await noteCount()).toBe(count);
  });

  it('refuses a small zip that unpacks to too much (a zip bomb) and stores nothing', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const zip = await makeZip({ 'a.md': '# A', 'big.md': 'x'.repeat(2 * 1024 * 1024) });
    expect(zip.length).toBeLessThan(20_000);
    const response = await upload(t.app, browser, '/accounts/import/', zip);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('big.md unpacks to 2097152 bytes');
    expect(await noteCount()).toBe(count);
  });

  it('rolls back every note when a later file is bad', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const zip = await makeZip({ 'a.md': '# A', 'b.md': `---\ntags: [${'x'.repeat(60)}]\n---\nB` });
    const response = await upload(t.app, browser, '/accounts/import/', zip);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('b.md: “xxx');
    expect(await noteCount()).toBe(count);
  });

  it('refuses front matter that is not YAML, or that uses aliases (the "billion laughs")', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const broken = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'a.md': '---\ntitle: [unclosed\n---\nA' }));
    expect(broken.statusCode).toBe(400);
    expect(broken.body).toContain('a.md: the front matter is not valid YAML');
    const laughs = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'b.md': '---\na: &a [x, x]\nb: [*a, *a]\n---\nB' }));
    expect(laughs.statusCode).toBe(400);
    expect(laughs.body).toContain('b.md: the front matter is not valid YAML');
    expect(await noteCount()).toBe(count);
  });

  it('answers 413 for an upload over 50 MB, storing nothing', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const response = await upload(t.app, browser, '/accounts/import/', Buffer.alloc(50 * 1024 * 1024 + 1));
    expect(response.statusCode).toBe(413);
    expect(response.body).toContain('The file is larger than 50 MB.');
    expect(await noteCount()).toBe(count);
  });

  it('requires the CSRF token: as the first field or the X-CSRFToken header, not after the file or absent', async () => {
    const { browser } = await loggedIn(t);
    const zip = await makeZip({ 'csrf.md': '# Token test' });
    const count = await noteCount();
    expect((await upload(t.app, browser, '/accounts/import/', zip, { token: 'none' })).statusCode).toBe(403);
    expect((await upload(t.app, browser, '/accounts/import/', zip, { token: 'last' })).statusCode).toBe(403);
    expect(await noteCount()).toBe(count);
    expect((await upload(t.app, browser, '/accounts/import/', zip, { token: 'header' })).statusCode).toBe(302);
    expect(await noteCount()).toBe(count + 1);
  });

  it('answers 400, never 500, for a malformed or truncated multipart body, with the token in the form or the header', async () => {
    const { browser } = await loggedIn(t);
    const secret = await browser.ensureCsrfCookie();
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const tokenPart = `--XX\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n${secret}`;
    const bodies = ['no boundary anywhere', `${tokenPart}\r\n--XX\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\n\r\nPK cut short`, tokenPart];
    for (const payload of bodies) {
      for (const header of [{}, { 'x-csrftoken': secret }]) {
        const response = await t.app.inject({
          method: 'POST', url: '/accounts/import/', payload,
          headers: { host: 'localhost', origin: 'http://localhost', cookie, 'content-type': 'multipart/form-data; boundary=XX', ...header },
        });
        expect(response.statusCode).toBe(400);
      }
    }
  });

  it('is the only page that takes an upload: elsewhere a multipart body is refused with 415', async () => {
    const { browser } = await loggedIn(t);
    const count = await noteCount();
    const response = await upload(t.app, browser, '/notes/new/', await makeZip({ 'a.md': '# A' }));
    expect(response.statusCode).toBe(415);
    expect(await noteCount()).toBe(count);
  });

  it('sends anonymous callers to log in, storing nothing', async () => {
    const browser = new TestBrowser(t.app);
    const count = await noteCount();
    const response = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'a.md': '# A' }));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\//);
    expect((await browser.get('/accounts/import/')).statusCode).toBe(302);
    expect(await noteCount()).toBe(count);
  });
});
