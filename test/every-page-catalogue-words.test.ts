import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownName } from '../src/features/accounts/account-views.js';
import { CURRENCIES } from '../src/features/accounts/currencies.js';
import { LANGUAGES } from '../src/platform/i18n/index.js';
import { TIME_ZONES } from '../src/platform/time-zones.js';
import { type EveryPage, everyPage, getEveryPage, unwrappedText, useMarkedMessages, EVERY_PAGE_PEOPLE, DELETED_NOTE } from './index.js';

// No text a person reads lives outside the catalogue. Every GET page the app has
// (test/every-page.ts) is rendered with each message wrapped in ⟦ ⟧ (test/language-markers.ts),
// and any readable text outside the markers fails. What people write is wrapped by the test (a
// note titled "⟦Borscht⟧"), or named: usernames and zone names.

let pages: EveryPage;

beforeAll(async () => {
  useMarkedMessages();
  pages = await everyPage({
    group: '⟦Family⟧',
    joinedGroup: '⟦Neighbours⟧',
    notebook: '⟦Recipes⟧',
    notebookDescription: '⟦Soups⟧',
    tag: '⟦soup⟧',
    note: '⟦Borscht⟧',
    noteContent: '⟦Beets and dill.⟧',
    reminder: '⟦Buy beets⟧',
    todo: '⟦Chores⟧',
    task: '⟦Sweep⟧',
    shopping: '⟦Market⟧',
    store: '⟦Bazaar⟧',
    item: '⟦Beets⟧',
    unit: '⟦kg⟧',
    chat: '⟦Dinner at six?⟧',
    token: '⟦laptop⟧',
  });
});

afterAll(() => pages?.t.close());

describe('every page, with each catalogue message wrapped', () => {
  it('finds the pages of every feature', () => {
    expect(pages.paths.size).toBeGreaterThan(40);
    expect([...pages.paths].filter(([, path]) => path === 'NO ID FOR THIS ROUTE').map(([route]) => route)).toEqual([]);
  });

  it('shows no text outside the catalogue on any page', async () => {
    // What people wrote, and names Intl gives in the page's language (zones, currencies, languages).
    const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });
    const userContent = [...EVERY_PAGE_PEOPLE, 'lightMyRequest', ...TIME_ZONES, ...CURRENCIES.map((code) => `${code} – ${currencyNames.of(code)}`), ...LANGUAGES.map(ownName)];
    const failures: { path: string; status: number }[] = [];
    const unwrapped: { path: string; text: string[] }[] = [];
    for (const { path, response } of await getEveryPage(pages)) {
      const expected = path === '/no-such-page/' ? 404 : path === pages.paths.get(DELETED_NOTE) ? 410 : 200;
      if (response.statusCode !== expected) failures.push({ path, status: response.statusCode });
      if (!String(response.headers['content-type']).startsWith('text/html')) continue;
      const text = unwrappedText(response.body, userContent);
      if (text.length > 0) unwrapped.push({ path, text });
    }
    expect(failures).toEqual([]);
    expect(unwrapped).toEqual([]);
  });
});
