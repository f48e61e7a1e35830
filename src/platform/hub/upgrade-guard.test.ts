import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryFrame, buildTestApp, createGroup, listen, loggedIn, rawUpgrade, serverConnections, type TestApp, upgradeRequest, waitUntil } from '../../../test/index.js';

// An upgrade request answered over HTTP (a redirect, an error) left its
// socket with no owner: the server never closed it, even after the client had (CLOSE-WAIT for
// good), and a shutdown then waited for it forever.

let t: TestApp;
let address: string;
let memberSession: string;
let groupId: number;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
  const { user, browser } = await loggedIn(t);
  memberSession = browser.cookies.get('sessionid')!;
  groupId = (await createGroup(t.db, user)).id;
});
afterAll(() => t.close());

/** Waits until the server holds no more connections than it did before (a test's leak stays its own). */
const backTo = (before: number) => waitUntil(async () => (await serverConnections(t.app)) <= before, `the server holds ${before} connection(s) again`);

function headers(overrides: Record<string, string | null> = {}): Record<string, string> {
  const all: Record<string, string | null> = { Host: address, Origin: `http://${address}`, Cookie: `sessionid=${memberSession}`, ...overrides };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
}

describe('an upgrade request answered over HTTP leaves no socket open', () => {
  it('the malformed chat upgrade of the report: no connection is left once the client closed', async () => {
    const before = await serverConnections(t.app);
    const client = await rawUpgrade(address, upgradeRequest('/ws/groups/%2F/chat', headers()));
    await waitUntil(() => /\r\n\r\n/.test(client.text()), 'the answer arrived');
    expect(client.text()).toMatch(/^HTTP\/1\.1 301 /);
    client.socket.write(binaryFrame(Buffer.from('one')));
    client.socket.write(binaryFrame(Buffer.from('two')));
    client.socket.end();
    await backTo(before);
  });

  const refusals: [string, string, Record<string, string | null>, number, string?][] = [
    ['a trailing-slash redirect', '/ws/groups/1/chat', {}, 301],
    ['a 404', '/ws/no-such-place/', {}, 404],
    ['a 403 from the CSRF layer (a POST)', '/ws/groups/1/chat/', {}, 403, 'POST'],
    ['a 403 to a non-member', '/ws/groups/999999/chat/', {}, 403],
    ['a 403 without a session', '/ws/groups/GROUP/chat/', { Cookie: null }, 403],
    ['a 403 to a foreign Origin', '/ws/groups/GROUP/chat/', { Origin: 'https://evil.example' }, 403],
    ['a 400 for a Host not allowed', '/ws/groups/GROUP/chat/', { Host: 'evil.example' }, 400],
  ];
  for (const [name, path, overrides, status, method] of refusals) {
    it(`${name}: the answer says Connection: close and the server closes the socket itself`, async () => {
      const before = await serverConnections(t.app);
      const client = await rawUpgrade(address, upgradeRequest(path.replace('GROUP', String(groupId)), headers(overrides), method));
      // The client keeps its side open and sends frames anyway: the server must not wait for it.
      client.socket.write(binaryFrame(Buffer.from('ignored')));
      await Promise.race([client.ended, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      expect(client.text()).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(client.text()).toMatch(/\r\nconnection: close\r\n/i);
      await backTo(before);
      client.socket.destroy();
    });
  }
});

describe('in production', () => {
  it('the HTTPS redirect of a plain-HTTP upgrade: Connection: close and the server closes the socket itself', async () => {
    const production = await buildTestApp({ NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', PUBLIC_URL: 'https://127.0.0.1', SMTP_URL: 'off' });
    try {
      const productionAddress = await listen(production.app);
      const client = await rawUpgrade(productionAddress, upgradeRequest('/ws/groups/1/chat/', { Host: productionAddress, Origin: `http://${productionAddress}` }));
      await Promise.race([client.ended, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      expect(client.text()).toMatch(/^HTTP\/1\.1 301 /);
      expect(client.text()).toMatch(/\r\nconnection: close\r\n/i);
      await waitUntil(async () => (await serverConnections(production.app)) === 0, 'the server holds no connection');
      client.socket.destroy();
    } finally {
      await production.close();
    }
  });
});
