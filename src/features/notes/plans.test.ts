import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { searchWords } from '../../db/search-words.js';
import { buildTestApp, createGroup, createNote, createUser, type TestApp } from '../../../test/index.js';
import { NotesApiRepository } from './api-repository.js';
import { NotesRepository } from './repository.js';
import { searchTerms } from './search.js';

// The list and search stay fast with 100,000 visible notes only if the databases read them off
// the indexes in order and stop early. These tests pin the plans (EXPLAIN), on SQLite and PostgreSQL.

let t: TestApp;
let reader: User;
let notes: NotesRepository;

beforeAll(async () => {
  t = await buildTestApp();
  reader = await createUser(t.db);
  const [f1, f2, stranger] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
  const [g1, g2] = [await createGroup(t.db, f1, [reader]), await createGroup(t.db, f2, [reader])];
  for (let i = 0; i < 40; i += 1) {
    await createNote(t.db, [reader, f1, f2, stranger][i % 4]!, { group_id: [null, g1.id, g2.id, null][i % 4]!, priority: i % 4, content: `lorem ${i}` });
  }
  // Enough rows that the planners' statistics, not the table's tininess, decide the plans.
  const now = Date.now();
  for (let batch = 0; batch < 5; batch += 1) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      owner_id: stranger.id, title: `bulk ${batch}-${i}`, content: 'lorem ipsum', excerpt: 'lorem ipsum', search_words: searchWords(`bulk ${batch}-${i}`, 'lorem ipsum'), created_at: now, updated_at: now - i,
    }));
    await t.db.insertInto('notes').values(rows).execute();
  }
  await sql`analyze`.execute(t.db);
  notes = new NotesRepository(t.db, t.database.dialect);
});
afterAll(() => t.close());

/**
 * The plan as text. PostgreSQL is told to avoid sequential scans (and, for the list, sorts), as
 * it would with many rows: the test asks whether an index-ordered plan exists and is chosen.
 */
async function plan(query: CompiledQuery, { avoidSorts = false } = {}): Promise<string> {
  if (t.database.dialect === 'sqlite') {
    const explained = await t.db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` } as CompiledQuery<{ detail: string }>);
    return explained.rows.map((row) => row.detail).join('\n');
  }
  return t.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    if (avoidSorts) await sql`set local enable_sort = off`.execute(trx);
    const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` } as CompiledQuery<{ 'QUERY PLAN': string }>);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe('query plans', () => {
  it('the list reads each branch in order from its index, with no full scan or sort of the notes', async () => {
    for (const page of [1, 20]) {
      const text = await plan((await notes.listPageQuery(reader.id, { archived: false }, page)).compile(), { avoidSorts: true });
      expect(text).toMatch(/notes_owner_list/);
      expect(text.match(/notes_group_list/g)).toHaveLength(2);
      if (t.database.dialect === 'sqlite') {
        expect(text).toMatch(/MERGE \(UNION ALL\)/);
        expect(text).not.toMatch(/SCAN notes(?! USING)/);
        expect(text).not.toMatch(/TEMP B-TREE/);
      } else {
        expect(text).toMatch(/Merge Append/);
        expect(text).not.toMatch(/Seq Scan on notes/);
        expect(text).not.toMatch(/(^|-> +)Sort +\(/m);
        expect(text).toMatch(/Index (Only )?Scan Backward using notes_owner_list/);
      }
    }
  });

  it('the API\'s list from a cursor starts each branch\'s index scan at the key: no full scan or sort, however deep', async () => {
    const api = new NotesApiRepository(t.db, t.database.dialect);
    const text = await plan((await api.listAfterQuery(reader.id, { archived: false }, [0, 1, Date.now(), 30], 50)).compile(), { avoidSorts: true });
    expect(text).toMatch(/notes_owner_list/);
    expect(text.match(/notes_group_list/g)).toHaveLength(2);
    if (t.database.dialect === 'sqlite') {
      expect(text).toMatch(/MERGE \(UNION ALL\)/);
      expect(text).not.toMatch(/SCAN notes(?! USING)/);
      expect(text).not.toMatch(/TEMP B-TREE/);
      // The key bounds the index search itself, rather than filtering what a scan read.
      expect(text).toMatch(/SEARCH notes USING (COVERING )?INDEX notes_owner_list \(owner_id=\? AND is_archived=\? AND \(?is_pinned/);
    } else {
      expect(text).toMatch(/Merge Append/);
      expect(text).not.toMatch(/(^|-> +)Sort +\(/m);
      expect(text).toMatch(/Index Cond: \(\(owner_id = \d+\) AND \(is_archived = [^)]+\) AND \(ROW\(is_pinned, priority, updated_at, id\) < ROW/);
    }
  });

  it('search never walks the whole notes table in id order, and asks the full-text index when the newest notes hold no page', async () => {
    for (const word of ['lorem', 'nowhere']) {
      const query = notes.searchPageQuery(reader.id, searchTerms(word), { archived: false }, 1);
      const text = await plan(query!.compile());
      if (t.database.dialect === 'sqlite') {
        // FTS5 hands out matches newest first itself (index flags 192 = ORDER BY rowid DESC consumed):
        // no sort inside the text branch; what is sorted after is at most a page of ids per branch.
        expect(text).toMatch(/SCAN notes_fts VIRTUAL TABLE INDEX 192:/);
        expect(/CO-ROUTINE text\n([^]*?)\nSCAN text/.exec(text)?.[1]).not.toMatch(/TEMP B-TREE/);
        // The tag-name branch (search-tags.ts) starts from the caller's own tags, never from the notes.
        expect(text).toMatch(/CO-ROUTINE tagged\nSEARCH tags USING COVERING INDEX tags_owner_name_key/);
      } else {
        // Two tiers (see search.ts): a walk down the primary key only within the newest notes
        // (or the one-row read of max(id) that bounds them), then, only if those held no page,
        // every match; each gated by a check made once.
        const walks = text.match(/Scan Backward using notes_pkey/g) ?? [];
        const boundedWalks = text.match(/Scan Backward using notes_pkey[^\n]*\n\s*Index Cond: \(id (>|IS NOT NULL)/g) ?? [];
        expect(walks).toHaveLength(boundedWalks.length);
        expect(text.match(/One-Time Filter/g)).toHaveLength(2);
        expect(text).not.toMatch(/Seq Scan on notes/);
        expect(text).toMatch(/search_vector @@/);
        // In the window, a note's words are looked up (by id) only once the scope has passed it:
        // its tsvector, stored out of line, is unpacked for the caller's candidates only.
        // (A word with a stem asks for either: 'nowhere' is `<nowhere>:* | <nowher>`.)
        expect(text).toMatch(/Index Cond: \(\(?id > [^\n]*\n\s*Filter: \([^\n]*owner_id = \d+[^\n]*\(SubPlan \d+\) @@ '''\w+'':\*( \| ''\w+'')?'::tsquery\)\)\n/);
        if (word === 'nowhere') expect(text).toMatch(/Bitmap Index Scan on notes_search/);
      }
    }
  });
});
