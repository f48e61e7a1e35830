import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabaseForEachTest } from '../../../test/index.js';
import { matchingNotesQuery, searchTerms } from '../../features/notes/search.js';
import { migrateToLatest } from '../migrate.js';
import type { Database } from '../schema.js';
import { searchWords } from '../search-words.js';
import { isPostgres } from './dialect.js';
import { migrations } from './index.js';

// An install with notes upgrades: each note gets its search words, both databases index those
// instead of the raw text, inflected words are found, and the migration goes back down to 0003's
// indexes of title and content.
const before0031 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0031'));

let db: Kysely<Database>;
freshDatabaseForEachTest((fresh) => {
  db = fresh;
}, before0031);

async function note(ownerId: number, title: string, content: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into notes (owner_id, title, content, created_at, updated_at) values (${ownerId}, ${title}, ${content}, 0, 0) returning id`.execute(db);
  return Number(rows[0]!.id);
}

async function found(query: string): Promise<number[]> {
  const ids = matchingNotesQuery(db, isPostgres(db) ? 'postgres' : 'sqlite', db.selectFrom('notes'), searchTerms(query).text, { limit: 10, offset: 0 })!;
  const { rows } = await db.executeQuery<{ id: number }>(ids.compile());
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

describe('0031_search_words on an install with notes', () => {
  it('fills every note’s search words without moving its owner’s version, finds inflected words, and goes back down', async () => {
    const { rows } = await sql<{ id: number }>`insert into users (username, username_key, username_skeleton, email, password, date_joined) values ('Olena', 'olena', 'olena', '', 'x', 0) returning id`.execute(db);
    const olena = Number(rows[0]!.id);
    const borsch = await note(olena, 'Борщ', "М'ясо, буряк і капуста");
    const meeting = await note(olena, 'Збори', 'У Львові, в четвер');
    // Enough notes for several of the migration's batches.
    for (let i = 0; i < 450; i += 1) await note(olena, `Нотатка ${i}`, 'apples');
    const userVersion = async () => Number((await db.selectFrom('users').select('view_version').where('id', '=', olena).executeTakeFirstOrThrow()).view_version);
    const before = await userVersion();

    await migrateToLatest(db);

    const notes = await db.selectFrom('notes').select(['title', 'content', 'search_words']).execute();
    expect(notes).toHaveLength(452);
    for (const row of notes) expect(row.search_words).toBe(searchWords(row.title, row.content));
    expect(await userVersion()).toBe(before);
    expect(await found('борщу')).toEqual([borsch]);
    expect(await found('мʼясо')).toEqual([borsch]);
    expect(await found('зборах львова')).toEqual([meeting]);
    expect(await found('apple')).toHaveLength(10);
    // A note written after it is indexed as it is saved.
    const later = Number((await db.insertInto('notes').values({ owner_id: olena, title: 'Вареники', content: '', search_words: searchWords('Вареники', ''), created_at: 1, updated_at: 1 }).returning('id').executeTakeFirstOrThrow()).id);
    expect(await found('вареників')).toEqual([later]);

    await (migrations['0031_search_words'] as Migration).down!(db);
    const { rows: after } = await sql<Record<string, unknown>>`select * from notes where id = ${borsch}`.execute(db);
    expect(after[0]).not.toHaveProperty('search_words');
    // 0003's indexes of the raw text are back, and know every note.
    const raw = isPostgres(db)
      ? await sql<{ id: number }>`select id from notes where search_vector @@ to_tsquery('simple', 'борщ:*')`.execute(db)
      : await sql<{ id: number }>`select rowid as id from notes_fts where notes_fts match '"борщ"*'`.execute(db);
    expect(raw.rows.map((row) => Number(row.id))).toEqual([borsch]);
  });
});
