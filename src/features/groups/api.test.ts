import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buildTestApp, createGroup, createNote, createShoppingList, errorOf, fieldsOf, groupCast, memberIds, results, type TestApp } from '../../../test/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const groupCount = async () => Number((await t.db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const groupExists = async (id: number) => (await t.db.selectFrom('groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

describe('GET /api/v1/groups/', () => {
  it('lists the caller’s groups to the owner and to a member, with every field, and not to a stranger', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const mine = await owner.api.get('/api/v1/groups/');
    expect(mine.statusCode).toBe(200);
    expect(results(mine)).toEqual([
      { id: group.id, name: group.name, owner: owner.user.username, is_owner: true, member_count: 2, created_at: new Date(group.created_at).toISOString() },
    ]);
    expect(mine.data.next).toBeNull();
    const theirs = await member.readOnly.get('/api/v1/groups/');
    expect(results(theirs)).toEqual([expect.objectContaining({ id: group.id, owner: owner.user.username, is_owner: false })]);
    const strangers = await stranger.api.get('/api/v1/groups/');
    expect(strangers.statusCode).toBe(200);
    expect(results(strangers)).toEqual([]);
  });

  it('pages with `next` across two pages, in the order the groups were made', async () => {
    const caller = await apiCaller(t);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createGroup(t.db, caller.user, [], `Paged ${i}`));
    const first = await caller.api.get('/api/v1/groups/?limit=2');
    expect(results(first).map((group) => group.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first.data.next).toMatch(/^http:\/\/localhost\/api\/v1\/groups\/\?limit=2&cursor=/);
    const second = await caller.api.get(String(first.data.next).replace('http://localhost', ''));
    expect(results(second).map((group) => group.id)).toEqual([made[2]!.id]);
    expect(second.data.next).toBeNull();
  });

  it('answers 400 for a cursor or limit that is not valid', async () => {
    const caller = await apiCaller(t);
    const cursor = await caller.api.get('/api/v1/groups/?cursor=bm90LW91cnM');
    expect(cursor.statusCode).toBe(400);
    expect(fieldsOf(cursor)).toHaveProperty('cursor');
    // A cursor past the id range would be a database error on PostgreSQL: it is not ours either.
    const huge = Buffer.from(JSON.stringify([2 ** 40])).toString('base64url');
    expect((await caller.api.get(`/api/v1/groups/?cursor=${huge}`)).statusCode).toBe(400);
    const limit = await caller.api.get('/api/v1/groups/?limit=101');
    expect(limit.statusCode).toBe(400);
    expect(fieldsOf(limit)).toHaveProperty('limit');
  });

  it('answers 304 to If-None-Match with the list’s ETag, and 200 once it changed', async () => {
    const { owner } = await groupCast(t);
    const first = await owner.api.get('/api/v1/groups/');
    const etag = String(first.headers.etag);
    expect((await owner.api.get('/api/v1/groups/', { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await createGroup(t.db, owner.user);
    expect((await owner.api.get('/api/v1/groups/', { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });
});

describe('POST /api/v1/groups/', () => {
  it('creates a group whose creator is owner and only member: 201, Location and the object', async () => {
    const caller = await apiCaller(t);
    const response = await caller.api.post('/api/v1/groups/', { name: '  Book club  ' });
    expect(response.statusCode).toBe(201);
    const id = response.data.id as unknown as number;
    expect(response.headers.location).toBe(`/api/v1/groups/${id}/`);
    expect(response.data).toEqual({
      id,
      name: 'Book club',
      owner: caller.user.username,
      is_owner: true,
      member_count: 1,
      created_at: expect.stringMatching(ISO),
      members: [{ id: caller.user.id, username: caller.user.username, is_owner: true, joined_at: expect.stringMatching(ISO) }],
    });
    const stored = await t.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'Book club', owner_id: caller.user.id });
    expect(await memberIds(t, id)).toEqual([caller.user.id]);
    expect((await caller.api.get(String(response.headers.location))).data).toEqual(response.data);
  });

  it('refuses a name the caller already uses, in any case or width, with the form’s words, creating nothing', async () => {
    const caller = await apiCaller(t);
    await createGroup(t.db, caller.user, [], 'Family');
    const before = await groupCount();
    for (const name of ['family', 'Ｆａｍｉｌｙ', 'FAMİLY', ' Family ']) {
      const response = await caller.api.post('/api/v1/groups/', { name });
      expect(response.statusCode, name).toBe(400);
      expect(errorOf(response)).toEqual({ code: 'invalid', message: expect.any(String), fields: { name: ['You already have a group with that name.'] } });
    }
    expect(await groupCount()).toBe(before);
    // Another owner's Family is no obstacle.
    expect((await (await apiCaller(t)).api.post('/api/v1/groups/', { name: 'Family' })).statusCode).toBe(201);
  });

  it('answers 400 with the fields for empty, long, missing, mistyped and unknown fields', async () => {
    const caller = await apiCaller(t);
    const before = await groupCount();
    const cases: [unknown, string, string][] = [
      [{ name: '   ' }, 'name', 'Enter a name for the group.'],
      [{ name: 'x'.repeat(151) }, 'name', 'Group names have at most 150 characters.'],
      [{}, 'name', 'Enter a name for the group.'],
      [{ name: 42 }, 'name', 'Enter a name for the group.'],
      [{ name: 'Fine', owner: 'someone-else' }, '__all__', expect.any(String) as unknown as string],
      [['name'], '__all__', expect.any(String) as unknown as string],
    ];
    for (const [body, field, message] of cases) {
      const response = await caller.api.post('/api/v1/groups/', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).code).toBe('invalid');
      expect(fieldsOf(response)[field]).toEqual([message]);
    }
    expect(await groupCount()).toBe(before);
  });

  it('refuses a read-only token with 403, creating nothing', async () => {
    const caller = await apiCaller(t);
    const response = await caller.readOnly.post('/api/v1/groups/', { name: 'Read only' });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('forbidden');
    expect(await t.db.selectFrom('groups').select('id').where('owner_id', '=', caller.user.id).execute()).toEqual([]);
  });
});

describe('GET /api/v1/groups/:pk/', () => {
  it('shows the owner and a member the group with its members by username; a stranger gets the 404 of an absent group', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const expected = {
      id: group.id,
      name: group.name,
      owner: owner.user.username,
      member_count: 2,
      created_at: new Date(group.created_at).toISOString(),
      members: [owner.user, member.user]
        .sort((a, b) => (a.username < b.username ? -1 : 1))
        .map((user) => ({ id: user.id, username: user.username, is_owner: user.id === owner.user.id, joined_at: expect.stringMatching(ISO) })),
    };
    const asOwner = await owner.api.get(`/api/v1/groups/${group.id}/`);
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.data).toEqual({ ...expected, is_owner: true });
    const asMember = await member.readOnly.get(`/api/v1/groups/${group.id}/`);
    expect(asMember.statusCode).toBe(200);
    expect(asMember.data).toEqual({ ...expected, is_owner: false });
    const hidden = await stranger.api.get(`/api/v1/groups/${group.id}/`);
    const absent = await stranger.api.get('/api/v1/groups/999999/');
    expect(hidden.statusCode).toBe(404);
    expect(errorOf(hidden).code).toBe('not_found');
    expect(hidden.body).toBe(absent.body);
  });

  it('answers 404 for ids that are not ids, and past the id range', async () => {
    const { owner, group } = await groupCast(t);
    for (const id of ['abc', '0', '-1', '1e3', '0x10', `${group.id}.0`, '2147483648', '99999999999999999999']) {
      expect((await owner.api.get(`/api/v1/groups/${id}/`)).statusCode, id).toBe(404);
    }
  });

  it('answers 304 to If-None-Match, and 200 once a member joined', async () => {
    const { owner, stranger, group } = await groupCast(t);
    const first = await owner.api.get(`/api/v1/groups/${group.id}/`);
    const etag = String(first.headers.etag);
    const again = await owner.api.get(`/api/v1/groups/${group.id}/`, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: stranger.user.id, joined_at: Date.now() }).execute();
    expect((await owner.api.get(`/api/v1/groups/${group.id}/`, { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('has no PATCH, as the pages have no rename', async () => {
    const { owner, group } = await groupCast(t);
    const response = await owner.api.patch(`/api/v1/groups/${group.id}/`, { name: 'Renamed' });
    expect([404, 405]).toContain(response.statusCode);
    expect((await t.db.selectFrom('groups').select('name').where('id', '=', group.id).executeTakeFirstOrThrow()).name).toBe(group.name);
  });
});

describe('DELETE /api/v1/groups/:pk/', () => {
  it('lets the owner delete: members and chat go, notes and shopping lists keep their owner and lose the group', async () => {
    const { owner, member, group } = await groupCast(t);
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: member.user.id, content: 'hi', created_at: Date.now() }).execute();
    const note = await createNote(t.db, member.user, { group_id: group.id });
    const list = await createShoppingList(t.db, member.user, { group });
    const response = await owner.api.delete(`/api/v1/groups/${group.id}/`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await groupExists(group.id)).toBe(false);
    expect(await memberIds(t, group.id)).toEqual([]);
    expect(await t.db.selectFrom('chat_messages').select('id').where('group_id', '=', group.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('notes').select(['owner_id', 'group_id']).where('id', '=', note.id).executeTakeFirst()).toEqual({ owner_id: member.user.id, group_id: null });
    expect(await t.db.selectFrom('shopping_lists').select(['owner_id', 'group_id']).where('id', '=', list.id).executeTakeFirst()).toEqual({ owner_id: member.user.id, group_id: null });
    expect((await owner.api.get(`/api/v1/groups/${group.id}/`)).statusCode).toBe(404);
  });

  it('gives a member and a stranger 404, and the owner’s read-only token 403, deleting nothing', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    for (const caller of [member, stranger]) {
      const response = await caller.api.delete(`/api/v1/groups/${group.id}/`);
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    expect((await owner.readOnly.delete(`/api/v1/groups/${group.id}/`)).statusCode).toBe(403);
    expect(await groupExists(group.id)).toBe(true);
    expect(await memberIds(t, group.id)).toEqual([owner.user.id, member.user.id].sort((a, b) => a - b));
  });
});

describe('POST /api/v1/groups/:pk/leave/', () => {
  it('lets a member leave (204), after which the group is a 404 to them', async () => {
    const { owner, member, group } = await groupCast(t);
    const response = await member.api.post(`/api/v1/groups/${group.id}/leave/`);
    expect(response.statusCode).toBe(204);
    expect(await memberIds(t, group.id)).toEqual([owner.user.id]);
    expect((await member.api.get(`/api/v1/groups/${group.id}/`)).statusCode).toBe(404);
    expect((await member.api.post(`/api/v1/groups/${group.id}/leave/`)).statusCode).toBe(404);
  });

  it('gives the owner and a stranger 404, and a member’s read-only token 403, changing nothing', async () => {
    const { owner, member, stranger, group } = await groupCast(t);
    const before = await memberIds(t, group.id);
    expect((await owner.api.post(`/api/v1/groups/${group.id}/leave/`)).statusCode).toBe(404);
    expect((await stranger.api.post(`/api/v1/groups/${group.id}/leave/`)).statusCode).toBe(404);
    expect((await member.readOnly.post(`/api/v1/groups/${group.id}/leave/`)).statusCode).toBe(403);
    expect(await memberIds(t, group.id)).toEqual(before);
  });
});

describe('the OpenAPI document', () => {
  it('lists every groups and chat operation with its path parameters and error statuses', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, unknown> }>> }).paths;
    const operations: [string, string][] = [
      ['/api/v1/groups/', 'get'],
      ['/api/v1/groups/', 'post'],
      ['/api/v1/groups/{pk}/', 'get'],
      ['/api/v1/groups/{pk}/', 'delete'],
      ['/api/v1/groups/{pk}/leave/', 'post'],
      ['/api/v1/groups/{pk}/members/', 'get'],
      ['/api/v1/groups/{pk}/members/', 'post'],
      ['/api/v1/groups/{pk}/members/{userPk}/', 'get'],
      ['/api/v1/groups/{pk}/members/{userPk}/', 'delete'],
      ['/api/v1/groups/{pk}/messages/', 'get'],
      ['/api/v1/groups/{pk}/messages/', 'post'],
      ['/api/v1/groups/{pk}/messages/{messageId}/', 'get'],
    ];
    for (const [path, method] of operations) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      const names = (operation!.parameters ?? []).map((parameter) => parameter.name);
      for (const name of path.match(/\{(\w+)\}/g) ?? []) expect(names).toContain(name.slice(1, -1));
      if (path.includes('{pk}')) expect(operation!.responses).toHaveProperty('404');
    }
    expect(paths['/api/v1/groups/{pk}/']).not.toHaveProperty('patch');
  });
});
