import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, counts, dumpFiles, FIXTURE, fixture, type TestApp } from '../../../test/index.js';
import { BadDump, formatReport, importDjango } from './import.js';
import { parseDatetime } from './parse.js';

const dumpFile = dumpFiles();

// Objects that break this service's rules, --dry-run, and files that are not dumps.

describe('import-django of objects breaking this service’s rules', () => {
  let t: TestApp;
  let report: string;

  const user = (pk: number, username: string, groups: number[] = [], joined = '2024-01-01T00:00:00Z') => ({
    model: 'auth.user',
    pk,
    fields: { username, password: 'pbkdf2_sha256$1000$salt$AAAA', email: '', date_joined: joined, groups },
  });
  const entries = [
    user(1, 'Olena', [10]),
    user(2, 'olena', [10]), // the same name once folded: left out, with her note
    user(3, 'taras', [10, 99], '2023-01-01T00:00:00Z'), // earliest member: owns group 10; group 99 does not exist
    user(4, 'iryna', [11, 12]),
    { model: 'auth.group', pk: 10, fields: { name: 'Family' } },
    { model: 'auth.group', pk: 11, fields: { name: 'Book club' } },
    { model: 'auth.group', pk: 12, fields: { name: 'BOOK CLUB' } }, // iryna owns both: the second is left out
    { model: 'auth.group', pk: 13, fields: { name: 'Empty' } }, // no members
    { model: 'notes_app.tag', pk: 20, fields: { user: 1, name: 'work' } },
    { model: 'notes_app.tag', pk: 21, fields: { user: 1, name: 'WORK' } }, // duplicate per owner
    { model: 'notes_app.tag', pk: 22, fields: { user: 3, name: 'work' } }, // another owner: fine
    { model: 'notes_app.note', pk: 30, fields: { user: 1, title: 'Kept', tags: [20], group: 10, created_at: '2024-01-01T00:00:00', updated_at: '2024-01-01T00:00:00', mood: 'happy' } },
    { model: 'notes_app.note', pk: 31, fields: { user: 1, title: 'Foreign tag', tags: [22], created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.note', pk: 32, fields: { user: 2, title: 'Of the left-out user', created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.note', pk: 33, fields: { user: 1, title: 'Missing notebook', notebook: 404, created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.note', pk: 34, fields: { user: 4, title: 'Not her group', group: 10, created_at: '2024-01-01T00:00:00Z' } }, // kept, as after leaving
    { model: 'notes_app.note', pk: 36, fields: { user: 4, title: 'Lost group', group: 13, created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.todolist', pk: 40, fields: { user: 1, title: 'Chores', shared_with: [3, 2], created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.todoitem', pk: 41, fields: { todo_list: 40, text: 'Tap', due_date: '2024-02-30' } }, // no such day
    { model: 'notes_app.todoitem', pk: 42, fields: { todo_list: 49, text: 'Orphan' } },
    { model: 'notes_app.chatmessage', pk: 50, fields: { group: 10, author: 4, content: 'not a member', timestamp: '2024-01-01T00:00:00Z' } }, // kept
    { model: 'notes_app.chatmessage', pk: 52, fields: { group: 12, author: 4, content: 'in a left-out group', timestamp: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.chatmessage', pk: 53, fields: { group: 10, author: 2, content: 'by a left-out user', timestamp: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.chatmessage', pk: 51, fields: { group: 10, author: 3, content: 'hello', timestamp: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.note', pk: 35, fields: { user: 1, title: 'Nul\u0000byte', created_at: '2024-01-01T00:00:00Z' } },
    { model: 'notes_app.reminder', pk: 70, fields: { note: 30, remind_at: '2024-01-01T09:00:00Z', repeat: 'none', is_sent: true } }, // sent: counted
    { model: 'notes_app.reminder', pk: 71, fields: { note: 32, remind_at: '2030-01-01T09:00:00Z' } }, // its note is left out
    { model: 'notes_app.reminder', pk: 72, fields: { note: 30, remind_at: '2024-01-01T09:00:00Z', repeat: 'daily', message: ' Stretch ', is_sent: true } }, // moved on
    { model: 'notes_app.reminder', pk: 73, fields: { note: 34, remind_at: '2030-01-01T09:00:00Z', repeat: 'yearly' } },
    { model: 'notes_app.reminder', pk: 74, fields: { note: 34, remind_at: '2024-01-01T09:00:00Z', repeat: 'none', is_sent: false } }, // passed, unsent
    { model: 'notes_app.reminder', pk: 75, fields: { note: 30, remind_at: '2031-06-01T10:30:15.250+02:00', message: 'Call' } },
    // One more than a note may have: the last (by pk) is left out.
    ...Array.from({ length: 21 }, (_, i) => ({ model: 'notes_app.reminder', pk: 100 + i, fields: { note: 34, remind_at: `2030-02-${String(i + 1).padStart(2, '0')}T09:00:00Z` } })),
    { model: 'notes_app.widget', pk: 60, fields: {} },
  ];

  beforeAll(async () => {
    t = await buildTestApp();
    const { dump, plan } = await importDjango(t.db, t.database.dialect, dumpFile(entries));
    report = formatReport(dump, plan);
  });
  afterAll(() => t.close());

  it('imports what keeps the rules', async () => {
    expect((await t.db.selectFrom('users').select('username').orderBy('id').execute()).map((row) => row.username)).toEqual(['Olena', 'taras', 'iryna']);
    expect(await t.db.selectFrom('groups').select(['id', 'owner_id']).orderBy('id').execute()).toEqual([
      { id: 10, owner_id: 3 },
      { id: 11, owner_id: 4 },
    ]);
    expect(await t.db.selectFrom('group_members').select(['group_id', 'user_id']).orderBy('group_id').orderBy('user_id').execute()).toEqual([
      { group_id: 10, user_id: 1 },
      { group_id: 10, user_id: 3 },
      { group_id: 11, user_id: 4 },
    ]);
    expect((await t.db.selectFrom('tags').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual([20, 22]);
    expect((await t.db.selectFrom('notes').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual([30, 34]);
    expect(await t.db.selectFrom('todo_list_shares').select(['list_id', 'user_id']).execute()).toEqual([{ list_id: 40, user_id: 3 }]);
    expect(await t.db.selectFrom('todo_items').select('id').execute()).toEqual([]);
    expect((await t.db.selectFrom('chat_messages').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual([50, 51]);
    const reminders = await t.db.selectFrom('reminders').select(['id', 'note_id', 'owner_id', 'local_time', 'repeat', 'message', 'next_due_at']).orderBy('id').execute();
    expect(reminders.map((row) => row.id)).toEqual([72, 75, ...Array.from({ length: 20 }, (_, i) => 100 + i)]);
    // The daily one, due since 2024, is next due at its first 09:00 UTC to come.
    const nextNine = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 9);
    expect(reminders[0]).toEqual({ id: 72, note_id: 30, owner_id: 1, local_time: '2024-01-01T09:00', repeat: 'daily', message: 'Stretch', next_due_at: expect.any(Number) });
    expect([nextNine, nextNine + 86_400_000]).toContain(reminders[0]!.next_due_at);
    expect(reminders[0]!.next_due_at).toBeGreaterThan(Date.now() - 60_000);
    expect(reminders[1]).toEqual({ id: 75, note_id: 30, owner_id: 1, local_time: '2031-06-01T08:30:15', repeat: 'none', message: 'Call', next_due_at: Date.UTC(2031, 5, 1, 8, 30, 15) });
    expect(reminders.slice(2).every((row) => row.owner_id === 4 && row.note_id === 34)).toBe(true);
  });

  it('reports each object left out, with its reason, and the links dropped', () => {
    for (const line of [
      'auth.user               3 imported, 1 left out',
      'auth.user pk 2 "olena": the same username as "Olena" (pk 1) once letter case is folded; the lower pk is kept',
      'auth.group pk 12 "BOOK CLUB": its owner iryna already has a group of that name',
      'auth.group pk 13 "Empty": no imported user is a member, so no one can own it',
      'notes_app.tag pk 21 "WORK": the same user\'s tag pk 20 has the same name once letter case is folded',
      'notes_app.note pk 31 "Foreign tag": its tag pk 22 belongs to another user',
      'notes_app.note pk 32 "Of the left-out user": its user pk 2 is not imported',
      'notes_app.note pk 33 "Missing notebook": its notebook pk 404 is not imported',
      'notes_app.note pk 36 "Lost group": its group pk 13 is not imported',
      'notes_app.note pk 35 "Nul\\u0000byte": its title holds a NUL character, which is not stored here',
      'notes_app.todoitem pk 41 "Tap": the due date 2024-02-30 is not a date from 1900 to 2999',
      'notes_app.todoitem pk 42 "Orphan": its to-do list pk 49 is not imported',
      'notes_app.chatmessage pk 52 in group pk 12: its group pk 12 is not imported',
      'notes_app.chatmessage pk 53 in group pk 10: its author pk 2 is not imported',
      '2 note(s), shopping list(s) or chat message(s) kept in a group their owner or author is not a member of',
      'membership of user taras in group pk 99 dropped: no such group in the file',
      'share of notes_app.todolist pk 40 with user pk 2 dropped: that user is not imported',
      'group "Family" (pk 10): owner taras, its earliest member',
      'notes_app.reminder      22 imported, 4 left out',
      'notes_app.reminder pk 71 on note pk 32: its note pk 32 is not imported',
      'notes_app.reminder pk 73 on note pk 34: the repeat "yearly" is not none, daily, weekly or monthly',
      'notes_app.reminder pk 74 on note pk 34: a one-off reminder for 2024-01-01T09:00:00.000Z, which has passed (never sent)',
      'notes_app.reminder pk 120 on note pk 34: its note already has 20 reminders, the most a note has here',
      '1 one-off reminder(s) already sent (is_sent) not imported',
      '1 repeating reminder(s) whose time had passed moved to their next occurrence',
      'other models, ignored: notes_app.widget 1',
      'unknown fields, ignored: notes_app.note.mood 1',
      '2 date(s) and time(s) had no time zone and were read as UTC',
    ]) {
      expect(report).toContain(line);
    }
  });
});

describe('import-django with --dry-run', () => {
  it('reports what it would import and leaves the database empty (the writes are rolled back)', async () => {
    const t = await buildTestApp();
    try {
      const { dump, plan } = await importDjango(t.db, t.database.dialect, FIXTURE, { dryRun: true });
      expect(formatReport(dump, plan, true)).toMatch(/^dry run: nothing was written; of 18 entries, an import would bring in:\n {2}auth\.user\s+3 imported/);
      expect(Object.values(await counts(t)).every((count) => count === 0)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('import-django of a bad file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const wrongTitle = fixture().map((entry) => (entry.pk === 517 ? { ...entry, fields: { ...entry.fields, title: 42 } } : entry));
  const stringPk = fixture().map((entry) => (entry.pk === 536 ? { ...entry, pk: '536' } : entry));
  const noAuthor = fixture().map((entry) => (entry.pk === 557 ? { ...entry, fields: { ...entry.fields, author: undefined } } : entry));
  const badDate = fixture().map((entry) => (entry.pk === 516 ? { ...entry, fields: { ...entry.fields, created_at: 'yesterday' } } : entry));
  const badReminder = fixture().map((entry) => (entry.pk === 526 ? { ...entry, fields: { ...entry.fields, remind_at: 'next Tuesday' } } : entry));
  const twice = [...fixture(), fixture()[0]];
  const whole = readFileSync(FIXTURE, 'utf8');

  it.each([
    ['not JSON', 'hello', /^not valid JSON before the first entry/],
    ['truncated', whole.slice(0, whole.indexOf('"pk": 497')), /^not valid JSON in entry 10 \(the file looks truncated\)/],
    ['not a list', { model: 'auth.user' }, /^expected a list of \{"model", "pk", "fields"\} entries \(got an object\)$/],
    ['an entry not an object', [1], /^entry 1: expected an object with "model", "pk" and "fields" \(got number\)$/],
    ['a field of the wrong type', wrongTitle, /^entry 15 \(notes_app\.note pk 517\): field "title" must be text \(got number\)$/],
    ['a pk not a number', stringPk, /^entry 14 \(notes_app\.todolist\): "pk" must be an id from 1 to 2147483647 \(got "536"\)$/],
    ['a required field missing', noAuthor, /^entry 6 \(notes_app\.chatmessage pk 557\): field "author" is missing$/],
    ['a datetime that is none', badDate, /^entry 1 \(notes_app\.note pk 516\): field "created_at" must be an ISO 8601 date and time \(got string\)$/],
    ['a reminder’s time that is none', badReminder, /^entry 5 \(notes_app\.reminder pk 526\): field "remind_at" must be an ISO 8601 date and time \(got string\)$/],
    ['a pk twice', twice, /^entry 19 \(notes_app\.note pk 516\): the same pk as entry 1$/],
  ])('%s: refuses with the entry, model and field, and writes nothing', async (_name, content, message) => {
    const error = await importDjango(t.db, t.database.dialect, dumpFile(content)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadDump);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
    expect(Object.values(await counts(t)).every((count) => count === 0)).toBe(true);
  });
});

describe('parseDatetime', () => {
  it.each([
    ['2024-05-02T12:00:00Z', Date.UTC(2024, 4, 2, 12), true],
    ['2024-05-02T12:00:00.5Z', Date.UTC(2024, 4, 2, 12, 0, 0, 500), true],
    ['2024-05-02T12:00:00.123456+03:00', Date.UTC(2024, 4, 2, 9, 0, 0, 123), true],
    ['2024-05-02 12:00:00-0130', Date.UTC(2024, 4, 2, 13, 30), true],
    ['2024-05-02T12:00', Date.UTC(2024, 4, 2, 12), false],
    ['2024-05-02T12:00:00', Date.UTC(2024, 4, 2, 12), false],
    ['0050-01-01T00:00:00Z', -60589296000000, true],
  ])('%s', (raw, ms, zoned) => {
    expect(parseDatetime(raw)).toEqual({ ms, zoned });
  });

  it.each(['2024-02-30T00:00:00Z', '2024-05-02', '2024-05-02T25:00:00Z', 'yesterday', '2024-05-02T12:00:00+24:00'])('refuses %s', (raw) => {
    expect(parseDatetime(raw)).toBeNull();
  });
});
