import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { searchWords } from '../src/db/search-words.js';
import { plainExcerpt } from '../src/features/notes/excerpt.js';
import { hashPassword } from '../src/platform/passwords/passwords.js';
import { identityKey } from '../src/platform/identity-key.js';
import { insertInBatches, withNoteIndexesAside } from './bulk-load.js';

export const BENCH_PASSWORD = 'bench-password-123';
export const BENCH_ITERATIONS = 1000;
/** A rare searched word: in about one note in twenty (five text parts, 1% each), like a real topic word. */
export const RARE_WORD = 'word';
/** A common searched word: in a quarter of the notes, so a page of matches is found at once but they are many. */
export const COMMON_WORD = 'common';

/** A deterministic pseudo-random sequence, so every run seeds the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'de', 'va', 'xo', 'bu', 'ze', 'fi', 'gra', 'tho'];

export function vocabulary(size: number, next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  }
  words.delete(RARE_WORD);
  words.delete(COMMON_WORD);
  return [...words];
}

/**
 * A database where user "reader" sees `visible` notes: half their own, a quarter from each of two
 * groups (written by the two group owners), plus as many notes of a stranger the reader never
 * sees, so visibility is really tested. Returns the reader's username.
 */
export async function seedNotes(databaseUrl: string, visible: number): Promise<string> {
  const handle = openDatabase(databaseUrl);
  const db = handle.db;
  await migrateToLatest(db);
  const next = random(visible);
  const words = vocabulary(2000, next);
  const password = await hashPassword(BENCH_PASSWORD, BENCH_ITERATIONS);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const users = await trx
      .insertInto('users')
      .values(['reader', 'friend1', 'friend2', 'stranger'].map((username) => ({ username, username_key: identityKey(username), email: '', password, date_joined: now })))
      .returning(['id', 'username'])
      .execute();
    const [reader, friend1, friend2, stranger] = users.map((user) => user.id) as [number, number, number, number];
    const groupIds: number[] = [];
    for (const [index, owner] of [friend1, friend2].entries()) {
      const group = await trx.insertInto('groups').values({ name: `bench group ${index + 1}`, name_key: identityKey(`bench group ${index + 1}`), owner_id: owner, created_at: now }).returning('id').executeTakeFirstOrThrow();
      await trx.insertInto('group_members').values([{ group_id: group.id, user_id: owner, joined_at: now }, { group_id: group.id, user_id: reader, joined_at: now }]).execute();
      groupIds.push(group.id);
    }
    const notebooks = await trx
      .insertInto('notebooks')
      .values(Array.from({ length: 8 }, (_, i) => ({ owner_id: reader, title: `Notebook ${i + 1}`, title_key: `notebook ${i + 1}`, color: '#336699', created_at: now, updated_at: now })))
      .returning('id')
      .execute();
    const tags = await trx
      .insertInto('tags')
      .values(Array.from({ length: 12 }, (_, i) => ({ owner_id: reader, name: `tag${i + 1}`, name_key: identityKey(`tag${i + 1}`), color: '#aa5500', created_at: now })))
      .returning('id')
      .execute();

    const text = (count: number) => {
      const picked = Array.from({ length: count }, () => words[Math.floor(next() * words.length)]!);
      if (next() < 0.01) picked[Math.floor(next() * count)] = RARE_WORD;
      return picked.join(' ');
    };
    // Interleaved as real use would: every source writes now and then, none owns a block of ids.
    const sources: { owner: number; group: number | null; share: number }[] = [
      { owner: reader, group: null, share: 2 },
      { owner: friend1, group: groupIds[0]!, share: 1 },
      { owner: friend2, group: groupIds[1]!, share: 1 },
      { owner: stranger, group: null, share: 2 },
    ];
    const cycle = sources.flatMap((source) => Array.from({ length: source.share }, () => source));
    const owners = Array.from({ length: visible * 1.5 }, (_, i) => cycle[i % cycle.length]!);
    const notes = owners.map(({ owner, group }, i) => {
      const body = next() < 0.25 ? `${text(30)} ${COMMON_WORD} ${text(30)}` : text(60);
      const content = `# ${text(3)}\n\n${body}\n\n- ${text(8)}\n- ${text(8)}`;
      const title = `${text(4)} ${i}`;
      return {
        owner_id: owner,
        title,
        content,
        excerpt: plainExcerpt(content),
        search_words: searchWords(title, content),
        notebook_id: owner === reader && next() < 0.5 ? notebooks[Math.floor(next() * notebooks.length)]!.id : null,
        group_id: group,
        priority: Math.floor(next() * 4),
        is_pinned: next() < 0.01 ? 1 : 0,
        is_archived: next() < 0.1 ? 1 : 0,
        created_at: now - i * 60_000,
        updated_at: now - Math.floor(next() * 365 * 86_400_000),
      };
    });
    await withNoteIndexesAside(trx, handle.dialect, async () => {
      await insertInBatches(trx, 'notes', notes);
      const readerNotes = await trx.selectFrom('notes').select('id').where('owner_id', '=', reader).execute();
      const links = readerNotes.flatMap(({ id }) => (next() < 0.6 ? [{ note_id: id, tag_id: tags[Math.floor(next() * tags.length)]!.id }] : []));
      await insertInBatches(trx, 'note_tags', links);
    });
  });
  // A real instance's notes arrive over months, and PostgreSQL's autovacuum analyzes the table
  // (and sets its visibility map) as it grows; a bulk load has to ask, or the planner would see
  // an empty table.
  if (handle.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  await handle.close();
  return 'reader';
}
