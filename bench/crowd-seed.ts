import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { UsersRepository } from '../src/features/accounts/repository.js';
import { GroupsRepository } from '../src/features/groups/repository.js';
import { NotesRepository } from '../src/features/notes/repository.js';
import { TagsRepository } from '../src/features/tags/repository.js';
import { newToken } from '../src/platform/api/tokens.js';
import { SessionStore, sessionAuthHash } from '../src/platform/chain/session.js';
import { hashPassword } from '../src/platform/passwords/passwords.js';
import { BENCH_SECRET } from './lib.js';
import { BENCH_ITERATIONS, BENCH_PASSWORD, random, vocabulary } from './notes-seed.js';

// The crowd of `npm run bench crowd`: 60 users in groups of 20, 30 notes each, every
// third note in the user's group, written through the repositories (which alone work out name
// keys and excerpts), a session for each user, as logging in would leave, and a read-only API token.

export const USERS = 60;
export const GROUP_SIZE = 20;
export const NOTES_EACH = 30;
const SHARED_EVERY = 3;
const TAGS_EACH = 2;
/** The CSRF secret every crowd browser holds in its `csrftoken` cookie (forms may send it as is). */
export const CROWD_CSRF = 'CrowdCsrfSecret0123456789abcdefg';

export interface CrowdNote {
  id: number;
  title: string;
  content: string;
  groupId: number | null;
  priority: number;
  tagIds: number[];
}

export interface CrowdUser {
  id: number;
  username: string;
  groupId: number;
  /** The Cookie header of this user's browser: session and CSRF cookie. */
  cookie: string;
  /** A read-only personal access token of this user, for the JSON API's share of the crowd. */
  token: string;
  own: CrowdNote[];
  /** Every note this user may open: their own and the notes their group's members shared. */
  visible: number[];
}

export async function seedCrowd(databaseUrl: string): Promise<CrowdUser[]> {
  const database = openDatabase(databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    const next = random(USERS);
    const words = vocabulary(500, next);
    const text = (count: number) => Array.from({ length: count }, () => words[Math.floor(next() * words.length)]!).join(' ');
    const password = await hashPassword(BENCH_PASSWORD, BENCH_ITERATIONS);
    const now = Date.now();
    const users = await database.db.transaction().execute(async (trx) => {
      const accounts = new UsersRepository(trx);
      const groups = new GroupsRepository(trx);
      const tags = new TagsRepository(trx);
      const notes = new NotesRepository(trx, database.dialect);
      const seeded: (Omit<CrowdUser, 'cookie' | 'token' | 'visible'> & { password: string; tagIds: number[] })[] = [];
      let groupId = 0;
      for (let u = 0; u < USERS; u++) {
        const user = await accounts.insert({ username: `crowd${u}`, email: '', password }, now);
        if (u % GROUP_SIZE === 0) groupId = (await groups.insertGroup(`crowd group ${u / GROUP_SIZE + 1}`, user.id, now)).id;
        await groups.addMember(groupId, user.id, now);
        const tagIds: number[] = [];
        for (let t = 0; t < TAGS_EACH; t++) tagIds.push((await tags.insert(user.id, { name: `topic${t + 1}`, color: '#aa5500' }, now)).id);
        seeded.push({ id: user.id, username: user.username, groupId, own: [], password: user.password, tagIds });
      }
      // Written in turns, as people would: every user's notes are spread over the whole timeline.
      for (let i = 0; i < NOTES_EACH; i++) {
        for (const [u, user] of seeded.entries()) {
          const note = {
            title: `${text(4)} ${u}.${i}`,
            content: `# ${text(3)}\n\n${text(60)}\n\n- ${text(8)}\n- ${text(8)}`,
            groupId: i % SHARED_EVERY === 0 ? user.groupId : null,
            priority: i % 4,
            // Every other note carries one of its owner's tags, so the list shows some.
            tagIds: i % 2 === 0 ? [user.tagIds[(i / 2) % TAGS_EACH]!] : [],
          };
          const fields = { title: note.title, content: note.content, notebook_id: null, group_id: note.groupId, priority: note.priority, is_pinned: 0, is_archived: 0 };
          const id = await notes.insert(user.id, fields, note.tagIds, now - (i * USERS + u) * 60_000);
          user.own.push({ id, ...note });
        }
      }
      return seeded;
    });
    const sessions = new SessionStore(database.db, 86_400);
    const crowd: CrowdUser[] = [];
    for (const { id, username, groupId, own, password: hash } of users) {
      const session = await sessions.create(id, sessionAuthHash(BENCH_SECRET, hash), 'bench crowd');
      const token = newToken();
      await database.db.insertInto('access_tokens').values({ user_id: id, name: 'bench crowd', scope: 'read', token_hash: token.hash, hint: token.hint, created_at: now }).execute();
      const shared = users.filter((other) => other.groupId === groupId && other.id !== id).flatMap((other) => other.own.filter((note) => note.groupId !== null));
      crowd.push({ id, username, groupId, own, cookie: `sessionid=${session.key}; csrftoken=${CROWD_CSRF}`, token: token.token, visible: [...own, ...shared].map((note) => note.id) });
    }
    // As in notes-seed.ts: a bulk load has to ask for what autovacuum would have done as the
    // tables grew (statistics and the visibility map), and a server may run with it off.
    if (database.dialect === 'postgres') await sql`vacuum analyze`.execute(database.db);
    return crowd;
  } finally {
    await database.close();
  }
}
