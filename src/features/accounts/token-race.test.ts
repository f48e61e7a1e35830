import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createToken, loggedIn, racingWhileLocked, type TestApp } from '../../../test/index.js';
import { lockKeys } from '../../db/locks.js';
import { encodeUid, makeResetToken } from './reset-tokens.js';
import { TokensRepository, tokensLockKey } from './tokens-repository.js';

// A token being made while its owner's password is reset: the password was checked before the
// reset, so the token is either refused (its session has ended) or revoked by the reset; it never
// outlives it.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'lighthouse-keeper-42';
const tokensOf = async (userId: number) => (await t.db.selectFrom('access_tokens').select('id').where('user_id', '=', userId).execute()).length;

describe('a token made while the password is reset', () => {
  it('is made for a session that is still signed in', async () => {
    const { user, browser } = await loggedIn(t);
    const sessionKey = browser.cookies.get('sessionid')!;
    const created = await new TokensRepository(t.db).create(user.id, { name: 'script', scope: 'read' }, { sessionKey });
    expect(created.ok).toBe(true);
    expect(await tokensOf(user.id)).toBe(1);
  });

  it('is refused once the session that asked has ended, and nothing is stored', async () => {
    const { user, browser } = await loggedIn(t);
    const sessionKey = browser.cookies.get('sessionid')!;
    await t.db.deleteFrom('sessions').where('session_key', '=', sessionKey).execute();
    expect(await new TokensRepository(t.db).create(user.id, { name: 'script', scope: 'read' }, { sessionKey })).toEqual({ ok: false, reason: 'signed-out' });
    expect(await tokensOf(user.id)).toBe(0);
  });

  it('committed while the reset runs, is revoked by it (the reset waits for it)', async () => {
    const { user } = await loggedIn(t);
    await createToken(t.db, user);
    const stored = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const link = `/accounts/reset/${encodeUid(user.id)}/${makeResetToken(t.config.secretKey, stored)}/`;
    const { browser: visitor } = await loggedIn(t);
    // A token's transaction holds the user's token turn with its row not yet committed while the reset is asked for.
    const set = await racingWhileLocked(
      t,
      async (trx) => {
        await lockKeys(trx, [tokensLockKey(user.id)]);
        await createToken(trx, user);
      },
      () => visitor.post(link, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD }),
    );
    expect(set.statusCode).toBe(302);
    expect(await tokensOf(user.id)).toBe(0);
  });
});
