import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { Hub } from '../../../platform/hub/hub.js';
import { MemoryTransport } from '../../../platform/hub/transport.js';
import { SessionStore } from '../../../platform/chain/session.js';
import { buildTestApp, createGroup, createUser, type TestApp, testConfig } from '../../../../test/index.js';
import { lostAccessCheck } from './access.js';
import { CLOSE_NO_ACCESS, type ChatConnection, ChatConnections, MAX_PENDING } from './connections.js';
import { GroupsRepository } from '../repository.js';

// The connection registry on its own, over real sockets, with a fast ping interval.
const hub = new Hub(new MemoryTransport(), Fastify().log);
const lost = new Set<number>();
const connections = new ChatConnections(hub, {
  rateBurst: 5,
  ratePerSecond: 1,
  pingIntervalMs: 100,
  lostAccess: async (open) => open.filter((c) => lost.has(c.userId)),
});
const deferred: ChatConnection[] = [];
let server: WebSocketServer;
let port: number;

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  server.on('connection', (socket, request) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const userId = Number(query.get('user'));
    const connection = connections.add(socket, { groupId: Number(query.get('group')), userId, sessionKey: `key${userId}` });
    // `?defer` leaves the history to the test, as a slow database would.
    if (query.has('defer')) deferred.push(connection);
    else connections.sendHistory(connection, []);
  });
});

afterAll(() => {
  connections.close();
  server.close();
});

function client(user: number, group = 1, autoPong = true, defer = false) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?user=${user}&group=${group}${defer ? '&defer' : ''}`, { autoPong });
  const frames: string[] = [];
  ws.on('message', (data) => frames.push(data.toString()));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise<{ ws: WebSocket; frames: string[]; closed: Promise<number> }>((resolve) => ws.once('open', () => resolve({ ws, frames, closed })));
}

const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);

describe('liveness', () => {
  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    const silent = await client(1, 1, false);
    const healthy = await client(2);
    expect(await within(silent.closed, 1000)).toBe(1006);
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
    healthy.ws.close();
  });
});

describe('delivery and access', () => {
  it("sends a group's messages to that group's sockets only", async () => {
    const inGroup = await client(3, 10);
    const elsewhere = await client(4, 11);
    hub.publish({ type: 'chat.message', groupId: 10, message: { message_id: 1, author: 'a', content: 'hi', timestamp: new Date(0).toISOString(), edited_at: null, deleted: false } });
    await expect.poll(() => inGroup.frames.length).toBe(1);
    expect(JSON.parse(inGroup.frames[0]!)).toEqual({ type: 'message', message_id: 1, author: 'a', content: 'hi', timestamp: '1970-01-01T00:00:00.000Z', edited_at: null, deleted: false });
    expect(elsewhere.frames).toEqual([]);
    inGroup.ws.close();
    elsewhere.ws.close();
  });

  it('closes with 4403, at the next check, a connection the database says lost access', async () => {
    const doomed = await client(5);
    const fine = await client(6);
    lost.add(5);
    expect(await within(doomed.closed, 1000)).toBe(CLOSE_NO_ACCESS);
    expect(fine.ws.readyState).toBe(WebSocket.OPEN);
    fine.ws.close();
  });
});

describe('the database check behind it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('reports connections whose session is gone or expired, or whose membership is gone', async () => {
    const [a, b, c] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    const group = await createGroup(t.db, a, [b]);
    const sessions = new SessionStore(t.db, testConfig().sessionCookieAge);
    const key = async (userId: number) => (await sessions.create(userId, 'hash', 'test')).key;
    const ok = { groupId: group.id, userId: a.id, sessionKey: await key(a.id) };
    const noSession = { groupId: group.id, userId: b.id, sessionKey: 'gone'.padEnd(32, '0') };
    const expired = { groupId: group.id, userId: b.id, sessionKey: (await sessions.create(b.id, 'hash', 'test', Date.now() - 10 ** 12)).key };
    const notMember = { groupId: group.id, userId: c.id, sessionKey: await key(c.id) };
    const check = lostAccessCheck(sessions, new GroupsRepository(t.db));
    expect(await check([ok, noSession, expired, notMember])).toEqual([noSession, expired, notMember]);
  });
});

describe('a message posted while a socket waits for its history', () => {
  it('reaches it once, as a message, though the history (read after the message was stored) holds it too', async () => {
    const reader = await client(7, 3, true, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const connection = deferred.pop()!;
    const message = { message_id: 41, author: 'ann', content: 'while you connected', timestamp: new Date(0).toISOString(), edited_at: null, deleted: false };
    const earlier = { ...message, message_id: 40, content: 'before you connected' };
    hub.publish({ type: 'chat.message', groupId: 3, message });
    await new Promise((resolve) => setTimeout(resolve, 50));
    connections.sendHistory(connection, [earlier, message]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reader.frames.map((frame) => JSON.parse(frame) as { type: string; content: string }).map((frame) => `${frame.type}:${frame.content}`)).toEqual([
      'history:before you connected',
      'message:while you connected',
    ]);
    reader.ws.close();
  });
});

describe('an edit and a delete published while a socket waits for its history', () => {
  it('reach it after the history, whose copies of those messages it keeps', async () => {
    const reader = await client(9, 5, true, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const connection = deferred.pop()!;
    const edited = { message_id: 50, author: 'ann', content: 'before the edit', timestamp: new Date(0).toISOString(), edited_at: null, deleted: false };
    const deleted = { ...edited, message_id: 51, content: 'before the delete' };
    hub.publish({ type: 'chat.edited', groupId: 5, edit: { message_id: 50, content: 'after the edit', edited_at: new Date(1000).toISOString() } });
    hub.publish({ type: 'chat.deleted', groupId: 5, messageId: 51 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    connections.sendHistory(connection, [edited, deleted]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reader.frames.map((frame) => JSON.parse(frame) as { type: string; message_id: number }).map((frame) => `${frame.type}:${frame.message_id}`)).toEqual([
      'history:50',
      'history:51',
      'edited:50',
      'deleted:51',
    ]);
    expect(JSON.parse(reader.frames[2]!)).toEqual({ type: 'edited', message_id: 50, content: 'after the edit', edited_at: '1970-01-01T00:00:01.000Z' });
    expect(JSON.parse(reader.frames[3]!)).toEqual({ type: 'deleted', message_id: 51 });
    reader.ws.close();
  });
});

describe('messages held for a socket waiting for its history', () => {
  it('are bounded: past the limit the socket is cut, not the memory grown', async () => {
    const reader = await client(8, 4, true, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const connection = deferred.pop()!;
    for (let id = 1; id <= MAX_PENDING; id++) hub.publish({ type: 'chat.message', groupId: 4, message: { message_id: id, author: 'ann', content: `m${id}`, timestamp: new Date(0).toISOString(), edited_at: null, deleted: false } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connection.pending).toHaveLength(MAX_PENDING);
    expect(reader.ws.readyState).toBe(WebSocket.OPEN);
    hub.publish({ type: 'chat.message', groupId: 4, message: { message_id: MAX_PENDING + 1, author: 'ann', content: 'one too many', timestamp: new Date(0).toISOString(), edited_at: null, deleted: false } });
    expect(await within(reader.closed, 1000)).toBe(1006);
  });
});
