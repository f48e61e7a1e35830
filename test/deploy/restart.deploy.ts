import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../helpers.js';
import { openChat } from './chat.js';
import type { ProxyClient } from './http-client.js';
import { type Topology, startTopology } from './topology.js';

let t: Topology;
beforeAll(async () => {
  t = await startTopology();
});
afterAll(() => t?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Stream {
  total: number;
  failures: string[];
  stop(): Promise<void>;
}

/** Clients sending one request after another, each answer checked, until stopped. */
function stream(clients: ProxyClient[], send: (client: ProxyClient) => Promise<string | null>): Stream {
  let running = true;
  const state: Stream = {
    total: 0,
    failures: [],
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
  const loops = clients.map(async (client) => {
    while (running) {
      try {
        const problem = await send(client);
        if (problem) state.failures.push(problem);
      } catch (error) {
        state.failures.push(String(error));
      }
      state.total += 1;
    }
  });
  return state;
}

describe('a rolling restart behind nginx', () => {
  it('restarting one of two instances (SIGTERM, then start again) fails none of a steady stream of requests', async () => {
    const reader = await t.createUser('reader');
    const readers = await Promise.all([1, 2, 3, 4].map(() => t.loggedIn(reader)));
    const signer = await t.createUser('signer');
    const signers = await Promise.all([1, 2].map(async () => {
      const browser = t.client();
      await browser.get('/accounts/login/');
      return browser;
    }));
    // Pages that need the session and the database, and form POSTs that write (a login each).
    const pages = stream(readers, async (client) => {
      const reply = await client.get('/accounts/sessions/');
      return reply.status === 200 && reply.body.includes(reader.username) ? null : `GET answered ${reply.status}`;
    });
    const posts = stream(signers, async (client) => {
      const reply = await client.post('/accounts/login/', { username: signer.username, password: DEFAULT_PASSWORD });
      return reply.status === 302 && reply.headers.location === '/notes/' ? null : `POST answered ${reply.status}`;
    });
    const count = () => pages.total + posts.total;

    // A steady stream first: at least 50 answers before the restart.
    while (count() < 50) await sleep(20);
    const beforeStop = count();
    // A chat member connected to instance A when it stops.
    const chatter = await t.createUser('chatter');
    const group = await t.createGroup(chatter, []);
    const chatBrowser = await t.loggedIn(chatter, t.pinA.port);
    const onA = await openChat(t.pinA.port, group.id, chatBrowser.cookieHeader());

    const stopStarted = Date.now();
    const exitCode = await t.appA.stop();
    const stopMs = Date.now() - stopStarted;
    const whileDown = count();
    const servedBeforeRestart = t.appA.requests().length;
    await t.appA.start();
    const afterStart = count();
    // The socket was told "going away" (1001), and connecting again reaches the new instance A.
    expect((await onA.closed).code).toBe(1001);
    const again = await openChat(t.pinA.port, group.id, chatBrowser.cookieHeader());
    again.close();
    await sleep(1500);
    await Promise.all([pages.stop(), posts.stop()]);

    // nginx's account of a failure says where it happened (refused, reset, closed early).
    const nginxErrors = t.front.errorLog().split('\n').filter((line) => /\[(error|warn)\]/.test(line));
    expect([...pages.failures, ...posts.failures], nginxErrors.join('\n')).toEqual([]);
    expect(exitCode).toBe(0);
    // Drained (at most 5 s for nginx's idle connections) and exited well within systemd's
    // TimeoutStopSec (30 s).
    expect(stopMs).toBeLessThan(10_000);
    expect(beforeStop).toBeGreaterThanOrEqual(50);
    // Requests went on while instance A was down, and A took its share again once back.
    expect(afterStart - whileDown).toBeGreaterThan(5);
    expect(t.appA.requests().length).toBeGreaterThan(servedBeforeRestart);
    expect(t.appA.output).toContain('"signal":"SIGTERM","msg":"shutting down"');
    // nginx met the stopped instance (a refused connection, or A still marked down after one)
    // and passed those requests on to B.
    expect(t.front.errorLog()).toMatch(/connect\(\) failed \(111: Connection refused\) while connecting to upstream/);
    // ...and never had a connection cut under a request it was sending (nginx would retry a GET
    // silently, but not a POST).
    expect(t.front.errorLog()).not.toMatch(/reset by peer|prematurely closed/);
    // One line per process that served HTTP (each worker, in cluster mode).
    const drains = t.appA.output
      .split('\n')
      .filter((line) => line.includes('open connections drained'))
      .map((line) => JSON.parse(line) as { open: number; left: number; ms: number });
    expect(drains.length).toBeGreaterThan(0);
    const open = drains.reduce((sum, drain) => sum + drain.open, 0);
    const left = drains.reduce((sum, drain) => sum + drain.left, 0);
    const ms = Math.max(...drains.map((drain) => drain.ms));
    console.log(`drain of A (${drains.length} workers): ${open} open connections at SIGTERM, ${left} left after ${ms} ms`);
    console.log(`rolling restart: ${count()} requests (${posts.total} POST), ${afterStart - whileDown} while instance A was down, 0 failed; A stopped in ${stopMs} ms`);
  });
});
