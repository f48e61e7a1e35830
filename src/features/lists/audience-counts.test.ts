import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createToken, createUser, LIST_KINDS, loggedIn, panelRows, results, type TestApp, type TestBrowser } from '../../../test/index.js';

// Whom a list is shared with by name is its owner's to know: the owner's "who can see this" panel
// and API name them; anyone else who reads the list (a share by name, a member of its group) is
// shown its owner, its group as a count of members, the shares by name as a count, and themself.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Person = { user: User; browser: TestBrowser; api: ApiClient };

async function person(username: string): Promise<Person> {
  const { user, browser } = await loggedIn(t, { username });
  return { user, browser, api: new ApiClient(t.app, { token: await createToken(t.db, user) }) };
}

/** The panel's section of a page, as HTML. */
const panelOf = (html: string) => /<section class="audience"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';

describe.each(LIST_KINDS)('who can see a $noun', (kind) => {
  let owner: Person;
  let reader: Person;
  let member: Person;
  let carol: User;
  let listId: number;
  const grouped = kind.name === 'shopping';

  beforeAll(async () => {
    owner = await person(`owen_${kind.name}`);
    reader = await person(`rita_${kind.name}`);
    member = await person(`greta_${kind.name}`);
    carol = await createUser(t.db, { username: `carol_${kind.name}` });
    const list = await kind.createList(t.db, owner.user, { title: 'Household', sharedWith: [reader.user], tickers: [carol] });
    listId = list.id;
    if (grouped) {
      const group = await createGroup(t.db, owner.user, [member.user], `Flat ${kind.name}`);
      await t.db.updateTable('shopping_lists').set({ group_id: group.id }).where('id', '=', list.id).execute();
    }
  });

  it('names everyone to its owner, on the page and in the API', async () => {
    const rows = panelRows((await owner.browser.get(`${kind.base}/${listId}/`)).body);
    expect(rows).toContain(`${carol.username}: can tick and add items`);
    expect(rows).toContain(`${reader.user.username}: can read`);
    const read = await owner.api.get(`${kind.api}/${listId}/`);
    expect([read.data.shares, read.data.share_count]).toEqual([
      [
        { username: carol.username, permission: 'tick' },
        { username: reader.user.username, permission: 'read' },
      ],
      2,
    ]);
  });

  it('shows a reader shared by name the owner and a count, never the others\' names, on the page and in the API', async () => {
    const panel = panelOf((await reader.browser.get(`${kind.base}/${listId}/`)).body);
    expect(panel).not.toContain(carol.username);
    expect(panelRows(panel)).toEqual([
      `${owner.user.username}: can change it`,
      ...(grouped ? [`2 members of Flat ${kind.name}: can read`] : []),
      'Shared by name with 2 people: ',
      `${reader.user.username}: can read`,
    ]);
    const read = await reader.api.get(`${kind.api}/${listId}/`);
    expect([read.statusCode, read.data.shares, read.data.share_count]).toEqual([200, null, 2]);
    expect(read.body).not.toContain(carol.username);
    const listed = results(await reader.api.get(`${kind.api}/`)).find((list) => Number(list.id) === listId);
    expect([listed?.shares, listed?.share_count]).toEqual([null, 2]);
  });

  it('shows a member of its group the same counts, and no one by name but the owner (a to-do list has no group: 404)', async () => {
    const page = await member.browser.get(`${kind.base}/${listId}/`);
    if (!grouped) {
      expect(page.statusCode).toBe(404);
      return;
    }
    const panel = panelOf(page.body);
    expect(panel).not.toContain(carol.username);
    expect(panel).not.toContain(reader.user.username);
    expect(panelRows(panel)).toEqual([`${owner.user.username}: can change it`, `2 members of Flat ${kind.name}: can read`, 'Shared by name with 2 people: ', `${member.user.username}: can read`]);
    const read = await member.api.get(`${kind.api}/${listId}/`);
    expect([read.data.shares, read.data.share_count]).toEqual([null, 2]);
  });
});
