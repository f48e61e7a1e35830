import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buildTestApp, createGroup, createUser, fieldsOf, groupCast, memberIds, results, type TestApp, TestBrowser } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const notificationsOf = (userId: number) => t.db.selectFrom('notifications').select(['kind', 'text', 'link', 'read_at']).where('user_id', '=', userId).orderBy('id').execute();

describe('GET /api/v1/groups/:pk/members/', () => {
  it('lists the members by user id to the owner and to a member, and 404s a stranger', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const expected = [owner.user, member.user]
      .sort((a, b) => a.id - b.id)
      .map((user) => ({ id: user.id, username: user.username, is_owner: user.id === owner.user.id, joined_at: expect.stringMatching(ISO) }));
    for (const caller of [owner.api, member.readOnly]) {
      const response = await caller.get(`/api/v1/groups/${group.id}/members/`);
      expect(response.statusCode).toBe(200);
      expect(results(response)).toEqual(expected);
      expect(response.data.next).toBeNull();
    }
    const hidden = await stranger.api.get(`/api/v1/groups/${group.id}/members/`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe((await stranger.api.get('/api/v1/groups/999999/members/')).body);
  });

  it('pages with `next` across two pages, and answers 304 to If-None-Match', async () => {
    const { owner, member, group } = await groupCast(t);
    const third = await createUser(t.db);
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: third.id, joined_at: Date.now() }).execute();
    const first = await member.api.get(`/api/v1/groups/${group.id}/members/?limit=2`);
    expect(results(first).map((row) => row.id)).toEqual([owner.user.id, member.user.id, third.id].sort((a, b) => a - b).slice(0, 2));
    const second = await member.api.get(String(first.data.next).replace('http://localhost', ''));
    expect(results(second).map((row) => row.id)).toEqual([Math.max(owner.user.id, member.user.id, third.id)]);
    expect(second.data.next).toBeNull();
    const etag = String(first.headers.etag);
    expect((await member.api.get(`/api/v1/groups/${group.id}/members/?limit=2`, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
  });
});

describe('GET /api/v1/groups/:pk/members/:userPk/', () => {
  it('shows one member to the owner and to a member; 404 for a stranger and for a user who is not a member', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const path = `/api/v1/groups/${group.id}/members/${member.user.id}/`;
    const expected = { id: member.user.id, username: member.user.username, is_owner: false, joined_at: expect.stringMatching(ISO) };
    expect((await owner.api.get(path)).data).toEqual(expected);
    expect((await member.readOnly.get(path)).data).toEqual(expected);
    expect((await stranger.api.get(path)).statusCode).toBe(404);
    expect((await owner.api.get(`/api/v1/groups/${group.id}/members/${stranger.user.id}/`)).statusCode).toBe(404);
    expect((await owner.api.get(`/api/v1/groups/${group.id}/members/abc/`)).statusCode).toBe(404);
  });
});

describe('POST /api/v1/groups/:pk/members/', () => {
  it('lets the owner add a user by username in any case: 201 with the member, Location, and the page’s notification', async () => {
    const { owner, group } = await groupCast(t);
    const emile = await createUser(t.db, { username: `Émile${Date.now() % 100000}` });
    const response = await owner.api.post(`/api/v1/groups/${group.id}/members/`, { username: `  ${emile.username.toUpperCase()} ` });
    expect(response.statusCode).toBe(201);
    expect(response.data).toEqual({ id: emile.id, username: emile.username, is_owner: false, joined_at: expect.stringMatching(ISO) });
    expect(response.headers.location).toBe(`/api/v1/groups/${group.id}/members/${emile.id}/`);
    expect((await owner.api.get(String(response.headers.location))).data).toEqual(response.data);
    expect(await memberIds(t, group.id)).toContain(emile.id);
    expect(await notificationsOf(emile.id)).toEqual([
      { kind: 'group.added', text: `${owner.user.username} added you to the group ${group.name}`, link: `/groups/${group.id}/`, read_at: null },
    ]);
  });

  it('notifies exactly as the page does', async () => {
    const owner = await createUser(t.db);
    const viaPage = await createUser(t.db);
    const viaApi = await createUser(t.db);
    const group = await createGroup(t.db, owner);
    const browser = new TestBrowser(t.app);
    await browser.login(owner.username);
    expect((await browser.post(`/groups/${group.id}/members/`, { action: 'add', username: viaPage.username })).statusCode).toBe(302);
    const api = (await apiCaller(t, owner)).api;
    expect((await api.post(`/api/v1/groups/${group.id}/members/`, { username: viaApi.username })).statusCode).toBe(201);
    expect(await notificationsOf(viaApi.id)).toEqual(await notificationsOf(viaPage.id));
  });

  it('answers 400 on `username` for an unknown user, a member already in, and bodies that are not valid, adding and telling nobody', async () => {
    const { owner, member, group } = await groupCast(t);
    const before = await memberIds(t, group.id);
    const cases: [unknown, string, string][] = [
      [{ username: 'no-such-person' }, 'username', 'There is no user named “no-such-person”.'],
      [{ username: member.user.username }, 'username', `${member.user.username} is already a member of this group.`],
      [{ username: '  ' }, 'username', 'Enter the username of the person to add.'],
      [{ username: 'x'.repeat(151) }, 'username', 'Usernames have at most 150 characters.'],
      [{}, 'username', 'Enter the username of the person to add.'],
      [{ username: ['a'] }, 'username', 'Enter the username of the person to add.'],
    ];
    for (const [body, field, message] of cases) {
      const response = await owner.api.post(`/api/v1/groups/${group.id}/members/`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(response)).toEqual({ [field]: [message] });
    }
    const unknownField = await owner.api.post(`/api/v1/groups/${group.id}/members/`, { username: member.user.username, action: 'add' });
    expect(unknownField.statusCode).toBe(400);
    expect(fieldsOf(unknownField)).toHaveProperty('__all__');
    expect(await memberIds(t, group.id)).toEqual(before);
    expect(await notificationsOf(member.user.id)).toEqual([]);
  });

  it('gives a member and a stranger 404, and the owner’s read-only token 403, adding nobody', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const third = await createUser(t.db);
    for (const caller of [member, stranger]) {
      expect((await caller.api.post(`/api/v1/groups/${group.id}/members/`, { username: third.username })).statusCode).toBe(404);
    }
    expect((await owner.readOnly.post(`/api/v1/groups/${group.id}/members/`, { username: third.username })).statusCode).toBe(403);
    expect(await memberIds(t, group.id)).not.toContain(third.id);
    expect(await notificationsOf(third.id)).toEqual([]);
  });
});

describe('DELETE /api/v1/groups/:pk/members/:userPk/', () => {
  it('lets the owner remove a member (204), after which the group is a 404 to them', async () => {
    const { owner, member, group } = await groupCast(t);
    const response = await owner.api.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`);
    expect(response.statusCode).toBe(204);
    expect(await memberIds(t, group.id)).toEqual([owner.user.id]);
    expect((await member.api.get(`/api/v1/groups/${group.id}/`)).statusCode).toBe(404);
    expect((await owner.api.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`)).statusCode).toBe(404);
  });

  it('refuses to remove the owner (400 on user_pk, the page’s words) and answers 404 for a user who is not a member', async () => {
    const { owner, stranger, group } = await groupCast(t);
    const self = await owner.api.delete(`/api/v1/groups/${group.id}/members/${owner.user.id}/`);
    expect(self.statusCode).toBe(400);
    expect(fieldsOf(self)).toEqual({ user_pk: ['The owner cannot be removed; delete the group instead.'] });
    expect((await owner.api.delete(`/api/v1/groups/${group.id}/members/${stranger.user.id}/`)).statusCode).toBe(404);
    expect((await owner.api.delete(`/api/v1/groups/${group.id}/members/2147483648/`)).statusCode).toBe(404);
    expect(await memberIds(t, group.id)).toContain(owner.user.id);
  });

  it('gives a member (even removing themselves) and a stranger 404, and the owner’s read-only token 403, removing nobody', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const before = await memberIds(t, group.id);
    expect((await member.api.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`)).statusCode).toBe(404);
    expect((await member.api.delete(`/api/v1/groups/${group.id}/members/${owner.user.id}/`)).statusCode).toBe(404);
    expect((await stranger.api.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`)).statusCode).toBe(404);
    expect((await owner.readOnly.delete(`/api/v1/groups/${group.id}/members/${member.user.id}/`)).statusCode).toBe(403);
    expect(await memberIds(t, group.id)).toEqual(before);
  });
});
