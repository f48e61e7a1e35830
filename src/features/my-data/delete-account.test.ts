import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, connectChat, createGroup, createNote, createNotebook, createShoppingList, createTag, createTodoList, createUser, DEFAULT_PASSWORD, enrolledUser, listen, loggedIn, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';
import type { User } from '../../db/schema.js';

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

async function owned(user: User) {
  const count = async (table: 'notes' | 'notebooks' | 'tags' | 'todo_lists' | 'shopping_lists') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', user.id).executeTakeFirstOrThrow()).n);
  return {
    user: await t.db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst(),
    notes: await count('notes'),
    notebooks: await count('notebooks'),
    tags: await count('tags'),
    todo: await count('todo_lists'),
    shopping: await count('shopping_lists'),
    sessions: (await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', user.id).execute()).length,
  };
}

describe('delete my account', () => {
  it('shows what goes before asking for the password', async () => {
    const { browser } = await loggedIn(t);
    const page = await browser.get('/accounts/delete/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('including the notes you shared into groups');
    expect(page.body).toContain('A group you own passes to the member who has been in it longest');
    expect(page.body).toContain('<form method="post" action="/accounts/delete/"');
    const account = (await browser.get('/accounts/')).body;
    for (const path of ['/accounts/export/', '/accounts/import/', '/accounts/delete/']) expect(account).toContain(`href="${path}"`);
  });

  it('refuses a wrong password with the form again (400) and deletes nothing', async () => {
    const { user, browser } = await loggedIn(t);
    await createNote(t.db, user);
    const before = await owned(user);
    const response = await browser.post('/accounts/delete/', { password: 'not-my-password' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Your password was entered incorrectly.');
    expect(await owned(user)).toEqual(before);
    expect((await browser.get('/accounts/')).statusCode).toBe(200);
  });

  it('requires the CSRF token', async () => {
    const { user, browser } = await loggedIn(t);
    const response = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect((await owned(user)).user).toBeDefined();
  });

  it('pauses after 5 wrong passwords, even for the right one', async () => {
    const { user, browser } = await loggedIn(t);
    for (let i = 0; i < 5; i++) expect((await browser.post('/accounts/delete/', { password: `guess-${i}` })).statusCode).toBe(400);
    const refused = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await owned(user)).user).toBeDefined();
  });

  it('with two-factor sign-in on asks for a code too: the password alone or with a wrong code deletes nothing', async () => {
    const { user, browser, secret, nextCode } = await enrolledUser(t);
    expect((await browser.get('/accounts/delete/')).body).toContain('name="code"');
    const alone = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD });
    expect(alone.statusCode).toBe(400);
    expect(alone.body).toContain('Enter a code from your app, or a recovery code.');
    const wrong = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD, code: totpCode(secret, Date.now() - 10 * 60_000) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('That code is not right');
    expect((await owned(user)).user).toBeDefined();
    // A right code with a wrong password is not used up, and deletes nothing either.
    expect((await browser.post('/accounts/delete/', { password: 'not-my-password', code: nextCode() })).statusCode).toBe(400);
    expect((await owned(user)).user).toBeDefined();
    const deleted = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD, code: nextCode() });
    expect(deleted.statusCode).toBe(302);
    expect((await owned(user)).user).toBeUndefined();
  });

  it('with the right password deletes the user and what they own, ends every session and socket, and hands over their groups', async () => {
    const { user, browser } = await loggedIn(t);
    const elsewhere = new TestBrowser(t.app);
    await elsewhere.login(user.username);
    // The newcomer has the lower id; the veteran joined first, and inherits.
    const newcomer = await createUser(t.db);
    const veteran = await createUser(t.db);
    const friend = await createUser(t.db);
    const handed = await createGroup(t.db, user, [], 'Family');
    await t.db.insertInto('group_members').values([
      { group_id: handed.id, user_id: newcomer.id, joined_at: 3000 },
      { group_id: handed.id, user_id: veteran.id, joined_at: 2000 },
    ]).execute();
    // The heir already owns a "Family": the handed-over group is renamed, not refused.
    await createGroup(t.db, veteran, [], 'Family');
    const solo = await createGroup(t.db, user, [], 'Just me');
    const friends = await createGroup(t.db, friend, [user], 'Friends');
    const sharedNote = await createNote(t.db, user, { title: 'Into the group', group_id: friends.id });
    const friendNote = await createNote(t.db, friend, { title: 'Friend’s own', group_id: friends.id });
    await createNotebook(t.db, user);
    await createTag(t.db, user);
    await createTodoList(t.db, user, { sharedWith: [friend] });
    await createShoppingList(t.db, user, { group: friends });
    await t.db.insertInto('chat_messages').values({ group_id: friends.id, author_id: user.id, content: 'bye', created_at: Date.now() }).execute();
    const socket = await connectChat(address, `/ws/groups/${friends.id}/chat/`, { sessionKey: browser.cookies.get('sessionid')! });

    const response = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/accounts/login/');
    expect(browser.cookies.has('sessionid')).toBe(false);
    expect((await browser.get('/accounts/login/')).body).toContain('Your account and everything in it were deleted.');

    expect(await owned(user)).toEqual({ user: undefined, notes: 0, notebooks: 0, tags: 0, todo: 0, shopping: 0, sessions: 0 });
    expect((await elsewhere.get('/notes/')).statusCode).toBe(302);
    expect((await socket.closed).code).toBe(4403);

    const groups = await t.db.selectFrom('groups').select(['id', 'name', 'owner_id']).where('id', 'in', [handed.id, solo.id, friends.id]).orderBy('id').execute();
    expect(groups).toEqual([
      { id: handed.id, name: `Family (from ${user.username})`, owner_id: veteran.id },
      { id: friends.id, name: 'Friends', owner_id: friend.id },
    ]);
    expect(await t.db.selectFrom('notes').select('id').where('id', 'in', [sharedNote.id, friendNote.id]).execute()).toEqual([{ id: friendNote.id }]);
    expect(await t.db.selectFrom('chat_messages').select('id').where('group_id', '=', friends.id).execute()).toEqual([]);
    expect((await t.db.selectFrom('group_members').select('user_id').where('group_id', '=', handed.id).orderBy('user_id').execute()).map((row) => row.user_id)).toEqual([newcomer.id, veteran.id]);
  });

  describe('of an administrator', () => {
    const makeAdmin = (user: User, active = 1) => t.db.updateTable('users').set({ is_admin: 1, is_active: active }).where('id', '=', user.id).execute();
    const withoutAdmins = () => t.db.updateTable('users').set({ is_admin: 0 }).where('is_admin', '=', 1).execute();

    it('goes ahead while another active administrator remains', async () => {
      await withoutAdmins();
      const { user, browser } = await loggedIn(t);
      await makeAdmin(user);
      await makeAdmin(await createUser(t.db));
      expect((await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD })).statusCode).toBe(302);
      expect((await owned(user)).user).toBeUndefined();
    });

    it('is refused to the last active one (a deactivated one does not count): the form again with why, nothing deleted', async () => {
      await withoutAdmins();
      const { user, browser } = await loggedIn(t);
      await makeAdmin(user);
      await makeAdmin(await createUser(t.db), 0);
      await createNote(t.db, user);
      const before = await owned(user);
      const response = await browser.post('/accounts/delete/', { password: DEFAULT_PASSWORD });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('only active administrator');
      expect(await owned(user)).toEqual(before);
    });
  });
});
