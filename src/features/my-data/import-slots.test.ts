import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, loggedIn, makeZip, type TestApp, upload } from '../../../test/index.js';
import type { User } from '../../db/schema.js';
import { importSlots } from './routes.js';

// Imports are bounded like exports: at most two at once in a process (each may hold a large
// document in memory), and one at a time per user. The imports said to be running here hold
// their slots directly, so nothing depends on timing; every way an import ends gives its slot back.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Slots held by the test, given back after each. */
const held: (() => void)[] = [];
afterEach(() => {
  for (const release of held.splice(0)) release();
});
async function importRunningFor(user?: User): Promise<void> {
  const slot = importSlots.take((user ?? (await createUser(t.db))).id);
  if (!slot.ok) throw new Error(`no slot: ${slot.reason}`);
  held.push(slot.release);
}

const notesOf = async (user: User) => (await t.db.selectFrom('notes').select('title').where('owner_id', '=', user.id).execute()).map((row) => row.title);

describe('importing while other imports run', () => {
  it('one import runs beside another user’s, and gives its slot back when done', async () => {
    const { user, browser } = await loggedIn(t);
    await importRunningFor();
    const response = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'Beside.md': '# Beside' }));
    expect(response.statusCode).toBe(302);
    expect(await notesOf(user)).toEqual(['Beside']);
    expect(importSlots.inUse).toBe(1);
  });

  it('a third import while two run is a 503 with Retry-After and the form with a message; nothing is stored', async () => {
    const { user, browser } = await loggedIn(t);
    await importRunningFor();
    await importRunningFor();
    const response = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'Third.md': '# Third' }));
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.body).toContain('action="/accounts/import/"');
    expect(response.body).toContain('Other imports are running. Please try again in a minute.');
    expect(await notesOf(user)).toEqual([]);
    expect(importSlots.inUse).toBe(2);
  });

  it('a user’s second import while their first runs is a 409 with the form and a message; nothing is stored', async () => {
    const { user, browser } = await loggedIn(t);
    await importRunningFor(user);
    const response = await upload(t.app, browser, '/accounts/import/', await makeZip({ 'Twice.md': '# Twice' }));
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('action="/accounts/import/"');
    expect(response.body).toContain('Your earlier import is still running. When it is done, look at your notes before you import again.');
    expect(await notesOf(user)).toEqual([]);
  });
});

describe('an import that fails', () => {
  it('gives its slot back: after a bad zip and a body cut short, the same user imports at once', async () => {
    const { user, browser } = await loggedIn(t);
    await importRunningFor();
    expect((await upload(t.app, browser, '/accounts/import/', Buffer.from('this is no zip file at all'))).statusCode).toBe(400);
    expect(importSlots.inUse).toBe(1);

    const secret = await browser.ensureCsrfCookie();
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const cut = await t.app.inject({
      method: 'POST', url: '/accounts/import/',
      payload: `--XX\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n${secret}\r\n--XX\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\n\r\nPK cut short`,
      headers: { host: 'localhost', origin: 'http://localhost', cookie, 'content-type': 'multipart/form-data; boundary=XX' },
    });
    expect(cut.statusCode).toBe(400);
    expect(importSlots.inUse).toBe(1);

    expect((await upload(t.app, browser, '/accounts/import/', await makeZip({ 'After.md': '# After' }))).statusCode).toBe(302);
    expect(await notesOf(user)).toEqual(['After']);
    expect(importSlots.inUse).toBe(1);
  });
});
