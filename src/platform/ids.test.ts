import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, loggedIn, type TestApp, type TestBrowser } from '../../test/index.js';
import { MAX_ID, parseId } from './ids.js';

describe('parseId', () => {
  it('takes the digits of a positive id up to the column type’s largest', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('007')).toBe(7);
    expect(parseId(String(MAX_ID))).toBe(2_147_483_647);
  });

  it('refuses zero, ids past 2^31 - 1, signs, spaces, decimals, exponents and non-strings', () => {
    for (const raw of ['0', '2147483648', '99999999999', '99999999999999999999', '-1', '+1', ' 1', '1 ', '1.0', '1e3', '0x10', '', '١', '1\n']) {
      expect(parseId(raw), JSON.stringify(raw)).toBeNull();
    }
    for (const raw of [1, undefined, null, ['1'], {}]) expect(parseId(raw)).toBeNull();
  });
});

const TOO_LARGE = ['2147483648', '99999999999', '99999999999999999999'];

/** Every path with an id in it, as the pages have them. */
const GET_PATHS = [
  '/notes/<pk>/', '/notes/<pk>/edit/', '/notes/<pk>/delete/',
  '/notebooks/<pk>/', '/notebooks/<pk>/edit/', '/notebooks/<pk>/delete/',
  '/tags/<pk>/edit/', '/tags/<pk>/delete/',
  '/todo/<pk>/', '/todo/<pk>/edit/', '/todo/<pk>/delete/',
  '/shopping/<pk>/', '/shopping/<pk>/edit/', '/shopping/<pk>/delete/',
  '/groups/<pk>/', '/groups/<pk>/delete/', '/groups/<pk>/chat/', '/groups/<pk>/chat/messages/',
];
const POST_PATHS = [
  '/notes/<pk>/edit/', '/notes/<pk>/delete/', '/notes/<pk>/pin/',
  '/notebooks/<pk>/edit/', '/notebooks/<pk>/delete/',
  '/tags/<pk>/edit/', '/tags/<pk>/delete/',
  '/todo/<pk>/edit/', '/todo/<pk>/delete/', '/todo/<pk>/share/', '/todo/<pk>/items/add/', '/todo/items/<pk>/toggle/', '/todo/items/<pk>/delete/',
  '/shopping/<pk>/edit/', '/shopping/<pk>/delete/', '/shopping/<pk>/share/', '/shopping/<pk>/items/add/', '/shopping/items/<pk>/toggle/', '/shopping/items/<pk>/delete/',
  '/groups/<pk>/members/', '/groups/<pk>/leave/', '/groups/<pk>/delete/',
];

describe('ids past 2^31 are a 404 on every path, never a 500', () => {
  let t: TestApp;
  let browser: TestBrowser;
  let groupId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const owner = await loggedIn(t);
    browser = owner.browser;
    groupId = (await createGroup(t.db, owner.user)).id;
  });
  afterAll(() => t.close());

  it('in a path, on GET and POST', async () => {
    const answers: string[] = [];
    for (const pk of TOO_LARGE) {
      for (const path of GET_PATHS) answers.push(`GET ${path.replace('<pk>', pk)} ${(await browser.get(path.replace('<pk>', pk))).statusCode}`);
      for (const path of POST_PATHS) answers.push(`POST ${path.replace('<pk>', pk)} ${(await browser.post(path.replace('<pk>', pk), { action: 'remove', user_pk: '1' })).statusCode}`);
    }
    expect(answers.filter((answer) => !answer.endsWith(' 404'))).toEqual([]);
  });

  it('in a query string, as a filter of the notes list', async () => {
    for (const pk of TOO_LARGE) {
      expect((await browser.get(`/notes/?notebook=${pk}`)).statusCode).toBe(404);
      expect((await browser.get(`/notes/?tag=${pk}`)).statusCode).toBe(404);
    }
  });

  it('in a form field, as a form error (400) that changes nothing', async () => {
    for (const pk of TOO_LARGE) {
      const removal = await browser.post(`/groups/${groupId}/members/`, { action: 'remove', user_pk: pk });
      expect(removal.statusCode).toBe(400);
      const note = await browser.post('/notes/new/', { title: 'x', content: 'y', priority: '1', group: pk, notebook: pk, tags: [pk] });
      expect(note.statusCode).toBe(400);
      const list = await browser.post('/shopping/new/', { title: 'x', group: pk });
      expect(list.statusCode).toBe(400);
      expect((await browser.get(`/groups/${groupId}/chat/messages/?before=${pk}`)).statusCode).toBe(400);
    }
    const counts = await Promise.all(['notes', 'shopping_lists'].map((table) => t.db.selectFrom(table as 'notes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()));
    expect(counts.map((row) => Number(row.n))).toEqual([0, 0]);
    expect((await t.db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).execute()).length).toBe(1);
  });
});
