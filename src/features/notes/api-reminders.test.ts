import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, Note, User } from '../../db/schema.js';
import { formatWallTime, wallTimeAt } from '../../platform/wall-clock.js';
import { ApiClient, buildTestApp, createGroup, createNote, createReminder, createToken, createUser, results, type TestApp } from '../../../test/index.js';
import { REMINDERS_PER_NOTE } from './reminders-forms.js';

// Reminders through the API, as on the note page: the note's owner alone adds, lists and deletes
// them; a group member who reads the note, and anyone else, gets the 404 of a missing note.

let t: TestApp;
let owner: User;
let member: User;
let group: Group;
let api: { owner: ApiClient; member: ApiClient; stranger: ApiClient; ownerReadOnly: ApiClient };

beforeAll(async () => {
  // A long poll: a reminder added through the API must be delivered by the scheduler's wake.
  t = await buildTestApp({ REMINDER_POLL_MS: '60000' });
  [owner, member] = [await createUser(t.db), await createUser(t.db)];
  const stranger = await createUser(t.db);
  group = await createGroup(t.db, owner, [member]);
  const client = async (user: User, scope: 'read' | 'write' = 'write') => new ApiClient(t.app, { token: await createToken(t.db, user, scope) });
  api = { owner: await client(owner), member: await client(member), stranger: await client(stranger), ownerReadOnly: await client(owner, 'read') };
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;
const localIn = (zone: string, fromNow: number) => formatWallTime({ ...wallTimeAt(zone, Date.now() + fromNow), second: 0 });
const groupNote = (overrides: Partial<Note> = {}) => createNote(t.db, owner, { group_id: group.id, ...overrides });
const remindersOf = (noteId: number) => t.db.selectFrom('reminders').selectAll().where('note_id', '=', noteId).orderBy('id').execute();
const collection = (noteId: number) => `/api/v1/notes/${noteId}/reminders/`;

describe('reminders', () => {
  it('the owner adds one (201, Location), lists it, reads it and deletes it (204)', async () => {
    const note = await groupNote();
    const remindAt = localIn('UTC', 2 * HOUR);
    const added = await api.owner.post(collection(note.id), { remind_at: remindAt, message: '  Buy <milk>  ', repeat: 'weekly' });
    expect(added.statusCode).toBe(201);
    const [stored] = await remindersOf(note.id);
    expect(stored).toMatchObject({ owner_id: owner.id, local_time: remindAt, time_zone: 'UTC', repeat: 'weekly', message: 'Buy <milk>', next_due_at: Date.parse(`${remindAt}:00Z`) });
    expect(added.headers.location).toBe(`/api/v1/reminders/${stored!.id}/`);
    const shown = { id: stored!.id, note: note.id, remind_at: remindAt, time_zone: 'UTC', message: 'Buy <milk>', repeat: 'weekly', next_due_at: new Date(stored!.next_due_at).toISOString() };
    expect(added.data).toEqual(shown);

    const list = await api.owner.get(collection(note.id));
    expect(list.statusCode).toBe(200);
    expect(list.data).toEqual({ results: [shown], next: null });
    expect((await api.owner.get(added.headers.location as string)).data).toEqual(shown);

    const deleted = await api.owner.delete(added.headers.location as string);
    expect(deleted.statusCode).toBe(204);
    expect(await remindersOf(note.id)).toEqual([]);
    expect((await api.owner.delete(added.headers.location as string)).statusCode).toBe(404);
    expect(results(await api.owner.get(collection(note.id)))).toEqual([]);
  });

  it('reads the time in the owner\'s own time zone: 09:00 in Kyiv is 07:00 UTC in winter', async () => {
    const kyiv = await createUser(t.db);
    await t.db.updateTable('users').set({ timezone: 'Europe/Kyiv' }).where('id', '=', kyiv.id).execute();
    const client = new ApiClient(t.app, { token: await createToken(t.db, kyiv) });
    const note = await createNote(t.db, kyiv);
    const year = new Date().getUTCFullYear() + 1;
    const added = await client.post(collection(note.id), { remind_at: `${year}-01-15T09:00` });
    expect(added.statusCode).toBe(201);
    expect(added.data).toMatchObject({ remind_at: `${year}-01-15T09:00`, time_zone: 'Europe/Kyiv', repeat: 'none', message: '', next_due_at: new Date(Date.UTC(year, 0, 15, 7)).toISOString() });
    // A time the clocks skip there (the last Sunday of March, 03:00 -> 04:00) does not exist.
    const lastSunday = 31 - new Date(Date.UTC(year, 2, 31)).getUTCDay();
    const skipped = await client.post(collection(note.id), { remind_at: `${year}-03-${lastSunday}T03:30` });
    expect(skipped.statusCode).toBe(400);
    expect(skipped.data.error?.fields?.remind_at?.[0]).toMatch(/does not exist in Europe\/Kyiv/);
  });

  it('is a 404 to the group member and the stranger for every operation, and changes nothing', async () => {
    const note = await groupNote();
    const reminder = await createReminder(t.db, note);
    for (const client of [api.member, api.stranger]) {
      const attempts = [
        client.get(collection(note.id)),
        client.post(collection(note.id), { remind_at: localIn('UTC', HOUR) }),
        client.get(`/api/v1/reminders/${reminder.id}/`),
        client.delete(`/api/v1/reminders/${reminder.id}/`),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(404);
        expect(response.data.error?.code).toBe('not_found');
      }
    }
    expect((await remindersOf(note.id)).map((row) => row.id)).toEqual([reminder.id]);
    expect((await api.owner.get(collection(2_000_000_000))).statusCode).toBe(404);
  });

  it('refuses a read-only token\'s writes (403) and lets it read', async () => {
    const note = await groupNote();
    const reminder = await createReminder(t.db, note);
    expect((await api.ownerReadOnly.get(collection(note.id))).statusCode).toBe(200);
    expect((await api.ownerReadOnly.post(collection(note.id), { remind_at: localIn('UTC', HOUR) })).statusCode).toBe(403);
    expect((await api.ownerReadOnly.delete(`/api/v1/reminders/${reminder.id}/`)).statusCode).toBe(403);
    expect((await remindersOf(note.id)).map((row) => row.id)).toEqual([reminder.id]);
  });

  it('answers 400 per field to bodies the add form would refuse, and adds nothing', async () => {
    const note = await groupNote();
    const cases: [unknown, string][] = [
      [{}, 'remind_at'],
      [{ remind_at: '' }, 'remind_at'],
      [{ remind_at: 'tomorrow' }, 'remind_at'],
      [{ remind_at: 1767225600000 }, 'remind_at'],
      [{ remind_at: localIn('UTC', -2 * HOUR) }, 'remind_at'],
      [{ remind_at: localIn('UTC', HOUR), repeat: 'yearly' }, 'repeat'],
      [{ remind_at: localIn('UTC', HOUR), message: 'x'.repeat(501) }, 'message'],
      [{ remind_at: localIn('UTC', HOUR), message: ['a'] }, 'message'],
      [{ remind_at: localIn('UTC', HOUR), note: 5 }, '__all__'],
    ];
    for (const [body, field] of cases) {
      const response = await api.owner.post(collection(note.id), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.data.error?.fields ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await remindersOf(note.id)).toEqual([]);
  });

  it(`stops at ${REMINDERS_PER_NOTE} reminders a note with a 400`, async () => {
    const note = await groupNote();
    for (let i = 0; i < REMINDERS_PER_NOTE; i += 1) await createReminder(t.db, note);
    const response = await api.owner.post(collection(note.id), { remind_at: localIn('UTC', HOUR) });
    expect(response.statusCode).toBe(400);
    expect(response.data.error?.fields?.__all__?.[0]).toMatch(/at most 20 reminders/);
    expect(await remindersOf(note.id)).toHaveLength(REMINDERS_PER_NOTE);
    expect(results(await api.owner.get(collection(note.id)))).toHaveLength(REMINDERS_PER_NOTE);
  });

  it('wakes the scheduler as the page does: a reminder due in two seconds is delivered then, not at the next poll', async () => {
    const note = await createNote(t.db, owner, { title: 'Dentist' });
    t.app.background.start();
    // Its first round (what fell due while stopped) done, it sleeps until the next poll, a
    // minute away; a round that ran after the add would have found the reminder by itself.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const dueAt = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
    const added = await api.owner.post(collection(note.id), { remind_at: formatWallTime(wallTimeAt('UTC', dueAt)), message: 'Bring the X-ray' });
    expect(added.statusCode).toBe(201);
    const delivered = () => t.db.selectFrom('notifications').select('text').where('user_id', '=', owner.id).where('kind', '=', 'reminder').execute();
    await expect.poll(delivered, { timeout: 5_000, interval: 20 }).toEqual([{ text: 'Reminder: Dentist — Bring the X-ray' }]);
  });
});
