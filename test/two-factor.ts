import { Secret, TOTP } from 'otpauth';
import { DEFAULT_PASSWORD, TestBrowser, type TestApp, loggedIn } from './helpers.js';

/** The TOTP code of `secret` at `timestamp`, computed with the library the app uses, as a phone would. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });
}

/** The secret the 2FA page shows in text (grouped by four, as apps accept it). */
export function shownSecret(body: string): string {
  const match = /Or type this key into the app: <code>([A-Z2-7 ]+)<\/code>/.exec(body);
  if (!match) throw new Error('no secret on the page');
  return match[1]!.replace(/ /g, '');
}

export function shownRecoveryCodes(body: string): string[] {
  return [...body.matchAll(/<code>([0-9a-z]{4}(?:-[0-9a-z]{4}){3})<\/code>/g)].map((match) => match[1]!);
}

/**
 * A signed-in user who turned 2FA on through the app. The confirming code used up the current
 * time step, so sign-ins in the test use `nextCode()`, the code of the step after it (accepted:
 * one step of clock drift either way is).
 */
export async function enrolledUser(t: TestApp) {
  const { user, browser } = await loggedIn(t);
  const secret = shownSecret((await browser.get('/accounts/2fa/')).body);
  const confirmed = await browser.post('/accounts/2fa/', { code: totpCode(secret), password: DEFAULT_PASSWORD });
  if (confirmed.statusCode !== 200) throw new Error(`enrolment failed with ${confirmed.statusCode}`);
  const recoveryCodes = shownRecoveryCodes(confirmed.body);
  const nextCode = () => totpCode(secret, Date.now() + 30_000);
  return { user, browser, secret, recoveryCodes, nextCode };
}

/** A fresh browser that gave the right password and now stands at the code step. */
export async function atCodeStep(t: TestApp, username: string, form: { next?: string } = {}): Promise<TestBrowser> {
  const browser = new TestBrowser(t.app);
  const response = await browser.post('/accounts/login/', { username, password: DEFAULT_PASSWORD, ...form });
  if (response.headers.location !== '/accounts/login/2fa/') throw new Error(`login answered ${response.statusCode} ${String(response.headers.location)}`);
  return browser;
}
