import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, loggedIn, type TestApp, TestBrowser } from '../../../test/index.js';

// After a mistake the form comes back ready for the fix: one message per problem, what was fine
// kept, and the focus where the fix is (public/js/app.js moves it to the first field in error;
// autofocus covers the login form's own case).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const GOOD = 'maple-syrup-river';
const input = (page: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(page)?.[0] ?? '';

describe('forms shown again after a mistake', () => {
  it('tells an empty username one thing only: to enter one', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: '', password1: GOOD, password2: GOOD });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter a username.');
    expect(response.body).not.toContain('Enter a valid username');
  });

  it('keeps the first new password when only the confirmation did not match, and asks for the confirmation again', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: 'mismatcher', password1: GOOD, password2: `${GOOD}x` });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('The two password fields didn’t match.');
    expect(input(response.body, 'password1')).toContain(`value="${GOOD}"`);
    expect(input(response.body, 'password2')).not.toContain('value=');
    expect(input(response.body, 'password2')).toContain('aria-invalid="true"');
  });

  it('does not send a refused new password back (too short)', async () => {
    const response = await new TestBrowser(t.app).post('/register/', { username: 'weakling', password1: 'short', password2: 'short' });
    expect(response.statusCode).toBe(400);
    expect(input(response.body, 'password1')).toContain('aria-invalid="true"');
    expect(response.body).not.toContain('value="short"');
  });

  it('keeps the new password on the password change form when only the confirmation differs', async () => {
    const { browser } = await loggedIn(t);
    const response = await browser.post('/accounts/password_change/', { old_password: 'correct-horse-battery', new_password1: GOOD, new_password2: 'other-words-here' });
    expect(response.statusCode).toBe(400);
    expect(input(response.body, 'new_password1')).toContain(`value="${GOOD}"`);
    expect(input(response.body, 'old_password')).not.toContain('value=');
  });

  it('puts the focus on the password after a wrong one, the username kept', async () => {
    const user = await createUser(t.db);
    const response = await new TestBrowser(t.app).post('/accounts/login/', { username: user.username, password: 'wrong-password' });
    expect(response.statusCode).toBe(400);
    expect(input(response.body, 'password')).toContain('autofocus');
    expect(input(response.body, 'username')).not.toContain('autofocus');
    expect(input(response.body, 'username')).toContain(`value="${user.username}"`);
  });

  it('puts the focus on the username on a first visit', async () => {
    const page = (await new TestBrowser(t.app).get('/accounts/login/')).body;
    expect(input(page, 'username')).toContain('autofocus');
    expect(input(page, 'password')).not.toContain('autofocus');
  });
});
