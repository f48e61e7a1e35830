import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addShoppingItem, addTodoItem, ApiClient, buildTestApp, type ChatClient, connectChat, createGroup, createShoppingList, createTodoList, createToken, listen, loggedIn, refusedStatus, type TestApp } from '../../../test/index.js';

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

async function viewer() {
  const { user, browser } = await loggedIn(t);
  return { user, browser, sessionKey: browser.cookies.get('sessionid')! };
}

/** A shopping list of the owner's, shared with a reader, each with a socket on it. */
async function sharedShoppingList() {
  const owner = await viewer();
  const reader = await viewer();
  const list = await createShoppingList(t.db, owner.user, { sharedWith: [reader.user] });
  const item = await addShoppingItem(t.db, list, { name: 'Oat milk', estimated_price_cents: 150 });
  const path = `/ws/shopping/${list.id}/`;
  const ownerSocket = await connectChat(address, path, { sessionKey: owner.sessionKey });
  const readerSocket = await connectChat(address, path, { sessionKey: reader.sessionKey });
  return { owner, reader, list, item, path, ownerSocket, readerSocket };
}

const within = <T>(promise: Promise<T>, ms = 1000) => Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
const items = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'item');

describe('the handshake of a list socket is refused with 403, never accepted', () => {
  it('for an anonymous caller, a stranger, and an unknown or malformed list', async () => {
    const { list, ownerSocket, readerSocket } = await sharedShoppingList();
    const stranger = await viewer();
    expect(await refusedStatus(address, `/ws/shopping/${list.id}/`)).toBe(403);
    expect(await refusedStatus(address, `/ws/shopping/${list.id}/`, { sessionKey: stranger.sessionKey })).toBe(403);
    expect(await refusedStatus(address, '/ws/shopping/999999/', { sessionKey: stranger.sessionKey })).toBe(403);
    expect(await refusedStatus(address, '/ws/shopping/abc/', { sessionKey: stranger.sessionKey })).toBe(403);
    ownerSocket.close();
    readerSocket.close();
  });

  it('for a foreign or missing Origin', async () => {
    const { owner, list, ownerSocket, readerSocket } = await sharedShoppingList();
    expect(await refusedStatus(address, `/ws/shopping/${list.id}/`, { sessionKey: owner.sessionKey, origin: 'https://evil.example' })).toBe(403);
    expect(await refusedStatus(address, `/ws/shopping/${list.id}/`, { sessionKey: owner.sessionKey, origin: null })).toBe(403);
    ownerSocket.close();
    readerSocket.close();
  });

  it("for a to-do list's stranger, while its reader is accepted", async () => {
    const owner = await viewer();
    const reader = await viewer();
    const stranger = await viewer();
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    expect(await refusedStatus(address, `/ws/todo/${list.id}/`, { sessionKey: stranger.sessionKey })).toBe(403);
    (await connectChat(address, `/ws/todo/${list.id}/`, { sessionKey: reader.sessionKey })).close();
  });
});

describe('a tick on a shopping list', () => {
  it("reaches every viewer's socket, rendered for their role, with the new total", async () => {
    const { owner, item, ownerSocket, readerSocket } = await sharedShoppingList();
    expect((await owner.browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    const [toOwner] = await ownerSocket.waitFor((frame) => frame.type === 'item');
    const [toReader] = await readerSocket.waitFor((frame) => frame.type === 'item');
    expect(toOwner).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
    expect(toOwner!.html).toContain(`action="/shopping/items/${item.id}/toggle/"`);
    expect(toOwner!.html).toContain('class="bought"');
    expect(toReader).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
    expect(toReader!.html).not.toContain('/toggle/');
    expect(toReader!.html).toContain('Bought');
    expect(String((toReader!.summary as { html: string }).html)).toContain('0.00');
    ownerSocket.close();
    readerSocket.close();
  });

  it('is the same row the reloaded page shows', async () => {
    const { owner, reader, list, item, ownerSocket, readerSocket } = await sharedShoppingList();
    await owner.browser.post(`/shopping/items/${item.id}/toggle/`);
    const [toReader] = await readerSocket.waitFor((frame) => frame.type === 'item');
    const page = await reader.browser.get(`/shopping/${list.id}/`);
    expect(page.body).toContain(String(toReader!.html));
    ownerSocket.close();
    readerSocket.close();
  });

  it('sends added and deleted items, and a change through the API, to the reader', async () => {
    const { owner, list, item, readerSocket, ownerSocket } = await sharedShoppingList();
    expect((await owner.browser.post(`/shopping/${list.id}/items/add/`, { name: 'Bread', quantity: '2', unit: '', estimated_price: '1.20' })).statusCode).toBe(302);
    const [added] = await readerSocket.waitFor((frame) => frame.type === 'item');
    expect(added!.html).toContain('Bread');
    expect(added!.summary).toMatchObject({ items: 2, open: 2 });
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    const patched = await api.patch(`/api/v1/shopping/items/${item.id}/`, { is_bought: true });
    expect(patched.statusCode).toBe(200);
    await readerSocket.waitFor((frame) => frame.type === 'item', 2);
    expect((await owner.browser.post(`/shopping/items/${item.id}/delete/`)).statusCode).toBe(302);
    const [removed] = await readerSocket.waitFor((frame) => frame.type === 'removed');
    expect(removed).toMatchObject({ id: item.id, summary: { items: 1, open: 1 } });
    ownerSocket.close();
    readerSocket.close();
  });
});

describe('a tick by a tick user', () => {
  async function withTickUser() {
    const shared = await sharedShoppingList();
    const ticker = await viewer();
    await t.db.insertInto('shopping_list_shares').values({ list_id: shared.list.id, user_id: ticker.user.id, permission: 'tick' }).execute();
    const tickerSocket = await connectChat(address, shared.path, { sessionKey: ticker.sessionKey });
    return { ...shared, ticker, tickerSocket };
  }

  it('reaches the owner, the tick user and the reader, each with the row their reloaded page shows', async () => {
    const { owner, reader, ticker, list, item, ownerSocket, readerSocket, tickerSocket } = await withTickUser();
    expect((await ticker.browser.post(`/shopping/items/${item.id}/toggle/`)).statusCode).toBe(302);
    for (const [who, socket] of [[owner, ownerSocket], [ticker, tickerSocket], [reader, readerSocket]] as const) {
      const [frame] = await socket.waitFor((candidate) => candidate.type === 'item');
      expect(frame).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
      // The live row's forms carry no token (the page's script fills in its own): compared without tokens.
      const page = (await who.browser.get(`/shopping/${list.id}/`)).body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, 'name="csrfmiddlewaretoken" value');
      expect(page).toContain(String(frame!.html));
      socket.close();
    }
    const [toReader] = readerSocket.frames;
    expect(toReader!.html).not.toContain('/toggle/');
    const [toTicker] = tickerSocket.frames.filter((frame) => frame.type === 'item');
    expect(toTicker!.html).toContain('/toggle/');
    expect(toTicker!.html).not.toContain('/delete/');
  });

  it('is told to reload when its role changes, and the reader who became a tick user too', async () => {
    const { owner, reader, list, ownerSocket, readerSocket, tickerSocket } = await withTickUser();
    await t.db.updateTable('shopping_list_shares').set({ permission: 'tick' }).where('list_id', '=', list.id).where('user_id', '=', reader.user.id).execute();
    const someone = await viewer();
    await owner.browser.post(`/shopping/${list.id}/share/`, { username: someone.user.username, action: 'add' });
    await readerSocket.waitFor((frame) => frame.type === 'reload');
    expect(tickerSocket.frames.filter((frame) => frame.type === 'reload')).toEqual([]);
    for (const socket of [ownerSocket, readerSocket, tickerSocket]) socket.close();
  });
});

describe('losing access closes the socket at once (4403)', () => {
  it('when the share is removed: nothing reaches it after', async () => {
    const { owner, reader, list, item, ownerSocket, readerSocket } = await sharedShoppingList();
    const response = await owner.browser.post(`/shopping/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
    expect(response.statusCode).toBe(302);
    expect((await within(readerSocket.closed))?.code).toBe(4403);
    await owner.browser.post(`/shopping/items/${item.id}/toggle/`);
    await ownerSocket.waitFor((frame) => frame.type === 'item');
    expect(items(readerSocket)).toEqual([]);
    ownerSocket.close();
  });

  it("when a member leaves the shopping list's group, or the list leaves the group", async () => {
    const owner = await viewer();
    const member = await viewer();
    const other = await viewer();
    const group = await createGroup(t.db, owner.user, [member.user, other.user]);
    const list = await createShoppingList(t.db, owner.user, { group });
    const memberSocket = await connectChat(address, `/ws/shopping/${list.id}/`, { sessionKey: member.sessionKey });
    const otherSocket = await connectChat(address, `/ws/shopping/${list.id}/`, { sessionKey: other.sessionKey });
    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: member.user.id });
    expect((await within(memberSocket.closed))?.code).toBe(4403);
    expect(otherSocket.ws.readyState).toBe(otherSocket.ws.OPEN);
    await owner.browser.post(`/shopping/${list.id}/edit/`, { title: list.title, store_name: '', group: '' });
    expect((await within(otherSocket.closed))?.code).toBe(4403);
  });

  it("for the group's members, when the list's owner leaves the group and takes the list out of it", async () => {
    const owner = await viewer();
    const leaver = await viewer();
    const member = await viewer();
    const group = await createGroup(t.db, owner.user, [leaver.user, member.user]);
    const list = await createShoppingList(t.db, leaver.user, { group });
    const memberSocket = await connectChat(address, `/ws/shopping/${list.id}/`, { sessionKey: member.sessionKey });
    const leaverSocket = await connectChat(address, `/ws/shopping/${list.id}/`, { sessionKey: leaver.sessionKey });
    expect((await leaver.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
    expect((await within(memberSocket.closed))?.code).toBe(4403);
    expect(leaverSocket.ws.readyState).toBe(leaverSocket.ws.OPEN);
    leaverSocket.close();
  });

  it('when the list is deleted, and when the session ends', async () => {
    const { owner, reader, list, ownerSocket, readerSocket } = await sharedShoppingList();
    expect((await reader.browser.post('/accounts/logout/')).statusCode).toBe(302);
    expect((await within(readerSocket.closed))?.code).toBe(4403);
    expect((await owner.browser.post(`/shopping/${list.id}/delete/`)).statusCode).toBe(302);
    expect((await within(ownerSocket.closed))?.code).toBe(4403);
  });
});

describe('a list deleted while its page is open', () => {
  const deletedFrames = (client: ChatClient) => client.frames.filter((frame) => frame.type === 'deleted');
  /** The CSRF token differs between sessions; the rest of a page is compared. */
  const withoutTokens = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, 'name="csrfmiddlewaretoken"');

  it("tells a reader's and a tick user's sockets, and the owner's other tab, that it was deleted, then closes them (4403)", async () => {
    const { owner, list, ownerSocket, readerSocket, path } = await sharedShoppingList();
    const ticker = await viewer();
    await t.db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: ticker.user.id, permission: 'tick' }).execute();
    const tickerSocket = await connectChat(address, path, { sessionKey: ticker.sessionKey });
    expect((await owner.browser.post(`/shopping/${list.id}/delete/`)).statusCode).toBe(302);
    for (const socket of [readerSocket, tickerSocket, ownerSocket]) {
      // The frame arrives before the close, so the page can tell a deletion from a lost share.
      expect((await within(socket.closed))?.code).toBe(4403);
      expect(socket.frames.at(-1)).toEqual({ type: 'deleted' });
    }
  });

  it('tells them when a to-do list is deleted through the API too', async () => {
    const owner = await viewer();
    const reader = await viewer();
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const readerSocket = await connectChat(address, `/ws/todo/${list.id}/`, { sessionKey: reader.sessionKey });
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    expect((await api.delete(`/api/v1/todo/${list.id}/`)).statusCode).toBe(204);
    expect((await within(readerSocket.closed))?.code).toBe(4403);
    expect(deletedFrames(readerSocket)).toEqual([{ type: 'deleted' }]);
  });

  it('says nothing of a deletion to a reader whose share is removed: the close alone (4403)', async () => {
    const { owner, reader, list, ownerSocket, readerSocket } = await sharedShoppingList();
    await owner.browser.post(`/shopping/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
    expect((await within(readerSocket.closed))?.code).toBe(4403);
    expect(deletedFrames(readerSocket)).toEqual([]);
    ownerSocket.close();
  });

  it("answers a tick from the open page with the 404 page and a sentence for a tick; the list's page is the 404 of a missing list", async () => {
    const { owner, reader, list, item, ownerSocket, readerSocket } = await sharedShoppingList();
    // The reader may tick: the page had a tick button.
    await t.db.updateTable('shopping_list_shares').set({ permission: 'tick' }).where('list_id', '=', list.id).where('user_id', '=', reader.user.id).execute();
    expect((await owner.browser.post(`/shopping/${list.id}/delete/`)).statusCode).toBe(302);
    const tick = await reader.browser.post(`/shopping/items/${item.id}/toggle/`);
    expect(tick.statusCode).toBe(404);
    expect(tick.body).toContain('This item is not on a list you can tick: it or its list may have been deleted, or the list is no longer shared with you.');
    // Hidden is missing: the deleted list's page, a list that never was, and another's list are one 404.
    const stranger = await viewer();
    const hidden = await createShoppingList(t.db, owner.user);
    const [gone, never, notTheirs] = [
      await reader.browser.get(`/shopping/${list.id}/`),
      await reader.browser.get('/shopping/999999/'),
      await stranger.browser.get(`/shopping/${hidden.id}/`),
    ];
    expect([gone.statusCode, never.statusCode, notTheirs.statusCode]).toEqual([404, 404, 404]);
    expect(withoutTokens(gone.body)).toBe(withoutTokens(never.body));
    expect(gone.body).toContain('The page you asked for does not exist, or you cannot see it.');
    expect(withoutTokens(notTheirs.body).replace(stranger.user.username, '')).toBe(withoutTokens(never.body).replace(reader.user.username, ''));
    // A tick on an item of a list never shared is worded the same: nothing tells it from a deleted one.
    const hiddenItem = await addShoppingItem(t.db, hidden, { name: 'Secret' });
    const refused = await stranger.browser.post(`/shopping/items/${hiddenItem.id}/toggle/`);
    expect(withoutTokens(refused.body).replace(stranger.user.username, '')).toBe(withoutTokens(tick.body).replace(reader.user.username, ''));
    for (const socket of [ownerSocket, readerSocket]) socket.close();
  });
});

describe('a to-do list', () => {
  it("sends a tick to its reader as a list item without buttons, and a share's removal closes the reader", async () => {
    const owner = await viewer();
    const reader = await viewer();
    const list = await createTodoList(t.db, owner.user, { sharedWith: [reader.user] });
    const item = await addTodoItem(t.db, list, { text: 'Fix the bike' });
    const readerSocket = await connectChat(address, `/ws/todo/${list.id}/`, { sessionKey: reader.sessionKey });
    await owner.browser.post(`/todo/items/${item.id}/toggle/`);
    const [frame] = await readerSocket.waitFor((candidate) => candidate.type === 'item');
    expect(frame).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
    expect(String(frame!.html)).toMatch(/^<li class="todo-item done"/);
    expect(frame!.html).not.toContain('<form');
    await owner.browser.post(`/todo/${list.id}/share/`, { username: reader.user.username, action: 'remove' });
    expect((await within(readerSocket.closed))?.code).toBe(4403);
  });

  it("follows its group: a member who joins later connects and gets ticks, a removed member's socket closes (4403), then the others' when the list leaves the group", async () => {
    const owner = await viewer();
    const member = await viewer();
    const later = await viewer();
    const group = await createGroup(t.db, owner.user, [member.user]);
    const list = await createTodoList(t.db, owner.user, { group, group_permission: 'tick' });
    const item = await addTodoItem(t.db, list, { text: 'Recycling' });
    const path = `/ws/todo/${list.id}/`;
    expect(await refusedStatus(address, path, { sessionKey: later.sessionKey })).toBe(403);
    const memberSocket = await connectChat(address, path, { sessionKey: member.sessionKey });
    expect((await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: later.user.username })).statusCode).toBe(302);
    const laterSocket = await connectChat(address, path, { sessionKey: later.sessionKey });
    // A tick by the member reaches the newcomer, rendered for a tick viewer.
    expect((await member.browser.post(`/todo/items/${item.id}/toggle/`)).statusCode).toBe(302);
    const [frame] = await laterSocket.waitFor((candidate) => candidate.type === 'item');
    expect(frame).toMatchObject({ id: item.id, summary: { items: 1, open: 0 } });
    expect(frame!.html).toContain('/toggle/');

    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: member.user.id });
    expect((await within(memberSocket.closed))?.code).toBe(4403);
    expect(laterSocket.ws.readyState).toBe(laterSocket.ws.OPEN);
    await owner.browser.post(`/todo/${list.id}/edit/`, { title: list.title, description: '' });
    expect((await within(laterSocket.closed))?.code).toBe(4403);
  });
});
