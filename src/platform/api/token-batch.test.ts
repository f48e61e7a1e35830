import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createToken, createUser, QueryCounter, type TestApp } from '../../../test/index.js';
import { CallerColumns } from '../chain/caller-columns.js';
import { TokenStore, newToken } from './tokens.js';

// On PostgreSQL the tokens that API requests ask for at once are read in one statement
// (tokens.ts, as the pages' sessions are); each request must still get its own caller, and an
// unknown, revoked or deactivated user's token nobody. SQLite reads each alone.

let t: TestApp;
const counter = new QueryCounter();
let store: TokenStore;
const postgres = () => t.database.dialect === 'postgres';

beforeAll(async () => {
  t = await buildTestApp();
  // A caller column, as a feature adds one (the groups feature's memberships): each caller's own name.
  const callers = new CallerColumns();
  callers.add({ name: 'name', query: (db, userId) => db.selectFrom('users as named').select('named.username').where('named.id', '=', userId) });
  store = new TokenStore(t.db.withPlugin(counter), callers);
});
afterAll(() => t.close());

describe('tokens read at once', () => {
  it('give each request its own caller with its own caller columns, in one statement on PostgreSQL; the unknown, revoked and deactivated none', async () => {
    const [a, b, c, gone, off] = [await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    const [ta, tb, tc] = [await createToken(t.db, a, 'write'), await createToken(t.db, b, 'read'), await createToken(t.db, c, 'read')];
    const revoked = await createToken(t.db, gone);
    await t.db.deleteFrom('access_tokens').where('user_id', '=', gone.id).execute();
    const deactivated = await createToken(t.db, off);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', off.id).execute();
    const asked = [ta, tb, newToken().token, tc, revoked, deactivated, ta];
    let callers: Awaited<ReturnType<TokenStore['authenticate']>>[] = [];
    const statements = await counter.during(async () => {
      callers = await Promise.all(asked.map((token) => store.authenticate(token)));
    });
    expect(callers.map((caller) => caller?.user.id ?? null)).toEqual([a.id, b.id, null, c.id, null, null, a.id]);
    expect(callers.map((caller) => caller?.scope ?? null)).toEqual(['write', 'read', null, 'read', null, null, 'write']);
    expect(callers.map((caller) => caller?.columns.name ?? null)).toEqual([a.username, b.username, null, c.username, null, null, a.username]);
    expect(statements).toBe(postgres() ? 1 : asked.length);
  });
});

describe('a token revoked while tokens are being read', () => {
  it('is refused to every request that asks after the revocation, though statements were out when it came', async () => {
    const user = await createUser(t.db);
    const token = await createToken(t.db, user);
    // Requests keep asking, so that a statement is out (or due) whenever the revocation commits.
    let revoked = false;
    const afterRevocation: Promise<Awaited<ReturnType<TokenStore['authenticate']>>>[] = [];
    const asking = (async () => {
      // Until 20 have asked after the revocation (bounded, should the revocation never come).
      for (let turn = 0; turn < 100_000 && afterRevocation.length < 20; turn++) {
        const asked = store.authenticate(token);
        if (revoked) afterRevocation.push(asked);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    await t.db.deleteFrom('access_tokens').where('user_id', '=', user.id).execute();
    revoked = true;
    await asking;
    const callers = await Promise.all(afterRevocation);
    expect(callers).toHaveLength(20);
    expect(callers.every((caller) => caller === null)).toBe(true);
  });
});
