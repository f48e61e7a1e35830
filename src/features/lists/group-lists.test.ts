import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, SharePermission, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createToken, deleteGroup, LIST_KINDS, listTablesSnapshot, loggedIn, results, type TestApp, type TestBrowser } from '../../../test/index.js';

// A list that belongs to a group, the same for both kinds (migration 0030 gave to-do lists the
// group shopping lists had): the group's current members read it, and tick and add items when
// the list's group permission is `tick`; everything else stays its owner's. A member so refused,
// a stranger, and a member since removed from the group get the 404 of an absent list, on every
// page and every API call, and nothing changes. A member who joins later sees the list at once;
// deleting the group leaves the list with its owner, in no group. A shopping list's own cases
// (its store, its total): shopping/group-permissions.test.ts and group-api-permissions.test.ts.

type Role = 'owner' | 'member (tick)' | 'member (read)' | 'stranger' | 'removed member';
const ROLES: Role[] = ['owner', 'member (tick)', 'member (read)', 'stranger', 'removed member'];
type Caller = { user: User; browser: TestBrowser; api: ApiClient };

let t: TestApp;
let owner: Caller;
let member: Caller;
let stranger: Caller;
let removed: Caller;
let other: User;
let group: Group;

async function caller(): Promise<Caller> {
  const { user, browser } = await loggedIn(t);
  return { user, browser, api: new ApiClient(t.app, { token: await createToken(t.db, user) }) };
}

beforeAll(async () => {
  // The API's rate limit would count every call of these tests against a few accounts.
  t = await buildTestApp({ API_RATE_PER_SECOND: '0' });
  [owner, member, stranger, removed] = [await caller(), await caller(), await caller(), await caller()];
  other = (await caller()).user;
  group = await createGroup(t.db, owner.user, [member.user, removed.user], 'Flat 3');
  // Removed as the group page removes a member: what follows is what a former member gets.
  const response = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: String(removed.user.id) });
  expect(response.statusCode).toBe(302);
});
afterAll(() => t.close());

const callerOf = (role: Role): Caller => ({ owner, 'member (tick)': member, 'member (read)': member, stranger, 'removed member': removed })[role];
/** The list's group permission for a role: the widest (tick) but for the read member, so that a refusal is the role's own. */
const permissionFor = (role: Role): SharePermission => (role === 'member (read)' ? 'read' : 'tick');

describe.each(LIST_KINDS)('$noun in a group', (kind) => {
  const rows = () => kind.rows(t.db);

  /** A fresh list of the owner's in the group with this permission, with one open item. */
  async function scenario(groupPermission: SharePermission) {
    const list = await kind.createList(t.db, owner.user, { title: 'Household', group, group_permission: groupPermission });
    const item = await kind.addItem(t.db, list, { label: 'Fix the tap' });
    return { listId: list.id, itemId: item.id };
  }

  type Ids = { listId: number; itemId: number };
  /** A verb of the pages or of the API, the status it answers when allowed, and who may. */
  type Verb = { name: string; allowed: Role[]; status: number; run(who: Caller, ids: Ids): Promise<{ statusCode: number }> };
  const everyone: Role[] = ['owner', 'member (tick)', 'member (read)'];
  const tickers: Role[] = ['owner', 'member (tick)'];
  const ownerOnly: Role[] = ['owner'];

  const pages: Verb[] = [
    { name: 'GET the list', allowed: everyone, status: 200, run: (who, { listId }) => who.browser.get(`${kind.base}/${listId}/`) },
    { name: 'GET the edit form', allowed: ownerOnly, status: 200, run: (who, { listId }) => who.browser.get(`${kind.base}/${listId}/edit/`) },
    { name: 'POST the edit form', allowed: ownerOnly, status: 302, run: (who, { listId }) => who.browser.post(`${kind.base}/${listId}/edit/`, { ...kind.listForm('Taken over'), group: String(group.id) }) },
    { name: 'GET the delete confirmation', allowed: ownerOnly, status: 200, run: (who, { listId }) => who.browser.get(`${kind.base}/${listId}/delete/`) },
    { name: 'POST delete', allowed: ownerOnly, status: 302, run: (who, { listId }) => who.browser.post(`${kind.base}/${listId}/delete/`) },
    { name: 'POST a share', allowed: ownerOnly, status: 302, run: (who, { listId }) => who.browser.post(`${kind.base}/${listId}/share/`, { username: other.username, action: 'add', permission: 'tick' }) },
    { name: 'POST an item', allowed: tickers, status: 302, run: (who, { listId }) => who.browser.post(`${kind.base}/${listId}/items/add/`, kind.itemForm('Sneaky item')) },
    // The permission comes before the form: an invalid one is the same 404 to those refused.
    { name: 'POST an invalid item', allowed: tickers, status: 400, run: (who, { listId }) => who.browser.post(`${kind.base}/${listId}/items/add/`, kind.invalidItemForm) },
    { name: 'POST a tick', allowed: tickers, status: 302, run: (who, { itemId }) => who.browser.post(`${kind.base}/items/${itemId}/toggle/`) },
    { name: 'GET an item’s edit form', allowed: ownerOnly, status: 200, run: (who, { itemId }) => who.browser.get(`${kind.base}/items/${itemId}/edit/`) },
    { name: 'POST an item’s edit', allowed: ownerOnly, status: 302, run: (who, { itemId }) => who.browser.post(`${kind.base}/items/${itemId}/edit/`, kind.itemEdit.form) },
    { name: 'GET an item’s delete confirmation', allowed: ownerOnly, status: 200, run: (who, { itemId }) => who.browser.get(`${kind.base}/items/${itemId}/delete/`) },
    { name: 'POST an item’s delete', allowed: ownerOnly, status: 302, run: (who, { itemId }) => who.browser.post(`${kind.base}/items/${itemId}/delete/`) },
  ];

  const api: Verb[] = [
    { name: 'GET the list', allowed: everyone, status: 200, run: (who, { listId }) => who.api.get(`${kind.api}/${listId}/`) },
    { name: 'GET an item', allowed: everyone, status: 200, run: (who, { itemId }) => who.api.get(`${kind.api}/items/${itemId}/`) },
    { name: 'PATCH the list', allowed: ownerOnly, status: 200, run: (who, { listId }) => who.api.patch(`${kind.api}/${listId}/`, { title: 'Taken over' }) },
    { name: 'PATCH the list out of its group', allowed: ownerOnly, status: 200, run: (who, { listId }) => who.api.patch(`${kind.api}/${listId}/`, { group: null }) },
    { name: 'POST a share', allowed: ownerOnly, status: 200, run: (who, { listId }) => who.api.post(`${kind.api}/${listId}/share/`, { username: other.username, action: 'add' }) },
    { name: 'POST an item', allowed: tickers, status: 201, run: (who, { listId }) => who.api.post(`${kind.api}/${listId}/items/`, { [kind.label]: 'Sneaky item' }) },
    { name: 'PATCH an item done', allowed: tickers, status: 200, run: (who, { itemId }) => who.api.patch(`${kind.api}/items/${itemId}/`, { [kind.json.done]: true }) },
    { name: 'DELETE an item', allowed: ownerOnly, status: 204, run: (who, { itemId }) => who.api.delete(`${kind.api}/items/${itemId}/`) },
    { name: 'DELETE the list', allowed: ownerOnly, status: 204, run: (who, { listId }) => who.api.delete(`${kind.api}/${listId}/`) },
  ];

  for (const [where, verbs] of [['page', pages], ['API', api]] as const) {
    describe(`every ${where} verb`, () => {
      it.each(verbs)('$name: the allowed get their answer, the others the 404 of an absent list with nothing changed', async (verb) => {
        for (const role of ROLES) {
          const ids = await scenario(permissionFor(role));
          const before = await listTablesSnapshot(t.db);
          const response = await verb.run(callerOf(role), ids);
          if (verb.allowed.includes(role)) {
            expect(response.statusCode, role).toBe(verb.status);
          } else {
            expect(response.statusCode, role).toBe(404);
            expect(await listTablesSnapshot(t.db), role).toEqual(before);
          }
        }
      });
    });
  }

  it('is in the collection and on the index of its members, naming the group, and of no one else', async () => {
    for (const role of ROLES) {
      const { listId } = await scenario(permissionFor(role));
      const who = callerOf(role);
      const listed = results(await who.api.get(`${kind.api}/?limit=100`)).find((row) => row.id === (listId as never));
      const index = (await who.browser.get(`${kind.base}/`)).body;
      if (role === 'stranger' || role === 'removed member') {
        expect(listed, role).toBeUndefined();
        expect(index, role).not.toContain(`href="${kind.base}/${listId}/"`);
        continue;
      }
      expect(listed, role).toMatchObject({ group: group.id, group_permission: permissionFor(role), shares: role === 'owner' ? [] : null });
      expect(index, role).toContain(`href="${kind.base}/${listId}/"`);
      expect(index, role).toContain('<strong>Flat 3</strong>');
    }
  });

  it('shows a member of a tick group the add form and tick buttons, a member of a read group neither, and neither the owner’s controls', async () => {
    for (const permission of ['tick', 'read'] as const) {
      const { listId, itemId } = await scenario(permission);
      const page = (await member.browser.get(`${kind.base}/${listId}/`)).body;
      expect(page.includes(`action="${kind.base}/${listId}/items/add/"`), permission).toBe(permission === 'tick');
      expect(page.includes(`action="${kind.base}/items/${itemId}/toggle/"`), permission).toBe(permission === 'tick');
      for (const control of ['/edit/', '/delete/', '/share/']) expect(page, `${permission} ${control}`).not.toContain(control);
      expect(page).toContain(`${owner.user.username}</strong> with group <strong>Flat 3</strong>`);
    }
  });

  it('is read and ticked by a member who joins the group after it was made, and by no one once they are removed', async () => {
    const { listId, itemId } = await scenario('tick');
    const newcomer = await caller();
    expect((await newcomer.browser.get(`${kind.base}/${listId}/`)).statusCode).toBe(404);
    const added = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: newcomer.user.username });
    expect(added.statusCode).toBe(302);
    expect((await newcomer.browser.get(`${kind.base}/${listId}/`)).statusCode).toBe(200);
    expect((await newcomer.api.get(`${kind.api}/${listId}/`)).statusCode).toBe(200);
    expect((await newcomer.browser.get(`${kind.base}/`)).body).toContain(`href="${kind.base}/${listId}/"`);
    expect((await newcomer.browser.post(`${kind.base}/items/${itemId}/toggle/`)).statusCode).toBe(302);
    expect(await rows().done(itemId)).toMatchObject({ done: 1, by: newcomer.user.id });
    // Nobody was given a share for it: the group is how they read it.
    expect(await rows().shares(listId)).toEqual([]);

    await owner.browser.post(`/groups/${group.id}/members/`, { action: 'remove', user_pk: String(newcomer.user.id) });
    expect((await newcomer.browser.get(`${kind.base}/${listId}/`)).statusCode).toBe(404);
    expect((await newcomer.browser.post(`${kind.base}/items/${itemId}/toggle/`)).statusCode).toBe(404);
    expect(await rows().done(itemId)).toMatchObject({ done: 1, by: newcomer.user.id });
  });

  it('is on the group page of its members under its kind’s heading, and leaves it with the group', async () => {
    const { listId } = await scenario('read');
    const groupPage = (await member.browser.get(`/groups/${group.id}/`)).body;
    const shelf = groupPage.split(`id="shared-${kind.name}-heading"`)[1]!.split('</section>')[0]!;
    expect(shelf).toContain(kind.name === 'todo' ? 'To-do lists' : 'Shopping lists');
    expect(shelf).toContain(`<a href="${kind.base}/${listId}/">Household</a>`);

    // The owner takes it out of the group by sending its form without a group.
    const withoutGroup = Object.fromEntries(Object.entries(kind.listForm('Household')).filter(([field]) => field !== 'group'));
    expect((await owner.browser.post(`${kind.base}/${listId}/edit/`, withoutGroup)).statusCode).toBe(302);
    expect(await rows().list(listId)).toMatchObject({ group_id: null });
    expect((await member.browser.get(`${kind.base}/${listId}/`)).statusCode).toBe(404);
    expect((await member.browser.get(`/groups/${group.id}/`)).body).not.toContain(`href="${kind.base}/${listId}/"`);
  });

  it('stays its owner’s, in no group, when the group is deleted', async () => {
    const another = await createGroup(t.db, owner.user, [member.user]);
    const list = await kind.createList(t.db, owner.user, { group: another, group_permission: 'tick' });
    expect((await member.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(200);
    await deleteGroup(t.db, another);
    expect((await member.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(404);
    expect(await rows().list(list.id)).toMatchObject({ owner_id: owner.user.id, group_id: null });
    expect((await owner.browser.get(`${kind.base}/${list.id}/`)).statusCode).toBe(200);
  });

  it('is put in a group on its new-list page, and refuses a group the owner is not in (400, nothing stored)', async () => {
    const form = (await owner.browser.get(`${kind.base}/new/`)).body;
    expect(form).toContain('name="group"');
    expect(form).toContain(`<option value="${group.id}">Flat 3</option>`);
    expect(form).toContain('name="group_permission"');
    const created = await owner.browser.post(`${kind.base}/new/`, { ...kind.listForm('For the flat'), group: String(group.id), group_permission: 'tick' });
    expect(created.statusCode).toBe(302);
    expect(await rows().newestList()).toMatchObject({ title: 'For the flat', group_id: group.id, group_permission: 'tick' });

    const theirs = await createGroup(t.db, stranger.user);
    const before = await listTablesSnapshot(t.db);
    for (const chosen of [String(theirs.id), 'abc']) {
      const refused = await owner.browser.post(`${kind.base}/new/`, { ...kind.listForm('Sneaky'), group: chosen });
      expect(refused.statusCode, chosen).toBe(400);
      expect(refused.body, chosen).toContain('Choose one of your groups, or none.');
    }
    const api = await owner.api.post(`${kind.api}/`, { title: 'Sneaky', group: theirs.id });
    expect([api.statusCode, Object.keys(api.data.error?.fields ?? {})]).toEqual([400, ['group']]);
    expect(await listTablesSnapshot(t.db)).toEqual(before);
  });

  it('is created and changed through the API with its group and permission, and a body without them keeps what the list has', async () => {
    const created = await owner.api.post(`${kind.api}/`, { title: 'By API', group: group.id, group_permission: 'tick' });
    expect([created.statusCode, created.data.group, created.data.group_permission]).toEqual([201, group.id, 'tick']);
    const id = Number(created.data.id);
    const renamed = await owner.api.patch(`${kind.api}/${id}/`, { title: 'Renamed' });
    expect([renamed.data.title, renamed.data.group, renamed.data.group_permission]).toEqual(['Renamed', group.id, 'tick']);
    const readOnly = await owner.api.patch(`${kind.api}/${id}/`, { group_permission: 'read' });
    expect(readOnly.data.group_permission).toBe('read');
    const out = await owner.api.patch(`${kind.api}/${id}/`, { group: null });
    expect([out.data.group, out.data.group_permission]).toEqual([null, null]);
    const plain = await owner.api.post(`${kind.api}/`, { title: 'Plain' });
    expect([plain.data.group, plain.data.group_permission]).toEqual([null, null]);
  });
});
