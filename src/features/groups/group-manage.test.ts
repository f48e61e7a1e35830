import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createNote, createShoppingList, createUser, loggedIn, type TestApp } from '../../../test/index.js';

// The group page's shared notes and lists, renaming a group, and the confirmations of leaving and
// removing a member.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function cast() {
  const owner = await loggedIn(t);
  const member = await loggedIn(t);
  const stranger = await loggedIn(t);
  const group = await createGroup(t.db, owner.user, [member.user]);
  return { owner, member, stranger, group };
}

const groupName = async (id: number) => (await t.db.selectFrom('groups').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

describe('the group page lists what is shared with the group', () => {
  it('shows a member exactly the group’s notes (not archived) and lists, newest first; a stranger gets 404', async () => {
    const { owner, member, stranger, group } = await cast();
    const other = await createGroup(t.db, owner.user, [member.user]);
    await createNote(t.db, owner.user, { title: 'Older group note', group_id: group.id, updated_at: Date.now() - 60_000 });
    await createNote(t.db, member.user, { title: 'Newer group note', group_id: group.id });
    await createNote(t.db, owner.user, { title: 'Archived group note', group_id: group.id, is_archived: 1 });
    await createNote(t.db, owner.user, { title: 'Private note' });
    await createNote(t.db, owner.user, { title: 'Other group note', group_id: other.id });
    const list = await createShoppingList(t.db, owner.user, { title: 'Group groceries', group });
    await createShoppingList(t.db, owner.user, { title: 'Own groceries' });
    for (const reader of [owner, member]) {
      const page = await reader.browser.get(`/groups/${group.id}/`);
      expect(page.statusCode).toBe(200);
      const notes = [...page.body.matchAll(/<a href="\/notes\/\d+\/">([^<]+)<\/a>/g)].map((match) => match[1]!);
      expect(notes.filter((title) => title.endsWith('note'))).toEqual(['Newer group note', 'Older group note']);
      expect(page.body).toContain(`<a href="/shopping/${list.id}/">Group groceries</a>`);
      for (const hidden of ['Archived group note', 'Private note', 'Other group note', 'Own groceries']) expect(page.body).not.toContain(hidden);
    }
    expect((await stranger.browser.get(`/groups/${group.id}/`)).statusCode).toBe(404);
  });
});

describe('renaming a group', () => {
  it('lets the owner rename it, recorded in its activity', async () => {
    const { owner, group } = await cast();
    const form = await owner.browser.get(`/groups/${group.id}/edit/`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`value="${group.name}"`);
    const response = await owner.browser.post(`/groups/${group.id}/edit/`, { name: '  Smith family  ' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/groups/${group.id}/`);
    expect(await groupName(group.id)).toBe('Smith family');
    expect((await owner.browser.get(`/groups/${group.id}/`)).body).toContain('renamed the group');
  });

  it('refuses a name the owner already uses (any case) and an empty one, changing nothing', async () => {
    const { owner, group } = await cast();
    await createGroup(t.db, owner.user, [], 'Hikers');
    const taken = await owner.browser.post(`/groups/${group.id}/edit/`, { name: 'hIKERS' });
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('You already have a group with that name.');
    expect(taken.body).toContain('value="hIKERS"');
    const empty = await owner.browser.post(`/groups/${group.id}/edit/`, { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter a name for the group.');
    expect(await groupName(group.id)).toBe(group.name);
    // A change of case of its own name is allowed.
    expect((await owner.browser.post(`/groups/${group.id}/edit/`, { name: group.name.toUpperCase() })).statusCode).toBe(302);
  });

  it('is a 404 for a member and a stranger, on GET and POST, like a missing group', async () => {
    const { member, stranger, group } = await cast();
    for (const { browser } of [member, stranger]) {
      expect((await browser.get(`/groups/${group.id}/edit/`)).statusCode).toBe(404);
      expect((await browser.post(`/groups/${group.id}/edit/`, { name: 'Taken over' })).statusCode).toBe(404);
    }
    expect((await member.browser.get('/groups/999999/edit/')).statusCode).toBe(404);
    expect(await groupName(group.id)).toBe(group.name);
  });
});

describe('leaving and removing ask first', () => {
  it('shows a member a confirmation page whose one form posts the leave', async () => {
    const { member, group } = await cast();
    const page = await member.browser.get(`/groups/${group.id}/leave/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Leave “${group.name}”?</h1>`);
    expect(page.body.match(/<form method="post"/g)?.length).toBe(2); // the page's and the header's logout
    expect(page.body).toContain(`<form method="post" action="/groups/${group.id}/leave/">`);
    const groupPage = await member.browser.get(`/groups/${group.id}/`);
    expect(groupPage.body).toMatch(new RegExp(`<a href="/groups/${group.id}/leave/"[^>]*data-confirm`));
  });

  it('refuses the leave page to the owner and a stranger (404)', async () => {
    const { owner, stranger, group } = await cast();
    expect((await owner.browser.get(`/groups/${group.id}/leave/`)).statusCode).toBe(404);
    expect((await stranger.browser.get(`/groups/${group.id}/leave/`)).statusCode).toBe(404);
  });

  it('shows the owner a removal confirmation posting action=remove and the member; 404 to everyone else', async () => {
    const { owner, member, stranger, group } = await cast();
    const path = `/groups/${group.id}/members/${member.user.id}/remove/`;
    const page = await owner.browser.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<form method="post" action="/groups/${group.id}/members/">`);
    expect(page.body).toContain('<input type="hidden" name="action" value="remove"/>');
    expect(page.body).toContain(`<input type="hidden" name="user_pk" value="${member.user.id}"/>`);
    expect((await owner.browser.get(`/groups/${group.id}/`)).body).toMatch(new RegExp(`<a href="${path}"[^>]*data-confirm`));
    const outsider = await createUser(t.db);
    expect((await owner.browser.get(`/groups/${group.id}/members/${outsider.id}/remove/`)).statusCode).toBe(404);
    expect((await owner.browser.get(`/groups/${group.id}/members/${owner.user.id}/remove/`)).statusCode).toBe(404);
    expect((await member.browser.get(path)).statusCode).toBe(404);
    expect((await stranger.browser.get(path)).statusCode).toBe(404);
  });
});

describe('the members form’s address', () => {
  it('opened with a GET (its error page’s address entered again) leads a member to the group’s page; a stranger gets 404', async () => {
    const { owner, member, stranger, group } = await cast();
    const refused = await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'no-such-person' });
    expect(refused.statusCode).toBe(400);
    for (const browser of [owner.browser, member.browser]) {
      const opened = await browser.get(`/groups/${group.id}/members/`);
      expect(opened.statusCode).toBe(302);
      expect(opened.headers.location).toBe(`/groups/${group.id}/`);
    }
    expect((await stranger.browser.get(`/groups/${group.id}/members/`)).statusCode).toBe(404);
    expect((await owner.browser.get('/groups/999999/members/')).statusCode).toBe(404);
  });
});
