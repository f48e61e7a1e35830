import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createUser, expectPanelAgreesWithRules, loggedIn, panelRows, type TestApp, type TestBrowser } from '../../../test/index.js';
import { NotesRepository } from './repository.js';

// "Who can see this" on a note page is the notes' own visibility and ownership queries asked for
// every user: these tests ask the same queries user by user and hold the panel to the answers.

let t: TestApp;
let notes: NotesRepository;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let otherMember: User;
let outsider: User;
let group: Group;
let otherGroup: Group;
let groupNote: Note;
let privateNote: Note;

beforeAll(async () => {
  t = await buildTestApp();
  notes = new NotesRepository(t.db, t.database.dialect);
  owner = await loggedIn(t, { username: 'olive' });
  member = await loggedIn(t, { username: 'mia' });
  otherMember = await createUser(t.db, { username: 'aaron' });
  outsider = await createUser(t.db, { username: 'zed' });
  // The outsider shares another group with the owner: a group of the owner's is no way in.
  group = await createGroup(t.db, owner.user, [member.user, otherMember], 'Household');
  otherGroup = await createGroup(t.db, outsider, [owner.user], 'Elsewhere');
  await createUser(t.db, { username: 'stranger' });
  groupNote = await createNote(t.db, owner.user, { group_id: group.id, title: 'Household rules' });
  privateNote = await createNote(t.db, owner.user, { title: 'Diary' });
});
afterAll(() => t.close());

const rulesFor = (noteId: number) => ({
  read: async (userId: number) => (await notes.visibleNotes(userId).select('notes.id').where('notes.id', '=', noteId).executeTakeFirst()) !== undefined,
  change: async (userId: number) => (await notes.ownedNotes(userId).select('notes.id').where('notes.id', '=', noteId).executeTakeFirst()) !== undefined,
});

const panelOf = async (viewer: User, note: Note) => (await notes.findVisibleNote(viewer.id, note.id))!.audience;

describe('who can see a note', () => {
  it('is exactly the users the read query admits, with the owner alone able to change it, for a group note', async () => {
    const panel = await panelOf(member.user, groupNote);
    await expectPanelAgreesWithRules(t.db, panel, rulesFor(groupNote.id));
    expect(panel.map((person) => [person.username, person.role, person.via])).toEqual([
      ['olive', 'change', ['owner', 'group']],
      ['aaron', 'read', ['group']],
      ['mia', 'read', ['group']],
    ]);
  });

  it('is the owner alone for a private note', async () => {
    const panel = await panelOf(owner.user, privateNote);
    await expectPanelAgreesWithRules(t.db, panel, rulesFor(privateNote.id));
    expect(panel.map((person) => person.username)).toEqual(['olive']);
  });

  it('follows the rules when the note moves to another group and members come and go', async () => {
    const moving = await createNote(t.db, owner.user, { group_id: group.id });
    await t.db.updateTable('notes').set({ group_id: otherGroup.id }).where('id', '=', moving.id).execute();
    await t.db.deleteFrom('group_members').where('group_id', '=', otherGroup.id).where('user_id', '=', outsider.id).execute();
    const panel = await panelOf(owner.user, moving);
    await expectPanelAgreesWithRules(t.db, panel, rulesFor(moving.id));
    expect(panel.map((person) => person.username)).toEqual(['olive']);
    await t.db.insertInto('group_members').values({ group_id: otherGroup.id, user_id: outsider.id, joined_at: Date.now() }).execute();
    await expectPanelAgreesWithRules(t.db, await panelOf(owner.user, moving), rulesFor(moving.id));
  });

  it('is shown on the note page by name to the owner, and to a member as the owner and a count of the group, following a member leaving (a kept page included)', async () => {
    const page = async (reader: { browser: TestBrowser }) => panelRows((await reader.browser.get(`/notes/${groupNote.id}/`)).body);
    expect(await page(owner)).toEqual(['olive: can change it', 'aaron: can read', 'mia: can read']);
    expect(await page(member)).toEqual(['olive: can change it', '3 members of Household: can read', 'mia: can read']);
    await t.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', otherMember.id).execute();
    expect(await page(member)).toEqual(['olive: can change it', '2 members of Household: can read', 'mia: can read']);
    expect(await page(owner)).toEqual(['olive: can change it', 'mia: can read']);
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: otherMember.id, joined_at: Date.now() }).execute();
    expect(await page(member)).toEqual(['olive: can change it', '3 members of Household: can read', 'mia: can read']);
  });

  it('follows a member renaming themself on a kept page', async () => {
    await owner.browser.get(`/notes/${groupNote.id}/`);
    await t.db.updateTable('users').set({ username: 'aaron2', username_key: 'aaron2' }).where('id', '=', otherMember.id).execute();
    expect(panelRows((await owner.browser.get(`/notes/${groupNote.id}/`)).body)).toContain('aaron2: can read');
    await t.db.updateTable('users').set({ username: 'aaron', username_key: 'aaron' }).where('id', '=', otherMember.id).execute();
  });
});
