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

async function cardsOf(browser: TestBrowser, asked: string[], groupId = group.id) {
  const response = await browser.get(cardsUrl(groupId, asked), { headers: { accept: 'application/json' } });
  expect(response.statusCode).toBe(200);
  return (response.json() as { cards: { kind: string; id: number; title: string; label: string; url: string; others: string }[] }).cards.sort((a, b) => a.url.localeCompare(b.url));
}

/** `kind:id` of each card, with whether the group's other members see it too. */
const othersOf = (cards: { kind: string; id: number; others: string }[]) => Object.fromEntries(cards.map((card) => [`${card.kind}:${card.id}`, card.others]));

describe('link cards per viewer', () => {
  it('the owner gets a card for each object, with kind, title and page', async () => {
    const cards = await cardsOf(owner.browser, Object.values(refs));
    expect(cards).toEqual(
      [
        { kind: 'note', label: 'Note', id: ids.groupNote, title: 'Holiday plans', url: `/notes/${ids.groupNote}/`, others: 'all' },
        { kind: 'note', label: 'Note', id: ids.privateNote, title: 'Owner only', url: `/notes/${ids.privateNote}/`, others: 'none' },
        { kind: 'shopping', label: 'Shopping list', id: ids.shopping, title: 'Groceries', url: `/shopping/${ids.shopping}/`, others: 'all' },
        { kind: 'todo', label: 'To-do list', id: ids.todo, title: 'Packing', url: `/todo/${ids.todo}/`, others: 'some' },
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

describe('what a card says of the group’s other members (the hint under it)', () => {
  it('tells the author of a private note that nobody else sees its title, and the others get no card to hint under', async () => {
    expect(othersOf(await cardsOf(owner.browser, [refs.privateNote]))).toEqual({ [refs.privateNote]: 'none' });
    for (const other of [sharedWith, member]) expect(await cardsOf(other.browser, [refs.privateNote])).toEqual([]);
  });

  it('says every member sees a note or list shared with the group, to every member, archived or not', async () => {
    const archived = await createNote(t.db, member.user, { title: 'Old plans', group_id: group.id, is_archived: 1 });
    const asked = [refs.groupNote, refs.shopping, `note:${archived.id}`];
    for (const reader of [owner, sharedWith, member]) {
      expect(othersOf(await cardsOf(reader.browser, asked))).toEqual({ [refs.groupNote]: 'all', [refs.shopping]: 'all', [`note:${archived.id}`]: 'all' });
    }
  });

  it('says some members see it when the others see it only in part: a list shared with one of them, a note of another group', async () => {
    const pair = await createGroup(t.db, owner.user, [sharedWith.user]);
    const pairNote = await createNote(t.db, owner.user, { title: 'Pair only', group_id: pair.id });
    expect(othersOf(await cardsOf(owner.browser, [refs.todo, `note:${pairNote.id}`]))).toEqual({ [refs.todo]: 'some', [`note:${pairNote.id}`]: 'some' });
    // The member it is shared with sees the owner see it and the third member not.
    expect(othersOf(await cardsOf(sharedWith.browser, [refs.todo, `note:${pairNote.id}`]))).toEqual({ [refs.todo]: 'some', [`note:${pairNote.id}`]: 'some' });
    // In the pair's own chat every other member sees both.
    expect(othersOf(await cardsOf(owner.browser, [refs.todo, `note:${pairNote.id}`], pair.id))).toEqual({ [refs.todo]: 'all', [`note:${pairNote.id}`]: 'all' });
  });

  it('in a group of one, there is nobody to tell', async () => {
    const alone = await createGroup(t.db, owner.user);
    expect(othersOf(await cardsOf(owner.browser, [refs.privateNote], alone.id))).toEqual({ [refs.privateNote]: 'all' });
  });

  it('the chat page carries the hints’ words in the reader’s language', async () => {
    const english = await member.browser.get(`/groups/${group.id}/chat/`);
    expect(english.body).toContain('data-word-card-only-you="Only you can see this title: the others see a plain link."');
    expect(english.body).toContain('data-word-card-some="Some members cannot see this title: they see a plain link."');
    const ukrainian = await member.browser.get(`/groups/${group.id}/chat/`, { headers: { 'accept-language': 'uk' } });
    expect(ukrainian.body).toContain('data-word-card-only-you="Лише ви бачите цю назву: інші бачать звичайне посилання."');
    expect(ukrainian.body).toContain('data-word-card-some="Дехто з учасників не бачить цієї назви: для них це звичайне посилання."');
  });
});
