import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';
import type { User } from '../../db/schema.js';

// The check for the administrators' pages and the API reference: every catalogue message
// comes out wrapped in ⟦ ⟧, and any text left outside is text that is not from the catalogue.

let t: TestApp;
let admin: { user: User; browser: TestBrowser };
beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  admin = await loggedIn(t);
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', admin.user.id).execute();
});
afterAll(() => t.close());

/** Everyone's names and addresses on the users page: user content. */
async function people(): Promise<string[]> {
  const rows = await t.db.selectFrom('users').select(['username', 'email']).execute();
  return rows.flatMap((row) => [row.username, row.email]).filter(Boolean);
}

describe('the administrators’ pages say only catalogue words', () => {
  it('the users page, with users with and without an address, two-factor, deactivated, and the flash of each action', async () => {
    const { user: withEmail } = await loggedIn(t, { email: 'dana@example.com' });
    const { user: withoutEmail } = await loggedIn(t);
    await t.db.updateTable('users').set({ totp_enabled: 1 }).where('id', '=', withoutEmail.id).execute();
    const flashes = [
      `/admin/users/${withEmail.id}/deactivate/`,
      `/admin/users/${withEmail.id}/send-reset/`,
      `/admin/users/${withEmail.id}/activate/`,
      `/admin/users/${withEmail.id}/send-reset/`,
      `/admin/users/${withoutEmail.id}/send-reset/`,
      `/admin/users/${withoutEmail.id}/disable-2fa/`,
      `/admin/users/${admin.user.id}/deactivate/`,
    ];
    for (const action of flashes) {
      expect((await admin.browser.post(action)).statusCode).toBe(302);
      const page = await admin.browser.get('/admin/users/');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('class="message message-');
      expectAllWrapped(`${action} then /admin/users/`, page.body, await people());
    }
  });

  it('the audit log, empty and not, and the 405 of an action’s GET', async () => {
    const fresh = await buildTestApp();
    try {
      const { user, browser } = await loggedIn(fresh);
      await fresh.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', user.id).execute();
      const empty = await browser.get('/admin/audit/');
      expect(empty.body).toContain('⟦No administrator has done anything yet.⟧');
      expectAllWrapped('/admin/audit/ (empty)', empty.body, [user.username]);
    } finally {
      await fresh.close();
    }
    // Refusals are logged too (the last active administrator kept).
    const { user: kept } = await loggedIn(t);
    for (const action of ['deactivate-refused', 'demote-refused']) {
      await t.db.insertInto('audit_log').values({ at: Date.now(), actor_id: null, actor_name: 'command line', action, target_id: kept.id, target_name: kept.username, address: 'command line' }).execute();
    }
    const log = await admin.browser.get('/admin/audit/');
    expect(log.body).toContain('<td data-label="⟦What⟧">');
    expect(log.body).toContain('⟦was refused taking administrator from (the last active one)⟧');
    expectAllWrapped('/admin/audit/', log.body, [...(await people()), '127.0.0.1', 'command line']);
    const notAllowed = await admin.browser.get(`/admin/users/${admin.user.id}/deactivate/`);
    expect(notAllowed.statusCode).toBe(405);
    expectAllWrapped('405', notAllowed.body, [admin.user.username]);
  });

  it('the API reference: its prose from the catalogue; code, resource names and the operations’ English summaries marked as such', async () => {
    const page = await admin.browser.get('/api/v1/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p lang="en">');
    const prose = page.body
      .replace(/<code>[\s\S]*?<\/code>/g, '')
      .replace(/<p lang="en">[^<]*<\/p>/g, '')
      .replace(/<h2>[a-z-]+<\/h2>/g, '')
      .replace(/<a href="#[a-z-]+">[a-z-]+<\/a>/g, '')
      .replace(/<span class="api-method[^"]*">[A-Z]+<\/span>/g, '');
    expectAllWrapped('/api/v1/docs/', prose, [admin.user.username, 'openapi.json']);
  });
});

describe('the users page refusing a reset mail', () => {
  it('the 429 past the reset mails one user may get, in English and Ukrainian', async () => {
    const { user } = await loggedIn(t, { email: 'often@example.com' });
    for (let i = 0; i < 3; i += 1) expect((await admin.browser.post(`/admin/users/${user.id}/send-reset/`)).statusCode).toBe(302);
    const refused = await admin.browser.post(`/admin/users/${user.id}/send-reset/`);
    expect(refused.statusCode).toBe(429);
    expectAllWrapped('/admin/users/<pk>/send-reset/ (429)', refused.body, await people());
    const uk = await admin.browser.post(`/admin/users/${user.id}/send-reset/`, {}, { headers: { 'accept-language': 'uk' } });
    expect(uk.body).toContain(`⟦Користувачеві ${user.username} за останню годину вже надіслано стільки листів для відновлення пароля: 3.`);
  });
});

describe('the administrators’ pages in Ukrainian', () => {
  it('the users page and a flash message in Ukrainian', async () => {
    const uk = { headers: { 'accept-language': 'uk' } };
    const { user } = await loggedIn(t);
    await admin.browser.post(`/admin/users/${user.id}/deactivate/`, {}, uk);
    const page = await admin.browser.get('/admin/users/', uk);
    expect(page.body).toContain('<html lang="uk">');
    expect(page.body).toContain('⟦Користувачі⟧');
    expect(page.body).toContain(`⟦${user.username} деактивовано, усі сеанси завершено.⟧`);
  });
});
