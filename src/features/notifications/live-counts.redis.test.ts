import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, connectChat, createGroup, createUser, type Instance, TestBrowser, twoInstances } from '../../../test/index.js';

// Two instances of the app on one database, talking through Redis: the Chat count and the bell of
// a page open on one instance follow what happens on the other.
let one: Instance;
let two: Instance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoInstances());
});

afterAll(() => close());

async function session(instance: Instance, username: string) {
  const browser = new TestBrowser(instance.app);
  await browser.login(username);
  return { browser, sessionKey: browser.cookies.get('sessionid')! };
}

describe('two instances behind one Redis', () => {
  it('a mention posted on instance 1 raises the Chat count and the bell on instance 2; reading the chat on instance 1 drops both', async () => {
    const alice = await createUser(one.database.db);
    const bob = await createUser(one.database.db);
    const group = await createGroup(one.database.db, alice, [bob]);
    const a = await session(one, alice.username);
    const b = await session(two, bob.username);
    const page = await connectChat(two.address, '/ws/notifications/', { sessionKey: b.sessionKey });
    await page.waitFor((frame) => frame.type === 'counts');
    const last = (type: string) => page.frames.filter((frame) => frame.type === type).at(-1);

    const sent = await new ApiClient(one.app, { browser: a.browser }).post(`/api/v1/groups/${group.id}/messages/`, { content: `@${bob.username} hi` });
    expect(sent.statusCode).toBe(201);
    await page.waitFor(() => (last('counts')?.counts as Record<string, number>)['/chat/'] === 1 && last('unread')?.count === 1);

    const b1 = await session(one, bob.username);
    expect((await b1.browser.get(`/groups/${group.id}/chat/`)).statusCode).toBe(200);
    await page.waitFor(() => (last('counts')?.counts as Record<string, number>)['/chat/'] === 0 && last('unread')?.count === 0);
    page.close();
  });
});
