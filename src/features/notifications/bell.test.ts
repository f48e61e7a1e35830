import { beforeAll, describe, expect, it } from 'vitest';
import { expectAllWrapped, useMarkedMessages } from '../../../test/index.js';
import { translator } from '../../platform/i18n/index.js';
import { COUNT_CAP } from '../../platform/navigation.js';
import type { ViewContext } from '../../platform/views/context.js';
import { Layout } from '../../platform/views/layout.js';
import { renderPage } from '../../platform/views/render.js';
import { BELL } from './bell.js';

// The bell, a link of every page's navigation, says only catalogue words, with each plural form
// of the page's language given to public/js/notifications.js for the counts it is told live.

beforeAll(() => useMarkedMessages());

function context(unread: number): ViewContext {
  const { language, t } = translator('en');
  return {
    user: { id: 1, username: '⟦dana⟧', email: '', timezone: 'UTC', isAdmin: false },
    navigation: [{ link: BELL, count: unread }],
    path: '/notes/',
    csrfToken: () => 'token',
    takeMessages: () => [],
    language,
    t,
  };
}

describe('the bell', () => {
  it('is worded from the catalogue, at a few unread, one, and past the cap', () => {
    for (const unread of [3, 1, COUNT_CAP]) {
      const html = renderPage(Layout({ ctx: context(unread), title: '⟦Soup⟧', children: null }), translator('en'));
      expect(html).toContain('id="notification-bell"');
      expect(html).toContain('data-label-one="⟦Notifications, {count} unread⟧"');
      expect(html).toContain('js/notifications.');
      expectAllWrapped(`layout (${unread} unread)`, html, ['⟦dana⟧']);
    }
  });
});
