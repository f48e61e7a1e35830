import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, connectChat, createGroup, createNote, createToken, listen, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import { SHOPPING, TODO } from '../lists/index.js';
import { MERGE_WINDOW_MS } from '../notifications/notifications.js';

// A note or a list put into a group (made in it, or moved to it) tells the group's members, but
// not the one who put it there, nor anyone outside the group; several put there by one person
// while the first notification is recent and unread are one ("… shared 3 notes with the group
// …", pointing at the group's page). A note taken out of its group tells nobody.

type Caller = { user: User; browser: TestBrowser };
let t: TestApp;
let olga: Caller;
let ivan: Caller;
let sofiia: Caller;
let outsider: Caller;
let family: Group;
let address: string;

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0' });
  address = await listen(t.app);
  [olga, ivan, sofiia, outsider] = [await loggedIn(t, { username: 'olga' }), await loggedIn(t, { username: 'ivan' }), await loggedIn(t, { username: 'sofiia' }), await loggedIn(t, { username: 'outsider' })];
  family = await createGroup(t.db, olga.user, [ivan.user, sofiia.user], 'Family');
  // The outsider has a group of their own with Olga: its members are not Family's.
  await createGroup(t.db, outsider.user, [olga.user], 'Work');
});
afterEach(async () => {
  await t.db.deleteFrom('notifications').execute();
});
afterAll(() => t.close());

const told = (user: User) => t.db.selectFrom('notifications').select(['kind', 'text', 'link', 'count', 'read_at']).where('user_id', '=', user.id).orderBy('id').execute();
const newestNote = async (owner: User) => (await t.db.selectFrom('notes').select('id').where('owner_id', '=', owner.id).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;

async function writeNote(caller: Caller, title: string, group: Group | null): Promise<number> {
  const response = await caller.browser.post('/notes/new/', { title, content: 'x', group: group ? String(group.id) : '', priority: '1' });
  expect(response.statusCode).toBe(302);
  return newestNote(caller.user);
}

describe('a note put into a group', () => {
  it('tells the group’s other members, not the one who shared it nor anyone outside the group', async () => {
    const id = await writeNote(olga, 'Borscht recipe', family);
    const one = { kind: 'group.shared', text: 'olga shared the note Borscht recipe with the group Family', link: `/notes/${id}/`, count: 1, read_at: null };
    expect(await told(ivan.user)).toEqual([one]);
    expect(await told(sofiia.user)).toEqual([one]);
    expect(await told(olga.user)).toEqual([]);
    expect(await told(outsider.user)).toEqual([]);
    // Each reads it in their own language, on the page and in the API.
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', sofiia.user.id).execute();
    expect((await sofiia.browser.get('/notifications/')).body).toContain('olga ділиться з групою Family нотаткою Borscht recipe');
    await t.db.updateTable('users').set({ language: '' }).where('id', '=', sofiia.user.id).execute();
  });

  it('merges several shared by one person within minutes into one unread notification with their count', async () => {
    await writeNote(olga, 'First', family);
    await writeNote(olga, 'Second', family);
    // Moved into the group by an edit.
    const third = await writeNote(olga, 'Third', null);
    expect((await olga.browser.post(`/notes/${third}/edit/`, { title: 'Third', content: 'x', group: String(family.id), priority: '1' })).statusCode).toBe(302);
    const merged = { kind: 'group.shared', text: 'olga shared 3 notes with the group Family', link: `/groups/${family.id}/`, count: 3, read_at: null };
    expect(await told(ivan.user)).toEqual([merged]);
    expect(await told(sofiia.user)).toEqual([merged]);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', sofiia.user.id).execute();
    expect((await sofiia.browser.get('/notifications/')).body).toContain('olga ділиться з групою Family: 3 нотатки');
    await t.db.updateTable('users').set({ language: '' }).where('id', '=', sofiia.user.id).execute();

    // Edited again in the same group: nothing more.
    expect((await olga.browser.post(`/notes/${third}/edit/`, { title: 'Third, edited', content: 'y', group: String(family.id), priority: '2' })).statusCode).toBe(302);
    expect(await told(ivan.user)).toEqual([merged]);

    // Once Ivan has read it, the next one is a notification of its own; Sofiia's unread one counts it.
    await t.db.updateTable('notifications').set({ read_at: Date.now() }).where('user_id', '=', ivan.user.id).execute();
    const fourth = await writeNote(olga, 'Fourth', family);
    expect((await told(ivan.user)).map((row) => [row.text, row.count])).toEqual([
      ['olga shared 3 notes with the group Family', 3],
      ['olga shared the note Fourth with the group Family', 1],
    ]);
    expect((await told(sofiia.user)).map((row) => [row.text, row.count])).toEqual([['olga shared 4 notes with the group Family', 4]]);

    // Past the window, a new one; and another person's share is never merged with Olga's.
    await t.db.updateTable('notifications').set({ created_at: Date.now() - MERGE_WINDOW_MS - 1000 }).execute();
    await writeNote(olga, 'Fifth', family);
    await writeNote(ivan, 'From Ivan', family);
    expect((await told(sofiia.user)).map((row) => row.text)).toEqual([
      'olga shared 4 notes with the group Family',
      'olga shared the note Fifth with the group Family',
      'ivan shared the note From Ivan with the group Family',
    ]);
    expect((await told(olga.user)).map((row) => row.text)).toEqual(['ivan shared the note From Ivan with the group Family']);
    expect(fourth).toBeGreaterThan(third);
  });

  it('tells nobody when a note leaves its group, or is made in none', async () => {
    const note = await createNote(t.db, olga.user, { title: 'Private now', group_id: family.id });
    expect((await olga.browser.post(`/notes/${note.id}/edit/`, { title: 'Private now', content: 'x', group: '', priority: '1' })).statusCode).toBe(302);
    await writeNote(olga, 'Never shared', null);
    for (const member of [ivan, sofiia, olga, outsider]) expect(await told(member.user)).toEqual([]);
  });

  it('tells the members when the API puts a note into the group, once', async () => {
    const api = new ApiClient(t.app, { token: await createToken(t.db, olga.user) });
    const created = await api.post('/api/v1/notes/', { title: 'Via the API', content: '' });
    expect(created.statusCode).toBe(201);
    const id = JSON.parse(created.body).id as number;
    expect(await told(ivan.user)).toEqual([]);
    expect((await api.patch(`/api/v1/notes/${id}/`, { group: family.id })).statusCode).toBe(200);
    expect((await api.patch(`/api/v1/notes/${id}/`, { title: 'Via the API, again' })).statusCode).toBe(200);
    expect((await told(ivan.user)).map((row) => row.text)).toEqual(['olga shared the note Via the API with the group Family']);
    expect(await told(outsider.user)).toEqual([]);
  });
});

describe.each([SHOPPING, TODO].filter((kind) => kind.group))('a $noun put into a group', (kind) => {
  const noun = kind.name === 'todo' ? 'to-do list' : 'shopping list';
  const newestList = async () => (await t.db.selectFrom(kind.tables.lists).select('id').where('owner_id', '=', olga.user.id).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;

  it('tells the group’s other members, merged when several are put there at once', async () => {
    expect((await olga.browser.post(`${kind.base}/new/`, { title: 'Saturday', group: String(family.id) })).statusCode).toBe(302);
    const first = await newestList();
    expect(await told(ivan.user)).toEqual([{ kind: 'group.shared', text: `olga shared the ${noun} Saturday with the group Family`, link: `${kind.base}/${first}/`, count: 1, read_at: null }]);
    expect(await told(olga.user)).toEqual([]);
    expect(await told(outsider.user)).toEqual([]);

    // Renamed in its group: nothing; one made in no group, then moved into it: counted.
    expect((await olga.browser.post(`${kind.base}/${first}/edit/`, { title: 'Saturday market', group: String(family.id) })).statusCode).toBe(302);
    expect((await olga.browser.post(`${kind.base}/new/`, { title: 'Sunday', group: '' })).statusCode).toBe(302);
    const second = await newestList();
    expect(await told(ivan.user)).toHaveLength(1);
    expect((await olga.browser.post(`${kind.base}/${second}/edit/`, { title: 'Sunday', group: String(family.id) })).statusCode).toBe(302);
    const plural = kind.name === 'todo' ? 'to-do lists' : 'shopping lists';
    expect(await told(sofiia.user)).toEqual([{ kind: 'group.shared', text: `olga shared 2 ${plural} with the group Family`, link: `/groups/${family.id}/`, count: 2, read_at: null }]);

    // Taken out of the group: nobody is told.
    expect((await olga.browser.post(`${kind.base}/${second}/edit/`, { title: 'Sunday', group: '' })).statusCode).toBe(302);
    expect(await told(sofiia.user)).toHaveLength(1);
    expect((await told(sofiia.user))[0]!.count).toBe(2);
  });

  it('is told through the API too, and the members’ open bells hear it', async () => {
    const api = new ApiClient(t.app, { token: await createToken(t.db, olga.user) });
    const created = await api.post(`/api/v1/${kind.name}/`, { title: 'By the API' });
    expect(created.statusCode).toBe(201);
    const id = JSON.parse(created.body).id as number;
    const bell = await connectChat(address, '/ws/notifications/', { sessionKey: ivan.browser.cookies.get('sessionid')! });
    await bell.waitFor((frame) => frame.type === 'unread', 1);
    expect((await api.patch(`/api/v1/${kind.name}/${id}/`, { group: family.id })).statusCode).toBe(200);
    const frames = await bell.waitFor((frame) => frame.type === 'unread', 2);
    expect(frames.map((frame) => frame.count)).toEqual([0, 1]);
    bell.close();
    expect((await told(ivan.user)).map((row) => row.link)).toEqual([`${kind.base}/${id}/`]);
  });
});
