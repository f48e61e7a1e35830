import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectAllWrapped, loggedIn, type TestApp, type TestBrowser, useMarkedMessages } from '../../../test/index.js';
import type { FlashMessage } from '../chain/messages.js';
import { COUNT_CAP, type NavigationEntry, type NavigationLink } from '../navigation.js';
import { AudiencePanel } from '../views/audience.js';
import { DeleteConfirmPage } from '../views/controls.js';
import { Layout } from '../views/layout.js';
import { renderPage } from '../views/render.js';
import { type ViewContext } from '../views/context.js';
import { translator } from './index.js';

// The platform's own pages in the catalogue's words: the error pages, the layout (navigation,
// counts, flash messages) and the confirmation page, with every catalogue message wrapped in ⟦ ⟧:
// any text left outside the markers is text that is not from the catalogue.

let t: TestApp;
let person: { browser: TestBrowser; user: { username: string } };
beforeAll(async () => {
  useMarkedMessages();
  t = await buildTestApp();
  person = await loggedIn(t);
});
afterAll(() => t.close());

/** A page's context as a logged-in request would make it, with the navigation's counts given. */
function context(options: { navigation?: NavigationEntry[]; messages?: FlashMessage[] } = {}): ViewContext {
  const { language, t: say } = translator('en');
  return {
    user: { id: 1, username: '⟦dana⟧', email: '', timezone: 'UTC', isAdmin: false },
    navigation: options.navigation ?? [],
    path: '/notes/',
    csrfToken: () => 'token',
    takeMessages: () => options.messages ?? [],
    language,
    t: say,
  };
}

/** A section and a counted link, as features register them (the notes' and the chat's). */
const section: NavigationLink = { label: 'nav.notes', href: '/notes/' };
const counted: NavigationLink = { label: 'nav.chat', href: '/groups/', count: { counted: 'nav.unread_chat_messages', query: () => { throw new Error('not read here'); } } };

describe('the platform’s pages say only catalogue words', () => {
  it('the 404 page, logged in (navigation, bell and the chat’s count) and not', async () => {
    const mine = await person.browser.get('/no-such-page/');
    expect(mine.statusCode).toBe(404);
    expectAllWrapped('/no-such-page/ (logged in)', mine.body, [person.user.username]);
    const anonymous = await t.app.inject({ method: 'GET', url: '/no-such-page/' });
    expect(anonymous.statusCode).toBe(404);
    expectAllWrapped('/no-such-page/', anonymous.body);
  });

  it('the 403 page of a form posted without its CSRF token', async () => {
    const response = await person.browser.post('/accounts/logout/', {}, { csrf: false });
    expect(response.statusCode).toBe(403);
    // Outside production the page names Django's diagnostic, for the developer: not for people.
    expectAllWrapped('403', response.body, [person.user.username, 'CSRF token missing.']);
  });

  it('the 405 page of a path that takes another method', async () => {
    const response = await person.browser.get('/accounts/logout/');
    expect(response.statusCode).toBe(405);
    expectAllWrapped('405', response.body, [person.user.username]);
  });

  it('the 413 page of a body past the limit', async () => {
    const response = await person.browser.post('/notes/new/', { title: 'x'.repeat(1_100_000) });
    expect(response.statusCode).toBe(413);
    expectAllWrapped('413', response.body, [person.user.username]);
  });

  it('the layout with a flash message, a section and a counted link', () => {
    const messages: FlashMessage[] = [{ level: 'success', text: 'nav.notes' }, { level: 'error', text: { key: 'api.rate_limited_account', values: { seconds: 3 } } }];
    for (const count of [5, 1, COUNT_CAP]) {
      const navigation = [{ link: section, count: 0 }, { link: counted, count }];
      const html = renderPage(Layout({ ctx: context({ navigation, messages }), title: '⟦Soup⟧', children: null }), translator('en'));
      expect(html).toContain('message-error');
      expect(html).toContain('nav-count');
      expectAllWrapped(`layout (${count} counted)`, html, ['⟦dana⟧']);
    }
  });

  it('the delete confirmation page and the audience panel, given the kind of their object', () => {
    const ctx = context();
    const page = DeleteConfirmPage({ ctx, kind: 'notebook', name: '⟦Soup⟧', action: '/notebooks/1/delete/', cancel: '/notebooks/1/', consequence: '⟦Its notes stay.⟧' });
    expectAllWrapped('delete confirmation', renderPage(page, translator('en')));
    const members = [
      { id: 1, username: 'dana', role: 'change' as const, via: ['owner' as const] },
      { id: 2, username: 'olek', role: 'tick' as const, via: ['share' as const, 'group' as const] },
      { id: 3, username: 'ira', role: 'read' as const, via: ['group' as const] },
    ];
    const panel = Layout({ ctx, title: '⟦Soup⟧', children: AudiencePanel({ members, viewerId: 1, kind: 'note', groupName: '⟦Kitchen⟧' }) });
    expectAllWrapped('audience panel', renderPage(panel, translator('en')), ['dana', 'olek', 'ira']);
  });
});
