import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse, buildTestApp, connectChat, createToken, createUser, listen, loggedIn, results, type TestApp } from '../../../test/index.js';
import type { User } from '../../db/schema.js';
import { Notifications } from './notifications.js';

// /api/v1/notifications/: the caller's own, newest first; marking read is scoped like the page's
// buttons and tells the open pages the new count, as they do.

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

const errorOf = (response: ApiResponse) => response.data.error as unknown as { code: string; fields: Record<string, string[]> };
const rowsOf = (user: User) => t.db.selectFrom('notifications').select(['id', 'read_at']).where('user_id', '=', user.id).orderBy('id').execute();

async function notify(user: User, text: string, createdAt = Date.now()) {
  await new Notifications(null).add(t.db, [user.id], { kind: 'test', text, link: '/notes/' }, createdAt);
  return t.db.selectFrom('notifications').select('id').where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
}

/** A user with a read-write and a read-only token, and a stranger. */
async function people() {
  const owner = await createUser(t.db);
  return {
    owner,
    api: new ApiClient(t.app, { token: await createToken(t.db, owner, 'write') }),
    reader: new ApiClient(t.app, { token: await createToken(t.db, owner, 'read') }),
    stranger: new ApiClient(t.app, { token: await createToken(t.db, await createUser(t.db), 'write') }),
  };
}

describe('GET /api/v1/notifications/', () => {
  it('lists only the caller’s notifications, newest first, with their fields', async () => {
    const { owner, reader, stranger } = await people();
    const older = await notify(owner, 'older', Date.UTC(2026, 0, 1, 8));
    const newer = await notify(owner, 'newer <b>', Date.UTC(2026, 0, 2, 8));
    const readAt = Date.UTC(2026, 0, 3, 8);
    await t.db.updateTable('notifications').set({ read_at: readAt }).where('id', '=', older.id).execute();
    const response = await reader.get('/api/v1/notifications/');
    expect(response.statusCode).toBe(200);
    expect(results(response)).toEqual([
      { id: newer.id, kind: 'test', text: 'newer <b>', link: '/notes/', created_at: '2026-01-02T08:00:00.000Z', read: false, read_at: null },
      { id: older.id, kind: 'test', text: 'older', link: '/notes/', created_at: '2026-01-01T08:00:00.000Z', read: true, read_at: '2026-01-03T08:00:00.000Z' },
    ]);
    expect(response.data.next).toBeNull();
    expect(results(await stranger.get('/api/v1/notifications/'))).toEqual([]);
  });

  it('pages with `next`, and `unread=1` keeps only the unread ones across pages', async () => {
    const { owner, api } = await people();
    const ids: number[] = [];
    for (const text of ['1', '2', '3', '4', '5']) ids.push((await notify(owner, text)).id);
    await t.db.updateTable('notifications').set({ read_at: Date.now() }).where('id', 'in', [ids[1]!, ids[3]!]).execute();
    const first = await api.get('/api/v1/notifications/?limit=2');
    expect(results(first).map((row) => row.text)).toEqual(['5', '4']);
    const second = await api.get(String(first.data.next).replace('http://localhost', ''));
    expect(results(second).map((row) => row.text)).toEqual(['3', '2']);
    const third = await api.get(String(second.data.next).replace('http://localhost', ''));
    expect(results(third).map((row) => row.text)).toEqual(['1']);
    expect(third.data.next).toBeNull();
    const unread = await api.get('/api/v1/notifications/?unread=1&limit=2');
    expect(results(unread).map((row) => row.text)).toEqual(['5', '3']);
    expect(String(unread.data.next)).toContain('unread=1');
    expect(results(await api.get(String(unread.data.next).replace('http://localhost', ''))).map((row) => row.text)).toEqual(['1']);
  });

  it('answers If-None-Match with 304 until something changes', async () => {
    const { owner, api } = await people();
    await notify(owner, 'one');
    const etag = String((await api.get('/api/v1/notifications/')).headers.etag);
    expect((await api.get('/api/v1/notifications/', { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    await notify(owner, 'two');
    expect((await api.get('/api/v1/notifications/', { headers: { 'if-none-match': etag } })).statusCode).toBe(200);
  });

  it('answers a bad filter, limit or cursor with 400 on that field', async () => {
    const { api } = await people();
    expect(errorOf(await api.get('/api/v1/notifications/?unread=yes')).fields).toHaveProperty('unread');
    expect(errorOf(await api.get('/api/v1/notifications/?limit=0')).fields).toHaveProperty('limit');
    expect(errorOf(await api.get('/api/v1/notifications/?cursor=WyJ4Il0')).fields).toHaveProperty('cursor');
  });
});

describe('POST /api/v1/notifications/:pk/read/', () => {
  it('marks the caller’s notification read and answers it; one read already keeps its time', async () => {
    const { owner, api } = await people();
    const row = await notify(owner, 'hello');
    const other = await notify(owner, 'still unread');
    const response = await api.post(`/api/v1/notifications/${row.id}/read/`);
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ id: row.id, text: 'hello', read: true });
    const [stored] = (await rowsOf(owner)).filter((r) => r.id === row.id);
    expect(response.data.read_at).toEqual(new Date(stored!.read_at!).toISOString());
    const again = await api.post(`/api/v1/notifications/${row.id}/read/`);
    expect(again.data.read_at).toEqual(response.data.read_at);
    expect((await rowsOf(owner)).find((r) => r.id === other.id)!.read_at).toBeNull();
  });

  it('refuses a read-only token (403), and another user’s, an absent or a malformed id (404), marking nothing', async () => {
    const { owner, reader, stranger, api } = await people();
    const row = await notify(owner, 'hello');
    expect((await reader.post(`/api/v1/notifications/${row.id}/read/`)).statusCode).toBe(403);
    const refused = await stranger.post(`/api/v1/notifications/${row.id}/read/`);
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused).code).toBe('not_found');
    for (const id of ['999999999', '3000000000', 'x']) expect((await api.post(`/api/v1/notifications/${id}/read/`)).statusCode).toBe(404);
    expect(await rowsOf(owner)).toEqual([{ id: row.id, read_at: null }]);
  });
});

describe('POST /api/v1/notifications/read/', () => {
  it('marks all the caller’s unread notifications read and says how many; nobody else’s', async () => {
    const { owner, api } = await people();
    const stranger = await createUser(t.db);
    await notify(owner, 'a');
    await notify(owner, 'b');
    await notify(stranger, 'not yours');
    const response = await api.post('/api/v1/notifications/read/');
    expect(response.statusCode).toBe(200);
    expect(response.data).toEqual({ marked: 2 });
    expect((await rowsOf(owner)).every((row) => row.read_at !== null)).toBe(true);
    expect((await rowsOf(stranger))[0]!.read_at).toBeNull();
    expect((await api.post('/api/v1/notifications/read/')).data).toEqual({ marked: 0 });
  });

  it('refuses a read-only token with 403, marking nothing', async () => {
    const { owner, reader } = await people();
    await notify(owner, 'a');
    expect((await reader.post('/api/v1/notifications/read/')).statusCode).toBe(403);
    expect((await rowsOf(owner))[0]!.read_at).toBeNull();
  });
});

describe('marking read through the API', () => {
  it('tells the user’s open pages the new unread count, as the page’s buttons do', async () => {
    const { user, browser } = await loggedIn(t);
    const api = new ApiClient(t.app, { token: await createToken(t.db, user) });
    const first = await notify(user, 'a');
    await notify(user, 'b');
    await notify(user, 'c');
    const bell = await connectChat(address, '/ws/notifications/', { sessionKey: browser.cookies.get('sessionid')! });
    const nthCount = async (n: number) => (await bell.waitFor((frame) => frame.type === 'unread', n))[n - 1]!.count;
    expect(await nthCount(1)).toBe(3);
    expect((await api.post(`/api/v1/notifications/${first.id}/read/`)).statusCode).toBe(200);
    expect(await nthCount(2)).toBe(2);
    expect((await api.post('/api/v1/notifications/read/')).data).toEqual({ marked: 2 });
    expect(await nthCount(3)).toBe(0);
    bell.close();
  });
});
