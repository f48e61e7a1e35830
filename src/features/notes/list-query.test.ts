import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createUser, type TestApp } from '../../../test/index.js';
import { PAGE_SIZE, withDetails } from './list-query.js';
import { NotesRepository } from './repository.js';

// The list page without a notebook or tag runs a statement built once per shape (list-query.ts);
// with one it is built each time. Both must list the same notes in the same order: the built-once
// statement against the query the plan tests EXPLAIN, page by page, for users in 0 to 3 groups.

let t: TestApp;
let notes: NotesRepository;
const readers: User[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  notes = new NotesRepository(t.db, t.database.dialect);
  for (let count = 0; count <= 3; count += 1) readers.push(await createUser(t.db));
  const owners = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
  // Reader k is in the first k groups.
  const groups = [];
  for (let index = 0; index < 3; index += 1) groups.push(await createGroup(t.db, owners[index]!, readers.slice(index + 1)));
  // Ties on pinned, priority and time, so that the order's last key (the id) decides too.
  const now = Date.now();
  for (let i = 0; i < 260; i += 1) {
    const owner = [...owners, ...readers][i % 7]!;
    await createNote(t.db, owner, { group_id: i % 7 < 3 ? groups[i % 3]!.id : null, priority: i % 3, is_pinned: i % 11 === 0 ? 1 : 0, is_archived: i % 5 === 0 ? 1 : 0, updated_at: now - (i % 4) });
  }
});
afterAll(() => t.close());

describe('the list page built once', () => {
  it('lists what the query built each time lists, page by page, archived or not, in 0 to 3 groups', async () => {
    let compared = 0;
    let beyondFirst = 0;
    for (const reader of readers) {
      for (const archived of [false, true]) {
        for (let page = 1; page <= 3; page += 1) {
          const built = await withDetails(t.db, await notes.listPageQuery(reader.id, { archived }, page)).execute();
          const listed = await notes.listVisiblePage(reader.id, { archived }, page);
          expect(listed.notes.map((note) => note.id)).toEqual(built.slice(0, PAGE_SIZE).map((row) => row.id));
          expect(listed.hasNext).toBe(built.length > PAGE_SIZE);
          compared += built.length;
          if (page > 1) beyondFirst += built.length;
        }
      }
    }
    // The comparison was not between empty lists, and later pages (the offset) had notes too.
    expect(compared).toBeGreaterThan(300);
    expect(beyondFirst).toBeGreaterThan(50);
  });
});
