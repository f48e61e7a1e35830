import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createNote, findNote, loggedIn, type TestApp } from '../../test/index.js';

// With every connection busy, a form's POST waits for one before the page reads asked before it
// (PostgreSQL, pg-pool.ts): its session and its write each go to the first line. Without either
// (one line for all, or the session read in the reads' line) the page is answered first. On SQLite the
// page is read on the reader connection while the transaction holds the writer (sqlite-driver.ts):
// the same requests are answered, in no promised order.

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ PAGE_CACHE_MB: '0', DATABASE_POOL_SIZE: '1' });
});
afterAll(() => t.close());

/** Waits (a few seconds at most) until `holds` is true of the database's waiting lines. */
async function until(holds: (waiting: { first: number; second: number }) => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!holds(t.database.waiting!())) {
    if (Date.now() > deadline) throw new Error(`waiting: ${JSON.stringify(t.database.waiting!())}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the write lane', () => {
  it('an edit asked while a page waits for the only connection is saved and answered first (PostgreSQL); both are answered right', async () => {
    const { user, browser } = await loggedIn(t);
    const note = await createNote(t.db, user, { title: 'Before' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A transaction holds the pool's one connection until released.
    const holder = t.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', user.id).execute();
      await held;
    });
    const answered: string[] = [];
    let page, edit;
    try {
      page = browser.get('/notes/').then((response) => (answered.push('page'), response));
      if (t.database.dialect === 'postgres') await until((waiting) => waiting.first + waiting.second === 1);
      edit = browser.post(`/notes/${note.id}/edit/`, { title: 'After', content: 'Saved first', priority: 1 }).then((response) => (answered.push('edit'), response));
      if (t.database.dialect === 'postgres') await until((waiting) => waiting.first + waiting.second === 2);
    } finally {
      release();
      await holder;
    }
    const [pageResponse, editResponse] = await Promise.all([page, edit]);
    expect(pageResponse.statusCode).toBe(200);
    expect(editResponse.statusCode).toBe(302);
    expect(editResponse.headers.location).toBe(`/notes/${note.id}/`);
    expect((await findNote(t.db, note.id))?.title).toBe('After');
    expect(answered).toHaveLength(2);
    if (t.database.dialect === 'postgres') expect(answered).toEqual(['edit', 'page']);
  });
});
