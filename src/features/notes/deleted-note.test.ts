import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createGroup, createNote, createToken, deleteGroup, loggedIn, type TestApp } from '../../../test/index.js';
import { TOMBSTONE_DAYS } from './repository.js';

// Going back to a note that was deleted (issue 56, item 29): its owner and the members of the
// group it was in are told it was deleted, and when (410); anyone else gets the same 404 as for
// an id never used, so a tombstone tells a stranger nothing.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function deletedGroupNote() {
  const owner = await loggedIn(t);
  const member = await loggedIn(t);
  const stranger = await loggedIn(t);
  const group = await createGroup(t.db, owner.user, [member.user]);
  const note = await createNote(t.db, owner.user, { title: 'Plumber’s quote', content: 'Secret figures', group_id: group.id });
  expect((await member.browser.get(`/notes/${note.id}/`)).statusCode).toBe(200);
  expect((await owner.browser.post(`/notes/${note.id}/delete/`)).statusCode).toBe(302);
  return { owner, member, stranger, group, note };
}

describe('a deleted note’s page', () => {
  it('tells its owner they deleted it, and when, with a way back to the notes', async () => {
    const { owner, note } = await deletedGroupNote();
    const response = await owner.browser.get(`/notes/${note.id}/`);
    expect(response.statusCode).toBe(410);
    expect(response.body).toContain('This note was deleted');
    expect(response.body).toContain('You deleted it on');
    expect(response.body).toMatch(/<time datetime="[^"]+"/);
    expect(response.body).toContain('href="/notes/"');
    expect(response.body).not.toContain('Plumber’s quote');
  });

  it('tells a member of the group it was in that its owner deleted it, without its title or text', async () => {
    const { member, note } = await deletedGroupNote();
    const response = await member.browser.get(`/notes/${note.id}/`);
    expect(response.statusCode).toBe(410);
    expect(response.body).toContain('Its owner deleted it on');
    expect(response.body).not.toContain('Plumber’s quote');
    expect(response.body).not.toContain('Secret figures');
  });

  it('is the plain 404 of a missing note for anyone who could not read it', async () => {
    const { stranger, note } = await deletedGroupNote();
    const gone = await stranger.browser.get(`/notes/${note.id}/`);
    const never = await stranger.browser.get('/notes/987654321/');
    expect(gone.statusCode).toBe(404);
    // The same page but for the form token, which is masked anew in every answer.
    const unmasked = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]+"/g, '');
    expect(unmasked(gone.body)).toBe(unmasked(never.body));
  });

  it('is a 404 for a member who left the group, and for everyone once the group is gone', async () => {
    const { member, owner, group, note } = await deletedGroupNote();
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', member.user.id).execute();
    expect((await member.browser.get(`/notes/${note.id}/`)).statusCode).toBe(404);
    await deleteGroup(t.db, group);
    expect((await owner.browser.get(`/notes/${note.id}/`)).statusCode).toBe(410);
  });

  it('is said in Ukrainian to a Ukrainian owner', async () => {
    const owner = await loggedIn(t);
    const note = await createNote(t.db, owner.user, { title: 'Борщ' });
    await owner.browser.post(`/notes/${note.id}/delete/`);
    const response = await owner.browser.get(`/notes/${note.id}/`, { headers: { 'accept-language': 'uk' } });
    expect(response.statusCode).toBe(410);
    expect(response.body).toContain('Цю нотатку видалено');
    expect(response.body).toContain('Ви видалили її');
  });

  it('is left by a deletion through the API too', async () => {
    const owner = await loggedIn(t);
    const note = await createNote(t.db, owner.user, { title: 'By script' });
    const api = new ApiClient(t.app, { token: await createToken(t.db, owner.user) });
    expect((await api.delete(`/api/v1/notes/${note.id}/`)).statusCode).toBe(204);
    expect((await owner.browser.get(`/notes/${note.id}/`)).statusCode).toBe(410);
  });

  it('forgets the owner’s tombstones older than 90 days at their next deletion, and keeps newer ones', async () => {
    const owner = await loggedIn(t);
    const [old, recent, next] = [await createNote(t.db, owner.user, { title: 'Old' }), await createNote(t.db, owner.user, { title: 'Recent' }), await createNote(t.db, owner.user, { title: 'Next' })];
    for (const note of [old, recent]) await owner.browser.post(`/notes/${note.id}/delete/`);
    const day = 24 * 60 * 60 * 1000;
    await t.db.updateTable('note_tombstones').set({ deleted_at: Date.now() - (TOMBSTONE_DAYS + 1) * day }).where('note_id', '=', old.id).execute();
    await t.db.updateTable('note_tombstones').set({ deleted_at: Date.now() - (TOMBSTONE_DAYS - 1) * day }).where('note_id', '=', recent.id).execute();
    await owner.browser.post(`/notes/${next.id}/delete/`);
    const left = await t.db.selectFrom('note_tombstones').select('note_id').where('owner_id', '=', owner.user.id).orderBy('note_id').execute();
    expect(left.map((row) => row.note_id)).toEqual([recent.id, next.id]);
    expect((await owner.browser.get(`/notes/${old.id}/`)).statusCode).toBe(404);
  });
});
