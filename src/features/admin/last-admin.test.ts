import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loggedIn, racingWhileLocked, TEST_SECRET, type TestApp, type TestBrowser } from '../../../test/index.js';
import { adminCommands } from '../../cli/admin-commands.js';
import type { User } from '../../db/schema.js';

// The site always keeps an active administrator: neither the users page nor the command line
// takes the last one away, not even two administrators removing each other at the same moment,
// and every refusal is in the audit log with who tried.

const TSX = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
const CLI = new URL('../../cli.ts', import.meta.url).pathname;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
// Each test starts with no administrator at all: the rule is about the whole site's.
beforeEach(async () => {
  await t.db.updateTable('users').set({ is_admin: 0 }).execute();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

async function administrator(): Promise<{ user: User; browser: TestBrowser }> {
  const admin = await loggedIn(t);
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
  return admin;
}

const activeAdmins = async () => (await t.db.selectFrom('users').select('id').where('is_admin', '=', 1).where('is_active', '=', 1).execute()).map((row) => row.id);
const auditFor = (targetId: number) => t.db.selectFrom('audit_log').select(['actor_id', 'actor_name', 'action', 'target_name']).where('target_id', '=', targetId).orderBy('id').execute();
const demote = (username: string) => adminCommands.demote!.run({ config: t.config, args: [username], options: {} });
/** Both admin rows locked, on PostgreSQL: the two changes reach their check together. */
const lockingBoth = (ids: number[]) => (trx: TestApp['db']) => trx.selectFrom('users').select('id').where('id', 'in', ids).forUpdate().execute();

/**
 * A POST whose body is held back: the session (and whether its user is an administrator) is
 * read before the body, so once the body is asked for, the request has passed that check.
 */
async function postWithHeldBody(browser: TestBrowser, url: string) {
  const token = await browser.ensureCsrfCookie();
  let asked!: () => void;
  const bodyAsked = new Promise<void>((resolve) => (asked = resolve));
  const body = new Readable({ read: () => asked() });
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = t.app.inject({
    method: 'POST', url, payload: body,
    headers: { host: 'localhost', origin: 'http://localhost', cookie, 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
  });
  await bodyAsked;
  return {
    response: () => {
      body.push(`csrfmiddlewaretoken=${token}`);
      body.push(null);
      return response;
    },
  };
}

describe('with two active administrators', () => {
  it('one deactivates the other on the page, and the command line demotes one of them', async () => {
    const first = await administrator();
    const second = await administrator();
    expect((await first.browser.post(`/admin/users/${second.user.id}/deactivate/`)).headers.location).toBe('/admin/users/');
    expect(await activeAdmins()).toEqual([first.user.id]);
    expect((await first.browser.post(`/admin/users/${second.user.id}/activate/`)).statusCode).toBe(302);
    await demote(second.user.username);
    expect(await activeAdmins()).toEqual([first.user.id]);
    expect((await auditFor(second.user.id)).map((row) => row.action)).toEqual(['deactivate', 'activate', 'demote']);
  });

  it('a deactivated administrator is not one who runs the site: the command line may demote them', async () => {
    const active = await administrator();
    const { user: dormant } = await administrator();
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', dormant.id).execute();
    await demote(dormant.username);
    expect(await activeAdmins()).toEqual([active.user.id]);
  });
});

describe('the last active administrator', () => {
  it('is not deactivated from the page: the users page again, 400, a message; still active; the audit log names who tried', async () => {
    const { user: last } = await administrator();
    const other = await administrator();
    // The other administrator is deactivated while their request is on its way (past the check
    // of their session): when it acts, the target is the last active administrator.
    const held = await postWithHeldBody(other.browser, `/admin/users/${last.id}/deactivate/`);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', other.user.id).execute();
    const response = await held.response();
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h1>Users</h1>');
    expect(response.body).toContain(`${last.username} is the last active administrator: nobody would be left to run the site. Make someone else an administrator first.`);
    expect(await activeAdmins()).toEqual([last.id]);
    expect(await auditFor(last.id)).toEqual([{ actor_id: other.user.id, actor_name: other.user.username, action: 'deactivate-refused', target_name: last.username }]);
  });

  it('is not demoted from the command line: one line on stderr, exit status 1, still an administrator, the attempt in the audit log', async () => {
    const { user: last, browser } = await administrator();
    const { user: dormant } = await administrator();
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', dormant.id).execute();
    const result = spawnSync(TSX, [CLI, 'demote', last.username], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, SECRET_KEY: TEST_SECRET, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'silent' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`groupnotes: ${last.username} is the last active administrator; make someone else one first (groupnotes promote <username>)\n`);
    expect(result.stdout).toBe('');
    expect(await activeAdmins()).toEqual([last.id]);
    expect(await auditFor(last.id)).toEqual([{ actor_id: null, actor_name: 'command line', action: 'demote-refused', target_name: last.username }]);
    expect((await browser.get('/admin/audit/')).body).toContain('was refused taking administrator from (the last active one)');
  });

  it('survives two administrators deactivating each other at the same moment: one is refused, one is left', async () => {
    const first = await administrator();
    const second = await administrator();
    const [one, two] = await racingWhileLocked(t, lockingBoth([first.user.id, second.user.id]), () =>
      Promise.all([first.browser.post(`/admin/users/${second.user.id}/deactivate/`), second.browser.post(`/admin/users/${first.user.id}/deactivate/`)]),
    );
    expect([one!.statusCode, two!.statusCode].sort()).toEqual([302, 400]);
    const refused = [one!, two!].find((response) => response.statusCode === 400)!;
    expect(refused.body).toContain('is the last active administrator');
    expect(await activeAdmins()).toHaveLength(1);
    const actions = [...(await auditFor(first.user.id)), ...(await auditFor(second.user.id))].map((row) => row.action).sort();
    expect(actions).toEqual(['deactivate', 'deactivate-refused']);
  });

  it('survives two command-line demotes at the same moment: one fails, one administrator is left', async () => {
    const first = await administrator();
    const second = await administrator();
    const outcomes = await racingWhileLocked(t, lockingBoth([first.user.id, second.user.id]), () =>
      Promise.allSettled([demote(first.user.username), demote(second.user.username)]),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected')!;
    expect(String(failure.reason)).toMatch(/is the last active administrator/);
    expect(await activeAdmins()).toHaveLength(1);
  });
});
