import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, loggedIn, type ReceivedMail, type TestApp, TestBrowser, TestSmtpServer } from '../../../test/index.js';

// Accounts in Ukrainian: for a browser that asks for it, and for a user who chose it on
// the account page whatever the browser asks for. Mail through a real SMTP server.

const PUBLIC_URL = 'https://notes.example.test';
const UK = { 'accept-language': 'uk-UA,uk;q=0.9' };
const EN = { 'accept-language': 'en-GB,en;q=0.9' };
let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'groupnotes <noreply@notes.example.test>' });
  t.app.mailSender.start();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/**
 * A mail as its reader sees it, from what the server received: the subject unfolded and its MIME
 * encoded words (RFC 2047) decoded, the body decoded when it came in base64 (mostly non-ASCII text).
 */
function readMail(mail: ReceivedMail): { subject: string; text: string } {
  const split = mail.raw.indexOf('\r\n\r\n');
  const headers = mail.raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const encodedSubject = /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
  const subject = encodedSubject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, encoded: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(encoded, 'base64').toString('utf8') : Buffer.from(encoded.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
  const base64 = /^Content-Transfer-Encoding: base64$/im.test(headers);
  return { subject, text: base64 ? Buffer.from(mail.raw.slice(split + 4), 'base64').toString('utf8') : mail.text };
}

const storedLanguage = async (id: number) => (await t.db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirstOrThrow()).language;
const accountForm = (language: string) => ({ email: '', timezone: 'UTC', currency: '', language });

describe('accounts in Ukrainian for a browser that asks for it', () => {
  it('shows the register page in Ukrainian', async () => {
    const page = (await new TestBrowser(t.app).get('/register/', { headers: UK })).body;
    expect(page).toContain('<html lang="uk">');
    expect(page).toContain('<h1>Створити обліковий запис</h1>');
    expect(page).toContain('Щонайменше 8 символів, не надто поширений');
    expect(page).not.toContain('Create an account');
  });

  it('says the password rules in Ukrainian on a register POST with a weak password', async () => {
    const browser = new TestBrowser(t.app, 'localhost', '10.2.0.1');
    const response = await browser.post('/register/', { username: 'olena', password1: '1234567', password2: '1234567' }, { headers: UK });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Цей пароль закороткий. У ньому має бути щонайменше 8 символів.');
    expect(response.body).toContain('Цей пароль надто поширений.');
    expect(response.body).toContain('Цей пароль складається лише з цифр.');
    expect(response.body).not.toContain('This password');
  });

  it('counts down and refuses wrong passwords in Ukrainian, with Ukrainian plurals', async () => {
    const user = await createUser(t.db);
    const browser = new TestBrowser(t.app, 'localhost', '10.2.0.3');
    const wrong = () => browser.post('/accounts/login/', { username: user.username, password: 'not-it' }, { headers: UK });
    for (let i = 0; i < 2; i++) await wrong();
    expect((await wrong()).body).toContain('Лишилося 2 спроби, а тоді вхід буде призупинено на 15 хвилин.');
    expect((await wrong()).body).toContain('Лишилася 1 спроба, а тоді вхід буде призупинено на 15 хвилин.');
    await wrong();
    const refused = await wrong();
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/Забагато невдалих спроб входу\. Спробуйте ще раз за 1[45] хвилин\./);
  });

  it('mails the reset link in Ukrainian when asked for in Ukrainian, and in English otherwise', async () => {
    const user = await createUser(t.db, { email: 'olena@example.test' });
    for (const [headers, subject, line] of [
      [UK, 'Скидання пароля groupnotes', `Ваше ім’я користувача, якщо ви його забули: ${user.username}`],
      [EN, 'Reset your groupnotes password', `Your username, in case you have forgotten it: ${user.username}`],
    ] as const) {
      const before = smtp.received.length;
      const asked = await new TestBrowser(t.app, 'localhost', '10.2.0.2').post('/accounts/password_reset/', { email: 'olena@example.test' }, { headers });
      expect(asked.statusCode).toBe(302);
      const mail = readMail((await smtp.waitFor(before + 1))[before]!);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(line);
      expect(mail.text).toMatch(new RegExp(`${PUBLIC_URL}/accounts/reset/[^/\\s]+/[^/\\s]+/`));
    }
  });
});

describe('the language chosen on the account page', () => {
  it('offers the browser’s language, then each language named in itself', async () => {
    const { browser } = await loggedIn(t);
    const page = (await browser.get('/accounts/', { headers: EN })).body;
    expect(page).toContain('<select id="id_language" name="language"');
    expect(page).toContain('<option value selected>Browser’s language</option><option value="en">English</option><option value="uk">Українська</option></select>');
  });

  it('makes the next page Ukrainian for an English browser, and the browser’s choice again when unset', async () => {
    const { user, browser } = await loggedIn(t);
    const saved = await browser.post('/accounts/', accountForm('uk'), { headers: EN });
    expect(saved.statusCode).toBe(302);
    expect(await storedLanguage(user.id)).toBe('uk');
    const next = (await browser.get('/accounts/', { headers: EN })).body;
    expect(next).toContain('<html lang="uk">');
    expect(next).toContain('Ваш обліковий запис збережено.');
    expect(next).toContain('<option value="uk" selected>Українська</option>');
    expect((await browser.get('/accounts/password_change/', { headers: EN })).body).toContain('<h1>Змініть свій пароль</h1>');

    expect((await browser.post('/accounts/', accountForm(''), { headers: EN })).statusCode).toBe(302);
    expect(await storedLanguage(user.id)).toBe('');
    const english = (await browser.get('/accounts/', { headers: EN })).body;
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Your account was saved.');
    expect((await browser.get('/accounts/', { headers: UK })).body).toContain('<html lang="uk">');
  });

  it('refuses a language there is no catalogue for with 400, saving nothing', async () => {
    const { user, browser } = await loggedIn(t, { email: 'taras@example.test' });
    for (const language of ['de', 'EN', 'uk-UA', 'x'.repeat(300)]) {
      const refused = await browser.post('/accounts/', { ...accountForm(language), email: 'changed@example.test' }, { headers: EN });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Choose one of the listed languages, or your browser’s.');
    }
    const row = await t.db.selectFrom('users').select(['email', 'language']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'taras@example.test', language: '' });
  });
});

describe('the language after signing out', () => {
  it('stays the user’s: the login page after logout speaks it, whatever the browser asks for', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', user.id).execute();
    const loggedOut = await browser.post('/accounts/logout/', {}, { headers: EN });
    expect(loggedOut.statusCode).toBe(302);
    const login = await browser.get('/accounts/login/', { headers: EN });
    expect(login.body).toContain('<html lang="uk"');
    // The next user to sign in on this browser gets their own setting (here: the browser's English).
    const other = await createUser(t.db);
    await browser.post('/accounts/login/', { username: other.username, password: DEFAULT_PASSWORD }, { headers: EN });
    expect(browser.cookies.get('sessionid')).toBeDefined();
    expect((await browser.get('/notes/', { headers: EN })).body).toContain('<html lang="en"');
  });

  it('is the user’s on the 2FA code page, before they are signed in', async () => {
    const { user, browser } = await loggedIn(t);
    await t.db.updateTable('users').set({ language: 'uk', totp_enabled: 1, totp_secret: 'JBSWY3DPEHPK3PXP' }).where('id', '=', user.id).execute();
    await browser.post('/accounts/logout/', {}, { headers: EN });
    const fresh = new TestBrowser(t.app);
    const answered = await fresh.post('/accounts/login/', { username: user.username, password: DEFAULT_PASSWORD }, { headers: EN });
    expect(answered.headers.location).toBe('/accounts/login/2fa/');
    expect((await fresh.get('/accounts/login/2fa/', { headers: EN })).body).toContain('<html lang="uk"');
  });

  it('ignores a language cookie naming no language there is', async () => {
    const browser = new TestBrowser(t.app);
    browser.cookies.set('django_language', 'xx');
    expect((await browser.get('/accounts/login/', { headers: EN })).body).toContain('<html lang="en"');
    browser.cookies.set('django_language', 'uk');
    expect((await browser.get('/accounts/login/', { headers: EN })).body).toContain('<html lang="uk"');
  });
});
