import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChat } from './chat.js';
import { eventually } from './processes.js';
import { type Topology, startTopology } from './topology.js';

let t: Topology;
beforeAll(async () => {
  t = await startTopology();
});
afterAll(() => t?.stop());

describe('two instances share one database and one Redis', () => {
  it('shows a note created through instance A when read through instance B', async () => {
    const alice = await t.createUser('alice');
    const bob = await t.createUser('bob');
    const group = await t.createGroup(alice, [bob]);
    const aliceOnA = await t.loggedIn(alice, t.pinA.port);
    await aliceOnA.get('/notes/new/');
    const created = await aliceOnA.post('/notes/new/', { title: 'Shared across instances', content: 'Written on **A**', group: String(group.id), priority: '1' });
    expect(created.status).toBe(302);
    const path = created.headers.location!;
    expect(path).toMatch(/^\/notes\/\d+\/$/);
    await t.appA.waitForRequest((line) => line.method === 'POST' && line.path === '/notes/new/');

    const bobOnB = await t.loggedIn(bob, t.pinB.port);
    const read = await bobOnB.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toContain('Shared across instances');
    expect(read.body).toContain('<strong>A</strong>');
    await t.appB.waitForRequest((line) => line.method === 'GET' && line.path === path);
    expect(t.appA.requests().some((line) => line.path === path)).toBe(false);
  });

  it('delivers a chat message sent over a socket on instance A to a member whose socket is on instance B', async () => {
    const carol = await t.createUser('carol');
    const dave = await t.createUser('dave');
    const group = await t.createGroup(carol, [dave]);
    const carolBrowser = await t.loggedIn(carol, t.pinA.port);
    const daveBrowser = await t.loggedIn(dave, t.pinB.port);
    const onA = await openChat(t.pinA.port, group.id, carolBrowser.cookieHeader());
    const onB = await openChat(t.pinB.port, group.id, daveBrowser.cookieHeader());
    try {
      onA.send({ content: 'hello from instance A' });
      const [received] = await onB.waitFor((frame) => frame.type === 'message', 1, 5_000);
      expect(received).toMatchObject({ type: 'message', author: carol.username, content: 'hello from instance A' });
      // The sender hears its own message too, and the reply goes the other way.
      await onA.waitFor((frame) => frame.type === 'message' && frame.content === 'hello from instance A');
      onB.send({ content: 'and back from B' });
      await onA.waitFor((frame) => frame.type === 'message' && frame.content === 'and back from B', 1, 5_000);
    } finally {
      onA.close();
      onB.close();
    }
    // Each socket went through nginx's /ws/ location (101 Switching Protocols) to its instance.
    const handshake = `"GET /ws/groups/${group.id}/chat/ HTTP/1.1" 101`;
    await eventually('nginx pinA to log the handshake', () => t.pinA.accessLog().includes(handshake));
    await eventually('nginx pinB to log the handshake', () => t.pinB.accessLog().includes(handshake));
  });

  it('reports Redis in /healthz', async () => {
    const reply = await t.client().get('/healthz');
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });
});
