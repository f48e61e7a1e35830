import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, createGroup, createNote, createNotebook, createTag, createToken, findNote, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

/** The API's words for an id that names nothing the caller may use (platform.json's form.invalid_choice). */
const INVALID_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

// PATCH /api/v1/notes/:pk/: the owner alone changes the fields given, with the form's rules, and
// If-Match makes a change conditional on the note being as the client last read it.

let t: TestApp;
let owner: { user: User; browser: TestBrowser };
let member: User;
let stranger: User;
let group: Group;
let api: { owner: ApiClient; member: ApiClient; stranger: ApiClient };

beforeAll(async () => {
  t = await buildTestApp();
  owner = await loggedIn(t);
  member = (await loggedIn(t)).user;
  stranger = (await loggedIn(t)).user;
  group = await createGroup(t.db, owner.user, [member]);
  const client = async (user: User) => new ApiClient(t.app, { token: await createToken(t.db, user) });
  api = { owner: await client(owner.user), member: await client(member), stranger: await client(stranger) };
});
afterAll(() => t.close());

const groupNote = (overrides: Parameters<typeof createNote>[2] = {}) => createNote(t.db, owner.user, { group_id: group.id, ...overrides });
const url = (id: number) => `/api/v1/notes/${id}/`;
const tagIdsOf = async (noteId: number) => (await t.db.selectFrom('note_tags').select('tag_id').where('note_id', '=', noteId).orderBy('tag_id').execute()).map((row) => row.tag_id);

describe('PATCH /api/v1/notes/:pk/', () => {
  it('changes only the fields given, for the owner; the answer is what GET then shows', async () => {
    const notebook = await createNotebook(t.db, owner.user);
    const tag = await createTag(t.db, owner.user);
    const note = await groupNote({ title: 'Before', content: 'Body', priority: 1, notebook_id: notebook.id, tags: [tag] });
    const response = await api.owner.patch(url(note.id), { title: 'After', is_archived: true });
    expect(response.statusCode).toBe(200);
    expect(response.data).toMatchObject({ title: 'After', content: 'Body', priority: 1, notebook: notebook.id, tags: [tag.id], group: group.id, is_archived: true, is_pinned: false });
    expect(await findNote(t.db, note.id)).toMatchObject({ title: 'After', content: 'Body', priority: 1, notebook_id: notebook.id, group_id: group.id, is_archived: 1 });
    expect(await tagIdsOf(note.id)).toEqual([tag.id]);
    const read = await api.owner.get(url(note.id));
    expect(read.data).toEqual(response.data);
    expect(read.headers.etag).toBe(response.headers.etag);

    const cleared = await api.owner.patch(url(note.id), { notebook: null, group: null, tags: [], content: '' });
    expect(cleared.data).toMatchObject({ title: 'After', notebook: null, group: null, tags: [], content: '' });
    expect(await tagIdsOf(note.id)).toEqual([]);
  });

  it('is a 404 for the group member and the stranger, and changes nothing; a body that is no note is the 400 a missing note gets', async () => {
    const note = await groupNote({ title: 'Mine' });
    for (const client of [api.member, api.stranger]) {
      const response = await client.patch(url(note.id), { title: 'Theirs' });
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe((await client.patch(url(2_000_000_000), { title: 'Theirs' })).body);
      // The body is checked before anything is looked up: the answer tells nothing of the note.
      for (const body of [{ title: '' }, { unknown: 1 }]) {
        const invalid = await client.patch(url(note.id), body);
        expect(invalid.statusCode).toBe(400);
        expect(invalid.body).toBe((await client.patch(url(2_000_000_000), body)).body);
      }
    }
    expect((await findNote(t.db, note.id))?.title).toBe('Mine');
  });

  it('refuses invalid fields and links to others\' objects with 400 per field, and changes nothing', async () => {
    const [theirNotebook, theirTag] = [await createNotebook(t.db, stranger), await createTag(t.db, stranger)];
    const otherGroup = await createGroup(t.db, stranger);
    const note = await groupNote({ title: 'Unchanged', priority: 2 });
    const cases: [Record<string, unknown>, string, string[]?][] = [
      [{ notebook: theirNotebook.id }, 'notebook', [INVALID_CHOICE]],
      [{ tags: [theirTag.id] }, 'tags', [INVALID_CHOICE]],
      [{ group: otherGroup.id }, 'group', [INVALID_CHOICE]],
      [{ title: '' }, 'title', ['This field is required.']],
      [{ title: null }, 'title'],
      [{ priority: -1 }, 'priority', ['Choose a priority from Low to Urgent.']],
      [{ is_archived: 1 }, 'is_archived'],
      [{ content: null }, 'content'],
      [{ id: 5 }, '__all__'],
    ];
    for (const [body, field, messages] of cases) {
      const response = await api.owner.patch(url(note.id), { title: 'Would change', ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.data.error?.fields?.[field], JSON.stringify(body)).toEqual(messages ?? [expect.any(String)]);
    }
    expect(await findNote(t.db, note.id)).toMatchObject({ title: 'Unchanged', priority: 2, group_id: group.id, notebook_id: null });
  });
});

describe('If-Match', () => {
  it('412 with the ETag of before a change made elsewhere (the page), nothing changed; the new ETag, or *, lets it through', async () => {
    const note = await groupNote({ title: 'Original' });
    const old = (await api.owner.get(url(note.id))).headers.etag as string;
    const edited = await owner.browser.post(`/notes/${note.id}/edit/`, { title: 'Edited on the page', group: String(group.id) });
    expect(edited.statusCode).toBe(302);

    const stale = await api.owner.patch(url(note.id), { title: 'From a stale client' }, { headers: { 'if-match': old } });
    expect(stale.statusCode).toBe(412);
    expect(stale.data.error?.code).toBe('precondition_failed');
    expect((await findNote(t.db, note.id))?.title).toBe('Edited on the page');

    const fresh = (await api.owner.get(url(note.id))).headers.etag as string;
    const ok = await api.owner.patch(url(note.id), { title: 'From a fresh client' }, { headers: { 'if-match': `"nope", ${fresh}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.title).toBe('From a fresh client');
    // The answer's ETag is the one to send next.
    expect((await api.owner.patch(url(note.id), { priority: 3 }, { headers: { 'if-match': fresh } })).statusCode).toBe(412);
    expect((await api.owner.patch(url(note.id), { priority: 3 }, { headers: { 'if-match': ok.headers.etag as string } })).statusCode).toBe(200);
    expect((await api.owner.patch(url(note.id), { priority: 1 }, { headers: { 'if-match': '*' } })).statusCode).toBe(200);
  });

  it('a change to the note\'s tags alone (its ETag moves with them) also makes an old ETag fail', async () => {
    const tag = await createTag(t.db, owner.user);
    const note = await groupNote();
    const old = (await api.owner.get(url(note.id))).headers.etag as string;
    await t.db.insertInto('note_tags').values({ note_id: note.id, tag_id: tag.id }).execute();
    expect((await api.owner.patch(url(note.id), { title: 'x' }, { headers: { 'if-match': old } })).statusCode).toBe(412);
  });

  it('of two clients sending the same ETag at once, one wins and the other gets 412', async () => {
    const note = await groupNote({ title: 'Race' });
    const etag = (await api.owner.get(url(note.id))).headers.etag as string;
    const [a, b] = await Promise.all(['Client A', 'Client B'].map((title) => api.owner.patch(url(note.id), { title }, { headers: { 'if-match': etag } })));
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 412]);
    const winner = a!.statusCode === 200 ? a! : b!;
    expect((await findNote(t.db, note.id))?.title).toBe(winner.data.title);
  });

  it('a write that commits while the PATCH waits for the note is seen by the check: 412, and the other write is kept', async () => {
    const note = await groupNote({ title: 'Before' });
    const etag = (await api.owner.get(url(note.id))).headers.etag as string;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const changed = new Promise<void>((resolve) => (written = resolve));
    // Another writer changes the note and holds its transaction open (and so the row's lock).
    const other = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('notes').set({ title: 'Other writer' }).where('id', '=', note.id).execute();
      written();
      await held;
    });
    await changed;
    const patch = api.owner.patch(url(note.id), { title: 'Stale client' }, { headers: { 'if-match': etag } });
    await waitUntilBlocked();
    release();
    await other;
    const response = await patch;
    expect(response.statusCode).toBe(412);
    expect((await findNote(t.db, note.id))?.title).toBe('Other writer');
  });
});

/**
 * Until the PATCH waits for the other writer. PostgreSQL shows a session waiting for a lock; on
 * SQLite the app shares the test's one connection and so queues behind its transaction: a pause
 * lets the request get there.
 */
async function waitUntilBlocked(): Promise<void> {
  if (t.database.dialect === 'sqlite') return new Promise((resolve) => setTimeout(resolve, 200));
  for (let tries = 0; tries < 200; tries += 1) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the PATCH never waited for the lock');
}
