import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createToken, createUser, type TestApp } from '../../../test/index.js';
import { CallerColumns } from '../../platform/chain/caller-columns.js';
import { SessionStore, sessionAuthHash } from '../../platform/chain/session.js';
import { TokenStore } from '../../platform/api/tokens.js';
import { MEMBERSHIPS } from './memberships.js';

// The caller's groups, read with their session or API token: the ids in order, and their view
// versions as part of the session's view token, so a kept page goes stale with the group.

let t: TestApp;
let sessions: SessionStore;
let tokens: TokenStore;
beforeAll(async () => {
  t = await buildTestApp();
  const callers = new CallerColumns();
  callers.add(MEMBERSHIPS);
  sessions = new SessionStore(t.db, 3600, undefined, { links: [], callers });
  tokens = new TokenStore(t.db, callers);
});
afterAll(() => t.close());

const idsOf = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as { id: number }[]) : (value as { id: number }[])).map((group) => Number(group.id));

describe('the caller’s groups', () => {
  it('move the session’s view token when the user joins a group and when the group changes', async () => {
    const now = Date.now();
    const user = await createUser(t.db);
    const { key } = await sessions.create(user.id, sessionAuthHash(t.config.secretKey, user.password), 'test', now);
    const alone = (await sessions.load(key, now))!;
    expect(idsOf(alone.columns.groups)).toEqual([]);
    expect((await sessions.load(key, now))!.viewToken).toBe(alone.viewToken);
    const group = await createGroup(t.db, user, []);
    const joined = (await sessions.load(key, now))!;
    expect(idsOf(joined.columns.groups)).toEqual([group.id]);
    expect(joined.viewToken).not.toBe(alone.viewToken);
    await t.db.updateTable('groups').set({ view_version: 41 }).where('id', '=', group.id).execute();
    expect((await sessions.load(key, now))!.viewToken).not.toBe(joined.viewToken);
  });

  it('come with an API token too, each caller their own', async () => {
    const [a, b, c] = [await createUser(t.db), await createUser(t.db), await createUser(t.db)];
    const group = await createGroup(t.db, a, [c]);
    const callers = await Promise.all([a, b, c].map(async (user) => tokens.authenticate(await createToken(t.db, user, 'read'))));
    expect(callers.map((caller) => idsOf(caller!.columns.groups))).toEqual([[group.id], [], [group.id]]);
  });
});
