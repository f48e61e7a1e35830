import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as ukrainianStemmer } from '@orama/stemmers/ukrainian';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// Search finds inflected words, and the same notes on both databases (issue 56, item 23). Until
// now SQLite's FTS5 (unicode61, accents removed) and PostgreSQL's tsvector ('simple', the server's
// locale) each split and folded the raw title and content their own way, and a word matched only
// as the start of a stored word: борщ found борщу, but борщу did not find борщ.
//
// Now each note stores `search_words`, worked out in JavaScript (db/search-words.ts): its words
// and their stems, each encoded as a plain ASCII token, and both indexes are of that column only.
// The column is filled here for every existing note.

/**
 * A frozen copy of db/search-words.ts searchWords as it was when this migration was written:
 * never edit it. A later change of those rules comes with a migration of its own that fills the
 * column again (db/search-words.test.ts checks that the newest such copy agrees with the rules).
 */
export function searchWordsOf(title: string, content: string): string {
  const apostrophes = "'ʼ’‘`ʹ";
  const inner = new RegExp(`(?<=[\\p{L}\\p{M}\\p{N}])[${apostrophes}]+(?=[\\p{L}\\p{N}])`, 'gu');
  const other = new RegExp(`[${apostrophes}]`, 'gu');
  const words = (text: string) =>
    (text.replaceAll('´', "'").normalize('NFKC').toLowerCase().toUpperCase().toLowerCase().replace(inner, '').replace(other, ' ').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map((word) => {
      const plain = word.normalize('NFD').replace(/(\p{Script=Latin})\p{M}+/gu, '$1').replace(/(\p{Script=Cyrillic})[\u0300\u0301]+/gu, '$1').normalize('NFC');
      const points = Array.from(plain);
      return points.length > 64 ? points.slice(0, 64).join('') : plain;
    });
  const stemOf = (word: string): string | null => {
    if (word.length < 3) return null;
    let stem: string;
    if (/^[a-z]+$/.test(word)) stem = englishStemmer(word);
    else if (/^\p{Script=Cyrillic}+$/u.test(word)) {
      ukrainianStemmer('аб');
      stem = ukrainianStemmer(word)
        .replace(/(?<=^\p{L}{3,})[аеєиіїоуюяь]+$/u, '')
        .replace(/(?<=^\p{L}{2,})([оеієї])((?:ст|[бвгґджзклмнпрстфхцчшщ])ь?)$/u, (_match, vowel: string, end: string) => (vowel === 'є' || vowel === 'ї' ? 'ї' : 'і') + end);
    } else return null;
    return stem.length >= 3 && stem !== word ? stem : null;
  };
  const token = (word: string) => [...new TextEncoder().encode(word)].map((byte) => 'abcdefghijklmnop'[byte >> 4]! + 'abcdefghijklmnop'[byte & 15]!).join('');
  const tokens = new Set<string>();
  let length = 0;
  const add = (word: string) => {
    const encoded = token(word);
    if (tokens.has(encoded) || length + encoded.length + 1 > 400_000) return;
    tokens.add(encoded);
    length += encoded.length + 1;
  };
  for (const word of [...words(title), ...words(content)]) {
    add(word);
    const stem = stemOf(word);
    if (stem !== null) add(stem);
  }
  return [...tokens].join(' ');
}

const BATCH = 200;

/** Fills `search_words` for every note, in batches by id, in the caller's transaction. */
async function fillSearchWords(db: Kysely<any>): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('notes').select(['id', 'title', 'content']).where('id', '>', after).orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) return;
    const values = sql.join(rows.map((row) => sql`(cast(${Number(row.id)} as integer), cast(${searchWordsOf(String(row.title), String(row.content))} as text))`));
    // The note's own view version moves in the same statement, so migration 0007's trigger (which
    // skips an update that moves it) does not also move its owner's and group's for each note:
    // nothing a page shows changed.
    await sql`with filled(id, words) as (values ${values})
      update notes set search_words = filled.words, view_version = view_version + 1 from filled where notes.id = filled.id`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    // The old vector goes first (its GIN index with it), so that filling the column does not
    // work it out again for every note. The migration runs in one transaction.
    await sql`alter table notes drop column search_vector`.execute(db);
    await sql`alter table notes add column search_words text not null default ''`.execute(db);
    await fillSearchWords(db);
    // Without positions (strip): a search only asks whether a note holds a word.
    await sql`alter table notes add column search_vector tsvector generated always as (strip(to_tsvector('simple', search_words))) stored`.execute(db);
    await sql`create index notes_search on notes using gin (search_vector)`.execute(db);
    return;
  }
  for (const trigger of ['notes_fts_update', 'notes_fts_delete', 'notes_fts_insert']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists notes_fts`.execute(db);
  await sql`alter table notes add column search_words text not null default ''`.execute(db);
  // In the migration's transaction; else in one of its own, not one per batch.
  await (db.isTransaction ? fillSearchWords(db) : db.transaction().execute((trx) => fillSearchWords(trx)));
  // The tokens are ASCII letters: the ascii tokenizer keeps each whole. Without positions
  // (detail=none): a search only asks whether a note holds a word, never a phrase.
  await sql`create virtual table notes_fts using fts5(
    search_words, content='notes', content_rowid='id', tokenize='ascii', detail='none'
  )`.execute(db);
  await sql`insert into notes_fts(notes_fts) values ('rebuild')`.execute(db);
  await sql`create trigger notes_fts_insert after insert on notes begin
    insert into notes_fts(rowid, search_words) values (new.id, new.search_words);
  end`.execute(db);
  await sql`create trigger notes_fts_delete after delete on notes begin
    insert into notes_fts(notes_fts, rowid, search_words) values ('delete', old.id, old.search_words);
  end`.execute(db);
  // Only a change of the indexed words touches the index: pinning or archiving costs nothing.
  await sql`create trigger notes_fts_update after update of search_words on notes begin
    insert into notes_fts(notes_fts, rowid, search_words) values ('delete', old.id, old.search_words);
    insert into notes_fts(rowid, search_words) values (new.id, new.search_words);
  end`.execute(db);
}

/** Back to migration 0003's indexes of the raw title and content. */
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table notes drop column search_vector`.execute(db);
    await sql`alter table notes drop column search_words`.execute(db);
    await sql`alter table notes add column search_vector tsvector generated always as (
      setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', content), 'B')
    ) stored`.execute(db);
    await sql`create index notes_search on notes using gin (search_vector)`.execute(db);
    return;
  }
  for (const trigger of ['notes_fts_update', 'notes_fts_delete', 'notes_fts_insert']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists notes_fts`.execute(db);
  await sql`alter table notes drop column search_words`.execute(db);
  await sql`create virtual table notes_fts using fts5(
    title, content, content='notes', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
  )`.execute(db);
  await sql`insert into notes_fts(notes_fts) values ('rebuild')`.execute(db);
  await sql`create trigger notes_fts_insert after insert on notes begin
    insert into notes_fts(rowid, title, content) values (new.id, new.title, new.content);
  end`.execute(db);
  await sql`create trigger notes_fts_delete after delete on notes begin
    insert into notes_fts(notes_fts, rowid, title, content) values ('delete', old.id, old.title, old.content);
  end`.execute(db);
  await sql`create trigger notes_fts_update after update of title, content on notes begin
    insert into notes_fts(notes_fts, rowid, title, content) values ('delete', old.id, old.title, old.content);
    insert into notes_fts(rowid, title, content) values (new.id, new.title, new.content);
  end`.execute(db);
}
