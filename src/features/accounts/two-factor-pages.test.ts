// What the two-factor pages offer beyond their forms: the setup key as a link for an app on the
// same phone, ways to keep the recovery codes (copy, download, print), and code fields that bring
// up the keyboard for what they take.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atCodeStep, buildTestApp, DEFAULT_PASSWORD, enrolledUser, loggedIn, shownRecoveryCodes, shownSecret, type TestApp, TestBrowser, totpCode } from '../../../test/index.js';
import { totpUri } from './two-factor-codes.js';

const PUBLIC_URL = 'https://notes.example.test';
const UK = { 'accept-language': 'uk-UA,uk;q=0.9' };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL });
});
afterAll(() => t.close());

const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The opening tag of the first element with `marker` (an attribute, or the start of one) in it. */
function tagWith(body: string, marker: string): string {
  const tag = new RegExp(`<[a-z][a-z0-9]*\\b[^>]*\\s${marker.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[^>]*>`).exec(body);
  if (!tag) throw new Error(`no element with ${marker} on the page`);
  return tag[0];
}

function attribute(tag: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return value ? unescape(value[1]!) : undefined;
}

/** The element `marker` picks out, and its text. */
function element(body: string, marker: string): { tag: string; text: string } {
  const tag = tagWith(body, marker);
  const start = body.indexOf(tag) + tag.length;
  return { tag, text: unescape(body.slice(start, body.indexOf('</', start)).trim()) };
}

/** The setup page answered with the recovery codes, in the language `headers` ask for. */
async function turnedOn(headers: Record<string, string> = {}) {
  const { user, browser } = await loggedIn(t);
  const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
  const response = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD }, { headers });
  expect(response.statusCode).toBe(200);
  return { user, browser, body: response.body, codes: shownRecoveryCodes(response.body) };
}

describe('the setup page', () => {
  it('links the otpauth:// address of the secret, the one the QR code holds, for an app on this device', async () => {
    const { user, browser } = await loggedIn(t);
    const page = (await browser.get('/accounts/2fa/')).body;
    const secret = shownSecret(page);
    const link = element(page, 'href="otpauth:');
    expect(attribute(link.tag, 'href')).toBe(totpUri(secret, user.username));
    expect(link.text).toBe('Open the key in an authenticator app on this device');
  });
});

describe('the recovery codes page', () => {
  it('offers Copy and Print, shown by its own script, and Download, which needs none', async () => {
    const { body, codes } = await turnedOn();
    expect(codes).toHaveLength(10);
    // Without a script the buttons could do nothing: the page hides them, the script shows them.
    const copy = element(body, 'data-copy-codes');
    expect(copy.text).toBe('Copy');
    expect(copy.tag).toMatch(/^<button type="button"[^>]*\shidden/);
    expect(attribute(copy.tag, 'data-copied')).toBe('The codes are copied.');
    const print = element(body, 'data-print-codes');
    expect(print.text).toBe('Print');
    expect(print.tag).toMatch(/^<button type="button"[^>]*\shidden/);
    expect(element(body, 'data-download-codes').text).toBe('Download');
    expect(tagWith(body, 'data-codes-status')).toContain('role="status"');

    const script = attribute(tagWith(body, 'src="/static/js/recovery-codes.js'), 'src')!;
    const served = await new TestBrowser(t.app).get(script);
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain('window.navigator.clipboard.writeText(text)');
    expect(served.body).toContain('window.print()');
  });

  it('downloads the codes from the page itself, with whose they are and where, as text', async () => {
    const { user, body, codes } = await turnedOn();
    const link = tagWith(body, 'data-download-codes');
    expect(attribute(link, 'download')).toBe('groupnotes-recovery-codes.txt');
    const href = attribute(link, 'href')!;
    // A data: URL, not a route: nothing can fetch the codes again once this page is gone.
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    const file = decodeURIComponent(href.slice(href.indexOf(',') + 1));
    expect(file).toBe([`Recovery codes for ${user.username} at ${PUBLIC_URL}`, '', ...codes, ''].join('\n'));
    expect(element(body, 'class="recovery-codes-heading"').text).toBe(`Recovery codes for ${user.username} at ${PUBLIC_URL}`);
  });

  it('prints the heading and the codes alone', async () => {
    const { body } = await turnedOn();
    const stylesheet = tagWith(body, 'href="/static/recovery-codes-print.css');
    expect(attribute(stylesheet, 'media')).toBe('print');
    const css = (await new TestBrowser(t.app).get(attribute(stylesheet, 'href')!)).body;
    expect(css).toContain('.recovery-codes-page > :not(.recovery-codes-heading, .recovery-codes)');
    expect(css).toMatch(/\.site-header,\s*\.site-footer/);
  });

  it('says "done, codes saved" in Ukrainian, the same for everyone', async () => {
    const { body } = await turnedOn(UK);
    expect(body).toContain('<html lang="uk">');
    expect(element(body, 'href="/accounts/2fa/" role="button"').text).toBe('Готово, коди збережено');
    expect(body).not.toContain('зберіг');
    expect(element(body, 'data-copy-codes').text).toBe('Копіювати');
  });
});

describe('the code fields', () => {
  const codeInput = (body: string) => tagWith(body, 'name="code"');

  it('asks for digits when turning it on, where only a code from the app is taken', async () => {
    const { browser } = await loggedIn(t);
    const input = codeInput((await browser.get('/accounts/2fa/')).body);
    expect(attribute(input, 'inputmode')).toBe('numeric');
    expect(attribute(input, 'autocomplete')).toBe('one-time-code');
  });

  it('keeps the letter keyboard where a recovery code is taken too: the login code step and turning it off', async () => {
    const { user, browser, recoveryCodes } = await enrolledUser(t);
    expect(recoveryCodes[0]).toMatch(/[a-z]/);
    const atLogin = codeInput((await (await atCodeStep(t, user.username)).get('/accounts/login/2fa/')).body);
    const turningOff = codeInput((await browser.get('/accounts/2fa/')).body);
    for (const input of [atLogin, turningOff]) {
      expect(attribute(input, 'autocomplete')).toBe('one-time-code');
      expect(attribute(input, 'inputmode')).toBeUndefined();
    }
  });
});
