import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, buildTestApp } from '../../../test/helpers.js';

// The platform's end of the catalogue: which language a page speaks. (Each feature's words are
// tested where its pages are; the login page is the page the issue names.)

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function login(acceptLanguage?: string) {
  return t.app.inject({ method: 'GET', url: '/accounts/login/', headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });
}

describe('the language of a page', () => {
  it('is Ukrainian for a browser that asks for it first: <html lang="uk"> and the login form in Ukrainian', async () => {
    const response = await login('uk-UA,uk;q=0.9,en-US;q=0.8');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<html lang="uk">');
    expect(response.body).toContain('<h1>Вхід</h1>');
    expect(response.body).toContain('Ім’я користувача');
    expect(response.body).not.toContain('Log in');
  });

  it('is English with no header, or when no language asked for is in the catalogue', async () => {
    for (const header of [undefined, 'de-DE,fr;q=0.9']) {
      const response = await login(header);
      expect(response.body).toContain('<html lang="en">');
      expect(response.body).toContain('<h1>Log in</h1>');
    }
  });
});
