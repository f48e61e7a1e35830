import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../../db/schema.js';
import { buildTestApp, createGroup, createNote, createShoppingList, createTodoList, loggedIn, type TestApp, type TestBrowser } from '../../../../test/index.js';
import { MAX_CARD_REFS } from './cards.js';

// GET /groups/<pk>/chat/cards/: the cards a member sees for links in the chat, each through its
// feature's own visibility query; what the caller may not read is absent, like what is missing.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let sharedWith: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let stranger: { user: User; browser: TestBrowser };
let group: Group;
let refs: { groupNote: string; privateNote: string; todo: string; shopping: string };
let ids: { groupNote: number; privateNote: number; todo: number; shopping: number };

beforeAll(async () => {
  t = await buildTestApp();
  [owner, sharedWith, member, stranger] = [await loggedIn(t), await loggedIn(t), await loggedIn(t), await loggedIn(t)];
  group = await createGroup(t.db, owner.user, [sharedWith.user, member.user]);
  const groupNote = await createNote(t.db, owner.user, { title: 'Holiday plans', group_id: group.id });
  const privateNote = await createNote(t.db, owner.user, { title: 'Owner only' });
  // A to-do list has no group: shared with one member only.
  const todo = await createTodoList(t.db, owner.user, { title: 'Packing', sharedWith: [sharedWith.user] });
  const shopping = await createShoppingList(t.db, owner.user, { title: 'Groceries', group });
  ids = { groupNote: groupNote.id, privateNote: privateNote.id, todo: todo.id, shopping: shopping.id };
  refs = { groupNote: `note:${groupNote.id}`, privateNote: `note:${privateNote.id}`, todo: `todo:${todo.id}`, shopping: `shopping:${shopping.id}` };
});
afterAll(() => t.close());

const cardsUrl = (groupId: number, asked: string[]) => `/groups/${groupId}/chat/cards/?${asked.map((ref) => `ref=${encodeURIComponent(ref)}`).join('&')}`;

async function cardsOf(browser: TestBrowser, asked: string[]) {
  const response = await browser.get(cardsUrl(group.id, asked), { headers: { accept: 'application/json' } });
  expect(response.statusCode).toBe(200);
  return (response.json() as { cards: { kind: string; id: number; title: string; label: string; url: string }[] }).cards.sort((a, b) => a.url.localeCompare(b.url));
}

describe('link cards per viewer', () => {
  it('the owner gets a card for each object, with kind, title and page', async () => {
    const cards = await cardsOf(owner.browser, Object.values(refs));
    expect(cards).toEqual(
      [
        { kind: 'note', label: 'Note', id: ids.groupNote, title: 'Holiday plans', url: `/notes/${ids.groupNote}/` },
        { kind: 'note', label: 'Note', id: ids.privateNote, title: 'Owner only', url: `/notes/${ids.privateNote}/` },
        { kind: 'shopping', label: 'Shopping list', id: ids.shopping, title: 'Groceries', url: `/shopping/${ids.shopping}/` },
        { kind: 'todo', label: 'To-do list', id: ids.todo, title: 'Packing', url: `/todo/${ids.todo}/` },
      ].sort((a, b) => a.url.localeCompare(b.url)),
    );
  });

  it('a member the to-do list is shared with gets the group note, the group list and the to-do list, not the private note', async () => {
    const cards = await cardsOf(sharedWith.browser, Object.values(refs));
    expect(cards.map((card) => `${card.kind}:${card.id}`).sort()).toEqual([refs.groupNote, refs.shopping, refs.todo].sort());
  });

  it('a member who may not see the to-do list nor the private note gets no card for them', async () => {
    const cards = await cardsOf(member.browser, Object.values(refs));
    expect(cards.map((card) => `${card.kind}:${card.id}`).sort()).toEqual([refs.groupNote, refs.shopping].sort());
  });

  it('a hidden object is answered exactly like a missing one', async () => {
    const hidden = await member.browser.get(cardsUrl(group.id, [refs.privateNote]), { headers: { accept: 'application/json' } });
    const missing = await member.browser.get(cardsUrl(group.id, ['note:2147483647']), { headers: { accept: 'application/json' } });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).toBe('{"cards":[]}');
    expect(missing.body).toBe(hidden.body);
  });

  it('a non-member gets the 404 of an absent group, even for objects they could read', async () => {
    const own = await createNote(t.db, stranger.user, { title: 'Stranger note' });
    for (const path of [cardsUrl(group.id, [`note:${own.id}`]), cardsUrl(2_147_483_647, [`note:${own.id}`])]) {
      const response = await stranger.browser.get(path, { headers: { accept: 'application/json' } });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('Stranger note');
    }
  });

  it('an anonymous caller is sent to log in', async () => {
    const response = await t.app.inject({ method: 'GET', url: cardsUrl(group.id, [refs.groupNote]) });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^\/accounts\/login\//);
  });

  it('bad refs are a 400: none, malformed, unknown kind, id out of range, too many', async () => {
    const tooMany = Array.from({ length: MAX_CARD_REFS + 1 }, (_, index) => `note:${index + 1}`);
    for (const asked of [[], ['note'], ['note:abc'], ['widget:1'], ['note:0'], ['note:99999999999'], ['NOTE:1'], tooMany]) {
      const response = await member.browser.get(cardsUrl(group.id, asked), { headers: { accept: 'application/json' } });
      expect(response.statusCode, asked.join('&')).toBe(400);
    }
    expect((await member.browser.get(cardsUrl(group.id, tooMany.slice(1)), { headers: { accept: 'application/json' } })).statusCode).toBe(200);
  });

  it('the chat page tells its script which paths are cards and where to ask', async () => {
    const page = await member.browser.get(`/groups/${group.id}/chat/`);
    expect(page.body).toContain(`data-cards-url="/groups/${group.id}/chat/cards/"`);
    expect(page.body).toContain('data-link-paths="{&quot;note&quot;:&quot;/notes/&quot;,&quot;todo&quot;:&quot;/todo/&quot;,&quot;shopping&quot;:&quot;/shopping/&quot;}"');
  });
});
