import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createUser, loggedIn, type TestApp } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const membersOf = async (groupId: number) =>
  (await t.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).orderBy('user_id').execute()).map((row) => row.user_id);

/** Owner (logged in), a member (logged in) and a stranger (logged in) around one group. */
async function cast() {
  const owner = await loggedIn(t);
  const member = await loggedIn(t);
  const stranger = await loggedIn(t);
  const group = await createGroup(t.db, owner.user, [member.user]);
  return { owner, member, stranger, group };
}

describe('creating a group', () => {
  it('makes the creator owner and member and redirects to the group page', async () => {
    const { browser, user } = await loggedIn(t);
    const response = await browser.post('/groups/new/', { name: '  Book club  ' });
    const group = await t.db.selectFrom('groups').selectAll().where('name', '=', 'Book club').executeTakeFirstOrThrow();
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/groups/${group.id}/`);
    expect(group.owner_id).toBe(user.id);
    expect(await membersOf(group.id)).toEqual([user.id]);
    const page = await browser.get(`/groups/${group.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Book club');
  });

  it('refuses a name taken in any case, and an empty name, storing nothing', async () => {
    const { browser, user } = await loggedIn(t);
    await createGroup(t.db, user, [], 'Hikers');
    const before = await t.db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const taken = await browser.post('/groups/new/', { name: 'hIKERS' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('You already have a group with that name.');
    expect(taken.body).toContain('value="hIKERS"');
    expect(taken.body).toMatch(/aria-describedby="[^"]*id_name_errors"/);
    const empty = await browser.post('/groups/new/', { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter a name for the group.');
    const after = await t.db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('group names are unique per owner, not across the site', () => {
  it('lets two households each create a group called Family', async () => {
    const first = await loggedIn(t);
    const second = await loggedIn(t);
    for (const { browser, user } of [first, second]) {
      const response = await browser.post('/groups/new/', { name: 'Family' });
      expect(response.statusCode).toBe(302);
      const group = await t.db.selectFrom('groups').selectAll().where('owner_id', '=', user.id).executeTakeFirstOrThrow();
      expect(group.name).toBe('Family');
      expect(response.headers.location).toBe(`/groups/${group.id}/`);
    }
  });

  it('gives one owner the form again, with an error, for a second family, Ｆａｍｉｌｙ or FAMİLY', async () => {
    const { browser, user } = await loggedIn(t);
    expect((await browser.post('/groups/new/', { name: 'Family' })).statusCode).toBe(302);
    for (const name of ['family', 'Ｆａｍｉｌｙ', 'FAMİLY', ' Family ']) {
      const response = await browser.post('/groups/new/', { name });
      expect(response.statusCode, name).toBe(400);
      expect(response.body).toContain('You already have a group with that name.');
      expect(response.body).toContain('<form');
    }
    expect(await t.db.selectFrom('groups').select('name').where('owner_id', '=', user.id).execute()).toEqual([{ name: 'Family' }]);
  });
});

describe('seeing groups', () => {
  it('lists only the groups the caller belongs to, with an empty state for none', async () => {
    const { owner, member, stranger, group } = await cast();
    expect((await member.browser.get('/groups/')).body).toContain(`/groups/${group.id}/`);
    expect((await owner.browser.get('/groups/')).body).toContain(group.name);
    const strangers = await stranger.browser.get('/groups/');
    expect(strangers.body).not.toContain(group.name);
    expect(strangers.body).toContain('You are not in any group yet.');
  });

  it('shows the group page to members, and 404 to strangers, for absent and malformed ids', async () => {
    const { member, stranger, group } = await cast();
    const page = await member.browser.get(`/groups/${group.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Leave this group');
    expect(page.body).not.toContain('Add a member');
    expect((await stranger.browser.get(`/groups/${group.id}/`)).statusCode).toBe(404);
    expect((await stranger.browser.get('/groups/999999/')).statusCode).toBe(404);
    expect((await member.browser.get('/groups/abc/')).statusCode).toBe(404);
    for (const path of ['chat/', 'chat/messages/', 'delete/']) {
      expect((await stranger.browser.get(`/groups/${group.id}/${path}`)).statusCode).toBe(404);
    }
  });

  it('sends anonymous callers to the login page', async () => {
    const { group } = await cast();
    const { TestBrowser } = await import('../../../test/helpers.js');
    const response = await new TestBrowser(t.app).get(`/groups/${group.id}/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/accounts/login/?next=${encodeURIComponent(`/groups/${group.id}/`)}`);
  });
});

describe('managing members: the owner only', () => {
  it('lets the owner add a member by username (any case)', async () => {
    const { owner, group } = await cast();
    const newcomer = await createUser(t.db);
    const response = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: newcomer.username.toUpperCase() });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/groups/${group.id}/`);
    expect(await membersOf(group.id)).toContain(newcomer.id);
  });

  it('adds Émile when the owner types ÉMILE', async () => {
    const { owner, group } = await cast();
    const emile = await createUser(t.db, { username: 'Émile' });
    const response = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'ÉMILE' });
    expect(response.statusCode).toBe(302);
    expect(await membersOf(group.id)).toContain(emile.id);
  });

  it('shows a form error for an unknown username or one already in, adding nobody', async () => {
    const { owner, member, group } = await cast();
    const before = await membersOf(group.id);
    const unknown = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'no-such-person' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('There is no user named “no-such-person”.');
    expect(unknown.body).toContain('value="no-such-person"');
    const again = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: member.user.username });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('is already a member of this group.');
    const badAction = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'promote', username: member.user.username });
    expect(badAction.statusCode).toBe(400);
    expect(await membersOf(group.id)).toEqual(before);
  });

  it('lets the owner remove a member, but not the owner, and validates user_pk', async () => {
    const { owner, member, group } = await cast();
    const self = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: owner.user.id });
    expect(self.statusCode).toBe(400);
    expect(self.body).toContain('The owner cannot be removed');
    const malformed = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: 'abc' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('Choose a member to remove.');
    const removed = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: member.user.id });
    expect(removed.statusCode).toBe(302);
    expect(await membersOf(group.id)).toEqual([owner.user.id]);
    expect((await member.browser.get(`/groups/${group.id}/`)).statusCode).toBe(404);
  });

  it('gives a member and a stranger 404 for any member change, changing nothing', async () => {
    const { owner, member, stranger, group } = await cast();
    const third = await createUser(t.db);
    const before = await membersOf(group.id);
    for (const caller of [member, stranger]) {
      expect((await caller.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: third.username })).statusCode).toBe(404);
      expect((await caller.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: owner.user.id })).statusCode).toBe(404);
    }
    expect((await member.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: member.user.id })).statusCode).toBe(404);
    expect(await membersOf(group.id)).toEqual(before);
  });
});

describe('leaving a group', () => {
  it('lets a member leave, and gives the owner and strangers 404', async () => {
    const { owner, member, stranger, group } = await cast();
    expect((await owner.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(404);
    expect((await stranger.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(404);
    expect(await membersOf(group.id)).toEqual([owner.user.id, member.user.id].sort((a, b) => a - b));
    const left = await member.browser.post(`/groups/${group.id}/leave/`);
    expect(left.statusCode).toBe(302);
    expect(left.headers.location).toBe('/groups/');
    expect(await membersOf(group.id)).toEqual([owner.user.id]);
  });
});

describe('deleting a group', () => {
  it('shows a confirmation page to the owner only', async () => {
    const { owner, member, group } = await cast();
    const confirm = await owner.browser.get(`/groups/${group.id}/delete/`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/groups/${group.id}/delete/"`);
    expect((await member.browser.get(`/groups/${group.id}/delete/`)).statusCode).toBe(404);
  });

  it('gives members and strangers 404, then lets the owner delete it with members and chat', async () => {
    const { owner, member, stranger, group } = await cast();
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: member.user.id, content: 'hi', created_at: Date.now() }).execute();
    for (const caller of [member, stranger]) expect((await caller.browser.post(`/groups/${group.id}/delete/`)).statusCode).toBe(404);
    expect(await t.db.selectFrom('groups').select('id').where('id', '=', group.id).executeTakeFirst()).toBeDefined();
    const response = await owner.browser.post(`/groups/${group.id}/delete/`);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/groups/');
    expect(await t.db.selectFrom('groups').select('id').where('id', '=', group.id).executeTakeFirst()).toBeUndefined();
    expect(await membersOf(group.id)).toEqual([]);
    expect(await t.db.selectFrom('chat_messages').select('id').where('group_id', '=', group.id).execute()).toEqual([]);
  });

  it('keeps shopping lists of the group with their owner, no longer linked to it', async () => {
    const { owner, member, group } = await cast();
    const now = Date.now();
    const list = await t.db
      .insertInto('shopping_lists')
      .values({ owner_id: member.user.id, title: 'Groceries', group_id: group.id, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await owner.browser.post(`/groups/${group.id}/delete/`)).statusCode).toBe(302);
    const after = await t.db.selectFrom('shopping_lists').select(['owner_id', 'group_id', 'title']).where('id', '=', list.id).executeTakeFirst();
    expect(after).toEqual({ owner_id: member.user.id, group_id: null, title: 'Groceries' });
  });
});

describe('the chat page', () => {
  it('shows recent history rendered on the server, the live script and a no-JavaScript note', async () => {
    const { owner, member, group } = await cast();
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: member.user.id, content: '<script>alert(1)</script>', created_at: Date.UTC(2026, 1, 2, 3, 4) }).execute();
    const page = await owner.browser.get(`/groups/${group.id}/chat/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;script>alert(1)&lt;/script>');
    expect(page.body).toContain('datetime="2026-02-02T03:04:00.000Z"');
    expect(page.body).toContain(member.user.username);
    expect(page.body).toContain('Live chat needs JavaScript');
    expect(page.body).toMatch(/<script src="\/static\/js\/chat\.js\?v=[0-9a-f]{10}" defer>/);
    expect(page.body).toContain(`data-socket-path="/ws/groups/${group.id}/chat/"`);
  });
});
