import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loggedIn, type TestApp } from '../../../test/index.js';

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

describe('the platform’s words in Ukrainian', () => {
  const uk = { 'accept-language': 'uk' };

  it('a 404 page: its title, message and the navigation in Ukrainian', async () => {
    const { browser } = await loggedIn(t);
    const response = await browser.get('/no-such-page/', { headers: uk });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<html lang="uk">');
    expect(response.body).toContain('<title>Не знайдено · groupnotes</title>');
    expect(response.body).toContain('Сторінки, яку ви шукаєте, немає, або ви не можете її бачити.');
    expect(response.body).toContain('>Нотатки</a>');
    expect(response.body).toContain('Сповіщення, непрочитаних немає');
    expect(response.body).not.toContain('Not found');
  });

  it('an API error: the message in Ukrainian, the code the same English one', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/notes/', headers: uk });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: { code: 'unauthenticated', message: 'Облікові дані не надано, або вони недійсні.' } });
    const english = await t.app.inject({ method: 'GET', url: '/api/v1/notes/' });
    expect(english.json()).toEqual({ error: { code: 'unauthenticated', message: 'Authentication credentials were not provided or are not valid.' } });

    const { browser } = await loggedIn(t);
    const missing = await browser.get('/api/v1/notes/abc/', { headers: uk });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not_found', message: 'Такого об’єкта немає, або ви не можете його бачити.' } });
  });

  it('the invalid fields of an API request in Ukrainian, with the English code', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/notes/', headers: { ...uk, authorization: 'Bearer gnp_nonsense' } });
    expect(anonymous.json()).toMatchObject({ error: { code: 'unauthenticated', message: expect.stringContaining('Токен доступу недійсний') } });
    const { browser } = await loggedIn(t);
    const cursor = await browser.get('/api/v1/notes/?cursor=nonsense', { headers: uk });
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json()).toEqual({ error: { code: 'invalid', message: 'Курсор недійсний; використайте URL `next` попередньої сторінки.', fields: { cursor: ['Це не курсор цього списку.'] } } });
  });
});
