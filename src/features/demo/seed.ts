import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { identityKey } from '../../platform/identity-key.js';
import { DEFAULT_TIME_ZONE } from '../../platform/time-zones.js';
import { formatWallTime, type Repeat, resolveWallTime, wallTimeAt } from '../../platform/wall-clock.js';
import { hashPassword, randomString } from '../../platform/passwords/passwords.js';
import { UsersRepository } from '../accounts/index.js';
import { GroupsRepository } from '../groups/index.js';
import { NotebooksRepository } from '../notebooks/index.js';
import { NotesRepository } from '../notes/index.js';
import { TagsRepository } from '../tags/index.js';
import { listsRepository } from '../lists/index.js';
import { SHOPPING } from '../lists/index.js';
import { TODO } from '../lists/index.js';

// `groupnotes seed-demo`: three demo users with everything the service does, so that a newcomer
// sees every feature at once. Demo users are known by name and by their address at
// `demo.invalid` (a domain that never receives mail): --force replaces only users that match
// both, never someone who happens to have chosen one of the names.

export const DEMO_USERNAMES = ['demo-ada', 'demo-ben', 'demo-cleo'] as const;
const DEMO_DOMAIN = 'demo.invalid';
const demoEmail = (username: string) => `${username}@${DEMO_DOMAIN}`;

export interface DemoLogin {
  username: string;
  password: string;
}

/** Demo data already there (without --force), or a demo name taken by a real user. */
export class DemoRefused extends Error {}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `YYYY-MM-DD` of UTC today plus `days`. */
function dateIn(days: number, now: number): string {
  return new Date(now + days * DAY).toISOString().slice(0, 10);
}

const NOTES: { owner: number; title: string; content: string; notebook?: boolean; tags?: number[]; inGroup?: boolean; priority?: number; pinned?: boolean; archived?: boolean }[] = [
  {
    owner: 0,
    title: 'Welcome to groupnotes',
    pinned: true,
    priority: 2,
    content:
      '# Welcome\n\nThis is a **demo note** written in *Markdown*.\n\n- Notes have notebooks, tags and priorities\n- A note in a group is read by every member\n- Lists can be shared, and groups have a chat\n\n> Sign in as the other demo users to see what they see.',
  },
  {
    owner: 0,
    title: 'Pancakes',
    notebook: true,
    tags: [0],
    inGroup: true,
    content: '## Pancakes\n\n1. 200 g flour\n2. 2 eggs\n3. 300 ml milk\n\nWhisk, rest for *10 minutes*, fry in butter.',
  },
  { owner: 0, title: 'Ideas for the garden', tags: [1], content: '- Tomatoes along the south wall\n- A bench under the `apple tree`\n- [Seed catalogue](https://example.com/seeds)' },
  { owner: 0, title: 'Old packing list', archived: true, content: 'Passport, charger, sun cream.' },
  { owner: 1, title: 'Holiday plan', inGroup: true, priority: 3, content: '### Week one\n\n| Day | Where |\n|---|---|\n| Mon | Lake |\n| Tue | Hills |' },
  { owner: 1, title: 'Reading list', notebook: true, tags: [0], content: '* *The Hobbit*\n* *Dune*\n* ~~Moby Dick~~ (done)' },
  { owner: 2, title: 'Band rehearsal', inGroup: true, priority: 1, content: 'Thursday at **7 pm**. Bring the `setlist`.' },
  { owner: 2, title: 'Private thoughts', notebook: true, content: 'Only I can read this one.' },
];

/** Reminders on demo-ada's notes (by title), days from now at a whole hour in her zone. */
const REMINDERS: { note: string; days: number; hour: number; repeat: Repeat; message: string }[] = [
  { note: 'Pancakes', days: 2, hour: 9, repeat: 'weekly', message: 'Pancake Saturday: check there are eggs' },
  { note: 'Ideas for the garden', days: 5, hour: 18, repeat: 'none', message: 'Order the tomato seeds' },
];

const CHAT: [number, string][] = [
  [0, 'Welcome to the demo household chat 👋'],
  [1, 'Hi! Who is buying groceries this week?'],
  [2, 'I can go on Saturday.'],
  [0, 'Thanks! The shopping list is shared with the group.'],
  [1, 'I added the holiday plan as a group note.'],
  [2, 'Looks great. See you Thursday!'],
];

async function demoUsers(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'email'])
    .where('username_key', 'in', DEMO_USERNAMES.map((name) => identityKey(name)))
    .execute();
}

/**
 * Creates the demo data in one transaction and returns the logins. Refuses (DemoRefused) when demo
 * users exist, unless `force`, which deletes them first (with all they own) in the same transaction.
 * Returns the session keys ended by that deletion, for the caller to announce.
 */
export async function seedDemo(db: Kysely<Database>, dialect: Dialect, options: { iterations: number; force?: boolean; now?: number }): Promise<{ logins: DemoLogin[]; endedSessions: string[] }> {
  const now = options.now ?? Date.now();
  const logins = DEMO_USERNAMES.map((username) => ({ username, password: randomString(20) }));
  const hashes = await Promise.all(logins.map((login) => hashPassword(login.password, options.iterations)));

  const endedSessions = await db.transaction().execute(async (trx) => {
    const existing = await demoUsers(trx);
    const strangers = existing.filter((user) => user.email !== demoEmail(user.username));
    if (strangers.length > 0) throw new DemoRefused(`${strangers.map((user) => user.username).join(', ')} is not a demo user (no ${DEMO_DOMAIN} address): rename that user first; nothing was changed`);
    let ended: string[] = [];
    if (existing.length > 0) {
      if (!options.force) throw new DemoRefused('the demo data is already there (demo-ada, demo-ben, demo-cleo); seed-demo --force replaces it');
      const ids = existing.map((user) => user.id);
      ended = (await trx.selectFrom('sessions').select('session_key').where('user_id', 'in', ids).execute()).map((row) => row.session_key);
      // Everything they own goes with them (ON DELETE CASCADE); other users' notes in their group lose the group.
      await trx.deleteFrom('users').where('id', 'in', ids).execute();
    }

    const usersRepo = new UsersRepository(trx);
    const users = [];
    for (const [i, login] of logins.entries()) {
      users.push(await usersRepo.insert({ username: login.username, email: demoEmail(login.username), password: hashes[i]! }, now - (30 - i) * DAY));
    }
    const ids = users.map((user) => user.id);

    const groups = new GroupsRepository(trx);
    const group = await groups.insertGroup('Demo household', ids[0]!, now - 20 * DAY);
    for (const id of ids) await groups.addMember(group.id, id, now - 20 * DAY);

    const notebooksRepo = new NotebooksRepository(trx);
    const tagsRepo = new TagsRepository(trx);
    const notebooks: number[] = [];
    const tags: [number, number][] = [];
    for (const [i, id] of ids.entries()) {
      notebooks.push((await notebooksRepo.insert(id, { title: ['Recipes', 'Books', 'Music'][i]!, description: 'A demo notebook', color: ['#2e7d32', '#1565c0', '#6a1b9a'][i]! }, now - 15 * DAY)).id);
      tags.push([(await tagsRepo.insert(id, { name: 'favourite', color: '#c62828' }, now - 15 * DAY)).id, (await tagsRepo.insert(id, { name: 'someday', color: '#6c757d' }, now - 15 * DAY)).id]);
    }

    const notes = new NotesRepository(trx, dialect);
    const noteIds = new Map<string, number>();
    for (const [i, note] of NOTES.entries()) {
      const fields = {
        title: note.title,
        content: note.content,
        notebook_id: note.notebook ? notebooks[note.owner]! : null,
        group_id: note.inGroup ? group.id : null,
        priority: note.priority ?? 0,
        is_pinned: note.pinned ? 1 : 0,
        is_archived: note.archived ? 1 : 0,
      };
      noteIds.set(note.title, await notes.insert(ids[note.owner]!, fields, (note.tags ?? []).map((tag) => tags[note.owner]![tag]!), now - (NOTES.length - i) * HOUR));
    }

    // Demo users have the default zone; the scheduler (started with the server) delivers these.
    for (const reminder of REMINDERS) {
      const wall = { ...wallTimeAt(DEFAULT_TIME_ZONE, now + reminder.days * DAY), hour: reminder.hour, minute: 0, second: 0 };
      await trx
        .insertInto('reminders')
        .values({
          note_id: noteIds.get(reminder.note)!,
          owner_id: ids[0]!,
          local_time: formatWallTime(wall),
          time_zone: DEFAULT_TIME_ZONE,
          repeat: reminder.repeat,
          message: reminder.message,
          next_due_at: resolveWallTime(wall, DEFAULT_TIME_ZONE).instant,
          created_at: now,
        })
        .execute();
    }

    const todo = listsRepository(trx, TODO);
    const chores = await todo.insertList(ids[0]!, { title: 'Chores', description: 'Shared with demo-ben', group: null, group_permission: 'read' }, now - 10 * DAY);
    await todo.shares.add(chores, ids[1]!);
    for (const [text, due] of [
      ['Water the plants', -1],
      ['Fix the dripping tap', 2],
      ['Book the holiday', 7],
      ['Sort the photos', null],
    ] as const) {
      await todo.items.insert(ids[0]!, chores, { text, due_date: due === null ? null : dateIn(due, now), assignee: null }, now - 10 * DAY);
    }
    await trx.updateTable('todo_items').set({ is_done: 1 }).where('list_id', '=', chores).where('text', '=', 'Sort the photos').execute();

    const shopping = listsRepository(trx, SHOPPING);
    const market = await shopping.insertList(ids[1]!, { title: 'Weekend groceries', store_name: 'Market', group: group.id, group_permission: 'tick' }, now - 5 * DAY);
    for (const [name, quantity, unit, price] of [
      ['Flour', 1000, 'kg', 129],
      ['Eggs', 12000, '', 349],
      ['Milk', 1500, 'l', 99],
      ['Apples', 2500, 'kg', null],
    ] as const) {
      await shopping.items.insert(ids[1]!, market, { name, quantity, unit, estimated_price: price }, now - 5 * DAY);
    }

    for (const [i, [author, content]] of CHAT.entries()) {
      await trx.insertInto('chat_messages').values({ group_id: group.id, author_id: ids[author]!, content, created_at: now - (CHAT.length - i) * 10 * 60_000 }).execute();
    }
    return ended;
  });
  return { logins, endedSessions };
}
