import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { addShoppingItem, buildTestApp, createGroup, createShoppingList, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import { sweepExpired } from '../../maintenance.js';
import { COALESCE_MS, KEEP_DAYS, KEEP_PER_GROUP, trimActivity } from './activity.js';

// Group activity: each event is recorded with its change, shown newest first to members, and an
// event about a note or list only to a member who may see that object now.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;
let otherGroup: Group;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t, { username: 'ora' });
  member = await loggedIn(t, { username: 'max' });
  stranger = await loggedIn(t, { username: 'sid' });
  group = await createGroup(t.db, owner.user, [member.user], 'Flat 3');
  otherGroup = await createGroup(t.db, owner.user, [], 'Only ora');
});
afterAll(() => t.close());

/** The activity section's lines, as text, newest first. */
async function activityOf(browser: TestBrowser, groupId = group.id): Promise<string[]> {
  const page = await browser.get(`/groups/${groupId}/`);
  expect(page.statusCode).toBe(200);
  const section = /<section aria-labelledby="activity-heading">[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? '';
  return [...section.matchAll(/<li><span>([\s\S]*?)<\/span>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ''));
}

const rowsOf = (groupId: number) => t.db.selectFrom('group_activity').selectAll().where('group_id', '=', groupId).orderBy('id').execute();

describe('group activity', () => {
  it('records a note shared into the group, on creation and when its group changes to this one, and hides it once it leaves the group', async () => {
    const created = await owner.browser.post('/notes/new/', { title: 'House rules', group: String(group.id) });
    const noteId = Number(/(\d+)/.exec(created.headers.location as string)![1]);
    expect((await activityOf(member.browser))[0]).toBe('ora shared the note House rules with the group');
    // An edit that keeps the group records nothing more.
    await owner.browser.post(`/notes/${noteId}/edit/`, { title: 'House rules', group: String(group.id), priority: '0' });
    expect((await rowsOf(group.id)).filter((row) => row.object_id === noteId)).toHaveLength(1);
    // Moved to a group the member is not in: gone from the member's view, still there for the owner.
    await owner.browser.post(`/notes/${noteId}/edit/`, { title: 'House rules', group: String(otherGroup.id), priority: '0' });
    expect(await activityOf(member.browser)).not.toContain('ora shared the note House rules with the group');
    expect(await activityOf(owner.browser)).toContain('ora shared the note House rules with the group');
    expect(await activityOf(owner.browser, otherGroup.id)).toContain('ora shared the note House rules with the group');
    // Back into the group: a new event.
    await owner.browser.post(`/notes/${noteId}/edit/`, { title: 'House rules', group: String(group.id), priority: '0' });
    expect((await rowsOf(group.id)).filter((row) => row.object_id === noteId && row.object_kind === 'note')).toHaveLength(2);
  });

  it('records a note moved into the group once when two edits move it at the same moment', async () => {
    const created = await owner.browser.post('/notes/new/', { title: 'Rota', group: '' });
    const noteId = Number(/(\d+)/.exec(created.headers.location as string)![1]);
    const edits = await Promise.all(
      ['Rota (a)', 'Rota (b)', 'Rota (c)'].map((title) => owner.browser.post(`/notes/${noteId}/edit/`, { title, group: String(group.id), priority: '0' })),
    );
    expect(edits.map((response) => response.statusCode)).toEqual([302, 302, 302]);
    expect((await rowsOf(group.id)).filter((row) => row.object_id === noteId && row.object_kind === 'note')).toHaveLength(1);
  });

  it('records a shopping list made for the group or moved into it, and hides it from members once it moves out', async () => {
    const created = await owner.browser.post('/shopping/new/', { title: 'Weekly shop', store_name: '', group: String(group.id) });
    const listId = Number(/(\d+)/.exec(created.headers.location as string)![1]);
    expect((await activityOf(member.browser))[0]).toBe('ora added the shopping list Weekly shop to the group');
    const moved = await owner.browser.post('/shopping/new/', { title: 'Party', store_name: '', group: '' });
    const movedId = Number(/(\d+)/.exec(moved.headers.location as string)![1]);
    await owner.browser.post(`/shopping/${movedId}/edit/`, { title: 'Party', store_name: '', group: String(group.id) });
    expect((await activityOf(member.browser))[0]).toBe('ora added the shopping list Party to the group');
    await owner.browser.post(`/shopping/${movedId}/edit/`, { title: 'Party', store_name: '', group: String(otherGroup.id) });
    const seen = await activityOf(member.browser);
    expect(seen).not.toContain('ora added the shopping list Party to the group');
    expect(seen).toContain('ora added the shopping list Weekly shop to the group');
    expect(listId).toBeGreaterThan(0);
  });

  it('coalesces a shop of many changes by one person into one line, and starts a new one after the window', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Market', group });
    const items = [];
    for (let i = 0; i < 5; i += 1) items.push(await addShoppingItem(t.db, list, { name: `thing ${i}` }));
    for (const item of items) expect((await owner.browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'bread' });
    const rows = (await rowsOf(group.id)).filter((row) => row.kind === 'list.changed' && row.object_id === list.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.count).toBe(6);
    expect((await activityOf(member.browser))[0]).toBe('ora changed the shopping list Market (6 changes)');
    // Once the window has passed, the next change is a new line.
    await t.db.updateTable('group_activity').set({ created_at: Date.now() - COALESCE_MS - 1000 }).where('id', '=', rows[0]!.id).execute();
    await owner.browser.post(`/shopping/items/${items[0]!.id}/toggle/`);
    expect((await rowsOf(group.id)).filter((row) => row.kind === 'list.changed' && row.object_id === list.id)).toHaveLength(2);
  });

  it('records nothing for changes to a list without a group', async () => {
    const list = await createShoppingList(t.db, owner.user, { title: 'Mine alone' });
    const item = await addShoppingItem(t.db, list);
    const before = await t.db.selectFrom('group_activity').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await owner.browser.post(`/shopping/items/${item.id}/toggle/`);
    const after = await t.db.selectFrom('group_activity').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('records members added, leaving and removed, shown to every member', async () => {
    const newcomer = await loggedIn(t, { username: 'nia' });
    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'nia' });
    expect((await activityOf(member.browser))[0]).toBe('ora added nia');
    await newcomer.browser.post(`/groups/${group.id}/leave/`);
    expect((await activityOf(member.browser))[0]).toBe('nia left the group');
    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'nia' });
    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: String(newcomer.user.id) });
    expect((await activityOf(member.browser)).slice(0, 2)).toEqual(['ora removed nia', 'ora added nia']);
    // A failed removal (not a member) records nothing.
    const count = (await rowsOf(group.id)).length;
    expect((await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: String(newcomer.user.id) })).statusCode).toBe(400);
    expect(await rowsOf(group.id)).toHaveLength(count);
  });

  it('is the same 404 as before for a stranger', async () => {
    expect((await stranger.browser.get(`/groups/${group.id}/`)).statusCode).toBe(404);
    expect((await stranger.browser.get('/groups/999999/')).statusCode).toBe(404);
  });

  it('shows a deleted note\'s or list\'s events to nobody', async () => {
    const note = await owner.browser.post('/notes/new/', { title: 'Soon gone', group: String(group.id) });
    const noteId = Number(/(\d+)/.exec(note.headers.location as string)![1]);
    expect(await activityOf(owner.browser)).toContain('ora shared the note Soon gone with the group');
    await owner.browser.post(`/notes/${noteId}/delete/`);
    expect(await activityOf(owner.browser)).not.toContain('ora shared the note Soon gone with the group');
  });

  it('is trimmed by the maintenance sweep: events past the age limit, and beyond the newest per group', async () => {
    const now = Date.now();
    const fresh = await createGroup(t.db, owner.user, [], 'Busy');
    const row = (at: number) => ({ group_id: fresh.id, kind: 'member.left', actor_id: owner.user.id, member_id: owner.user.id, object_kind: null, object_id: null, created_at: at, updated_at: at });
    await t.db.insertInto('group_activity').values([row(now - (KEEP_DAYS + 1) * 86_400_000), ...Array.from({ length: KEEP_PER_GROUP + 5 }, (_, i) => row(now - i * 1000))]).execute();
    await sweepExpired(t.db);
    const kept = await rowsOf(fresh.id);
    expect(kept).toHaveLength(KEEP_PER_GROUP);
    expect(Math.min(...kept.map((kept) => Number(kept.updated_at)))).toBe(now - (KEEP_PER_GROUP - 1) * 1000);
    expect(await trimActivity(t.db)).toBe(0);
    // Other groups' events were under the limit: all kept.
    expect((await rowsOf(group.id)).length).toBeGreaterThan(0);
  });
});
