import type { ComponentChildren } from 'preact';
import { jsx } from 'preact/jsx-runtime';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { LoginPage, PasswordChangePage, RegisterPage } from '../src/features/accounts/views.js';
import { NoteListPage } from '../src/features/notes/list-views.js';
import { NoteDetailPage, NoteFormPage } from '../src/features/notes/note-views.js';
import { TagListPage } from '../src/features/tags/views.js';
import { BELL } from '../src/features/notifications/bell.js';
import { ErrorPage } from '../src/platform/views/error-page.js';
import { renderToHtml } from '../src/platform/views/html.js';
import { translator } from '../src/platform/i18n/index.js';
import type { ViewContext } from '../src/platform/views/context.js';

// Pages are rendered by our own walk over the JSX tree (src/platform/views/html.ts) instead of
// preact-render-to-string; these tests hold the two to the same output, byte for byte, on real
// pages of the features (so they live here: the platform imports no feature).

const HOSTILE = `<script>alert("x")</script> & 'quotes' "double" <img src=x onerror=alert(1)>`;

function ctx(signedIn: boolean): ViewContext {
  return {
    user: signedIn ? { id: 7, username: `ann${HOSTILE}`, email: '', timezone: 'UTC', isAdmin: false } : null,
    navigation: signedIn ? [{ link: BELL, count: 3 }] : [],
    path: '/notes/',
    ...translator('en'),
    csrfToken: () => 'T'.repeat(64),
    takeMessages: () => [
      { level: 'success', text: `Saved ${HOSTILE}` },
      { level: 'error', text: 'Failed' },
    ],
  };
}

function expectSameAsPreact(tree: ComponentChildren) {
  const ours = renderToHtml(tree);
  expect(ours).toBe(renderToString(tree as never));
  return ours;
}

const note = {
  id: 3,
  title: `Title ${HOSTILE}`,
  excerpt: `Excerpt ${HOSTILE}`,
  content: `# Heading\n\n${HOSTILE}\n\n[x](javascript:alert(1)) [ok](https://example.com)`,
  owner_id: 7,
  owner_username: 'ann',
  group_id: 2,
  group_name: `Group ${HOSTILE}`,
  notebook_id: 4,
  notebook_title: `Book ${HOSTILE}`,
  notebook_color: '#aabbcc',
  priority: 3,
  is_pinned: 1,
  is_archived: 0,
  updated_at: 1_700_000_000_000,
  created_at: 1_690_000_000_000,
  tags: [{ id: 5, name: `tag ${HOSTILE}`, color: '#112233' }],
  audience: [
    { id: 7, username: 'ann', role: 'change' as const, via: ['owner' as const, 'group' as const] },
    { id: 8, username: `bob ${HOSTILE}`, role: 'read' as const, via: ['group' as const] },
  ],
};
const tag = { id: 5, owner_id: 7, name: `tag ${HOSTILE}`, name_key: `tag ${HOSTILE}`, color: '#112233', created_at: 0 };

describe('renderToHtml matches preact-render-to-string', () => {
  it('on elements: escaping, attribute names, booleans, void and SVG elements', () => {
    const html = expectSameAsPreact(
      jsx('div', {
        class: `a ${HOSTILE}`,
        'aria-hidden': true,
        'data-x': 0,
        tabindex: -1,
        hidden: false,
        title: '',
        onClick: () => undefined,
        children: [
          jsx('input', { type: 'checkbox', checked: true, maxLength: 5, autoComplete: 'off', readOnly: true }),
          jsx('label', { htmlFor: 'x', className: 'c', children: ['text ', HOSTILE, 42, null, undefined, false, true] }),
          jsx('svg', { viewBox: '0 0 1 1', strokeWidth: 2, xlinkHref: '#a', children: jsx('path', { fillRule: 'evenodd', d: 'M0 0' }) }),
          jsx('textarea', { value: HOSTILE }),
          jsx('select', { value: 'b', children: ['a', 'b'].map((value) => jsx('option', { value, children: value })) }),
          jsx('div', { dangerouslySetInnerHTML: { __html: '<b>raw</b>' } }),
          jsx('br', {}),
        ],
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
  });

  it('drops objects that are not elements, as Preact does', () => {
    expectSameAsPreact(jsx('p', { children: [{ type: 'script', props: { children: 'x' } } as never, 'after'] }));
  });

  it('on the account pages, signed out and signed in', () => {
    expectSameAsPreact(LoginPage({ ctx: ctx(false), next: `/notes/?q=${HOSTILE}`, allowSignup: true, values: { username: HOSTILE }, errors: { __all__: [HOSTILE] } }));
    expectSameAsPreact(RegisterPage({ ctx: ctx(false), values: { username: HOSTILE, email: HOSTILE }, errors: { password2: [HOSTILE] } }));
    expectSameAsPreact(PasswordChangePage({ ctx: ctx(true), errors: { old_password: ['Wrong'] } }));
  });

  it('on the notes pages: list, note with Markdown, form with selects and checkboxes', () => {
    expectSameAsPreact(NoteListPage({ ctx: ctx(true), query: { q: HOSTILE, archived: false, tag }, result: { notes: [note, { ...note, id: 4, owner_id: 9 }], page: 2, hasNext: true } }));
    expectSameAsPreact(NoteDetailPage({ ctx: ctx(true), note }));
    expectSameAsPreact(
      NoteFormPage({
        ctx: ctx(true),
        noteId: 3,
        choices: { notebooks: [{ id: 4, title: HOSTILE }], tags: [tag], groups: [{ id: 2, name: HOSTILE }] },
        typed: { values: { title: HOSTILE, content: HOSTILE, notebook: '4', group: '2', priority: '3', is_pinned: 'on' }, tagIds: ['5'] },
        errors: { title: [HOSTILE] },
      }),
    );
  });

  it('on the tags and error pages', () => {
    expectSameAsPreact(TagListPage({ ctx: ctx(true), tags: [{ ...tag, note_count: 3 }] }));
    expectSameAsPreact(ErrorPage({ ctx: ctx(false), status: 404, message: 'Not found', detail: HOSTILE }));
  });
});
