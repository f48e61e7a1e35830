import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';
import { adminCommands } from '../../cli/admin-commands.js';
import type { User } from '../../db/schema.js';

// Administrators help users without a database shell: /admin/users/ and /admin/audit/, for them
// only (404 for everyone else), every action written to the audit log.

let t: TestApp;
let admin: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await loggedIn(t);
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
});
afterAll(() => t.close());

const isActive = async (id: number) => (await t.db.selectFrom('users').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;
const sessionsOf = async (id: number) => (await t.db.selectFrom('sessions').select('session_key').where('user_id', '=', id).execute()).length;
/** A page without its CSRF tokens, which are masked afresh on every page. */
const unmasked = (body: string) => body.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
const auditFor = (targetId: number) => t.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('id').execute();

describe('administrators', () => {
  it('see every user with last sign-in and status', async () => {
    const { user } = await loggedIn(t, { email: 'dana@example.com' });
    const page = await admin.browser.get('/admin/users/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(user.username);
    expect(page.body).toContain('dana@example.com');
    expect(page.body).toContain(`action="/admin/users/${user.id}/deactivate/"`);
    expect(page.body).not.toContain(`action="/admin/users/${admin.user.id}/deactivate/"`);
  });

  it('deactivate a user: signed out everywhere at once, refused at login, one audit entry; then reactivate', async () => {
    const { user, browser } = await loggedIn(t);
    expect((await browser.get('/notes/')).statusCode).toBe(200);
    const response = await admin.browser.post(`/admin/users/${user.id}/deactivate/`);
    expect(response.statusCode).toBe(302);
    expect(await isActive(user.id)).toBe(0);
    expect(await sessionsOf(user.id)).toBe(0);
    expect((await browser.get('/notes/')).statusCode).toBe(302);
    await expect(browser.login(user.username)).rejects.toThrow();
    const [entry] = await auditFor(user.id);
    expect(entry).toMatchObject({ actor_id: admin.user.id, actor_name: admin.user.username, action: 'deactivate', target_name: user.username, address: '127.0.0.1' });

    expect((await admin.browser.post(`/admin/users/${user.id}/activate/`)).statusCode).toBe(302);
    expect(await isActive(user.id)).toBe(1);
    expect((await browser.login(user.username)).statusCode).toBe(302);
    expect((await auditFor(user.id)).map((row) => row.action)).toEqual(['deactivate', 'activate']);
    const audit = await admin.browser.get('/admin/audit/');
    expect(audit.statusCode).toBe(200);
    expect(audit.body).toContain('deactivate');
    expect(audit.body).toContain(user.username);
  });

  it('turn off a user’s two-factor sign-in: secret and recovery codes gone, password alone signs in, one audit entry', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ totp_enabled: 1, totp_secret: 'JBSWY3DPEHPK3PXP', totp_last_step: 1 }).where('id', '=', user.id).execute();
    await t.db.insertInto('recovery_codes').values({ user_id: user.id, code_hash: 'x'.repeat(64) }).execute();
    expect((await admin.browser.get('/admin/users/')).body).toContain(`action="/admin/users/${user.id}/disable-2fa/"`);
    expect((await admin.browser.post(`/admin/users/${user.id}/disable-2fa/`)).statusCode).toBe(302);
    const row = await t.db.selectFrom('users').select(['totp_enabled', 'totp_secret']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_enabled: 0, totp_secret: null });
    expect(await t.db.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const login = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD });
    expect(login.headers.location).toBe('/notes/');
    expect((await auditFor(user.id)).map((entry) => entry.action)).toEqual(['disable-2fa']);
    expect((await browser.get('/notes/')).statusCode).toBe(200);
  });

  it('get a 405 for a GET of an action, which changes nothing', async () => {
    const user = await createUser(t.db);
    for (const action of ['deactivate', 'activate', 'disable-2fa', 'send-reset']) {
      const response = await admin.browser.get(`/admin/users/${user.id}/${action}/`);
      expect(response.statusCode, action).toBe(405);
      expect(response.headers.allow, action).toBe('POST');
    }
    expect(await isActive(user.id)).toBe(1);
    expect(await auditFor(user.id)).toEqual([]);
  });

  it('cannot deactivate themselves, and an unknown user is a 404; neither is logged', async () => {
    expect((await admin.browser.post(`/admin/users/${admin.user.id}/deactivate/`)).statusCode).toBe(302);
    expect(await isActive(admin.user.id)).toBe(1);
    expect((await admin.browser.get('/admin/users/')).body).toContain('You cannot deactivate yourself.');
    expect((await admin.browser.post('/admin/users/999999999/deactivate/')).statusCode).toBe(404);
    expect(await auditFor(admin.user.id)).toEqual([]);
  });
});

describe('everyone else', () => {
  it('gets 404 on every admin page and action, which changes nothing and logs nothing', async () => {
    const { browser } = await loggedIn(t);
    const target = await createUser(t.db);
    for (const path of ['/admin/users/', '/admin/audit/']) expect((await browser.get(path)).statusCode, path).toBe(404);
    await t.db.updateTable('users').set({ totp_enabled: 1, totp_secret: 'JBSWY3DPEHPK3PXP' }).where('id', '=', target.id).execute();
    const missing = await browser.get('/admin/users/no-such-page/');
    for (const action of ['deactivate', 'activate', 'disable-2fa', 'send-reset']) {
      for (const id of [target.id, 999999999]) {
        const post = await browser.post(`/admin/users/${id}/${action}/`);
        expect(post.statusCode, action).toBe(404);
        expect(unmasked(post.body), action).toBe(unmasked(missing.body));
        // A GET too: not the 405 that would tell the path exists.
        const get = await browser.get(`/admin/users/${id}/${action}/`);
        expect(get.statusCode, action).toBe(404);
        expect(unmasked(get.body), action).toBe(unmasked(missing.body));
      }
    }
    expect(await isActive(target.id)).toBe(1);
    expect((await t.db.selectFrom('users').select('totp_enabled').where('id', '=', target.id).executeTakeFirstOrThrow()).totp_enabled).toBe(1);
    expect(await auditFor(target.id)).toEqual([]);
  });

  it('the anonymous are sent to log in, and nothing changes', async () => {
    const target = await createUser(t.db);
    const anonymous = new TestBrowser(t.app);
    expect((await anonymous.get('/admin/users/')).headers.location).toMatch(/^\/accounts\/login\//);
    expect((await anonymous.post(`/admin/users/${target.id}/deactivate/`)).headers.location).toMatch(/^\/accounts\/login\//);
    expect(await isActive(target.id)).toBe(1);
  });
});

describe('the command line', () => {
  it('promote and demote give and take the flag, each with an audit entry; an unknown name is one clear error', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const { user, browser } = await loggedIn(t);
    const promoted = user.id;
    await adminCommands.promote!.run({ config: t.config, args: [user.username.toUpperCase()], options: {} });
    expect((await browser.get('/admin/users/')).statusCode).toBe(200);
    await adminCommands.demote!.run({ config: t.config, args: [user.username], options: {} });
    expect((await browser.get('/admin/users/')).statusCode).toBe(404);
    expect((await auditFor(promoted)).map((row) => [row.action, row.actor_name, row.actor_id])).toEqual([
      ['promote', 'command line', null],
      ['demote', 'command line', null],
    ]);
    await expect(adminCommands.promote!.run({ config: t.config, args: ['nobody-at-all'], options: {} })).rejects.toThrow('no user named "nobody-at-all"');
    vi.restoreAllMocks();
  });
});
