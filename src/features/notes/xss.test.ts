import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../db/schema.js';
import { buildTestApp, createGroup, createNote, createNotebook, createTag, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';
import { renderMarkdown } from './markdown.js';

const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const ATTR = '"><svg onload=alert(1)>';

let t: TestApp;
let me: { user: User; browser: TestBrowser };
beforeAll(async () => {
  t = await buildTestApp();
  me = await loggedIn(t);
});
afterAll(() => t.close());

/** No live markup from the payloads: every `<` of them arrives as `&lt;`. */
function expectInert(body: string): void {
  expect(body).not.toContain('<script>alert');
  expect(body).not.toMatch(/<img[^>]*onerror/i);
  expect(body).not.toMatch(/<svg[^>]*onload/i);
  expect(body).not.toMatch(/href="\s*javascript:/i);
}

describe('escaping of every field', () => {
  it('on the list, the note page, the edit form and the delete page', async () => {
    const notebook = await createNotebook(t.db, me.user, { title: `${SCRIPT}book`, description: IMG });
    const tag = await createTag(t.db, me.user, { name: `${ATTR}tag` });
    const group = await createGroup(t.db, me.user, [], `${SCRIPT}group`);
    const note = await createNote(t.db, me.user, {
      title: `${SCRIPT}${ATTR}`, content: `${SCRIPT}\n\n${IMG}\n\n[x](javascript:alert(1))`, notebook_id: notebook.id, group_id: group.id, tags: [tag],
    });
    for (const path of ['/notes/', `/notes/${note.id}/`, `/notes/${note.id}/edit/`, `/notes/${note.id}/delete/`, '/notes/?q=script',
      '/notebooks/', `/notebooks/${notebook.id}/`, `/notebooks/${notebook.id}/edit/`, '/tags/', `/tags/${tag.id}/edit/`]) {
      const response = await me.browser.get(path);
      expect(response.statusCode, path).toBe(200);
      expectInert(response.body);
    }
    const page = (await me.browser.get(`/notes/${note.id}/`)).body;
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('shows a group member another user’s hostile note inert too', async () => {
    const author = await loggedIn(t);
    const group = await createGroup(t.db, author.user, [me.user]);
    const note = await createNote(t.db, author.user, { title: IMG, content: `${SCRIPT} [click](JaVaScRiPt:alert(1)) <a href="javascript:x">a</a>`, group_id: group.id });
    expectInert((await me.browser.get(`/notes/${note.id}/`)).body);
    expectInert((await me.browser.get('/notes/')).body);
  });

  it('shows the typed hostile values inert when a form comes back with errors', async () => {
    const response = await me.browser.post('/notes/new/', { title: ATTR, content: SCRIPT, priority: '9' });
    expect(response.statusCode).toBe(400);
    expectInert(response.body);
    expect(response.body).toContain('&lt;script>alert(1)&lt;/script></textarea>');
  });
});

describe('Markdown', () => {
  it('keeps raw HTML as text', () => {
    expect(renderMarkdown(SCRIPT)).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(renderMarkdown(IMG)).not.toContain('<img');
  });

  it.each(['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\u0000script:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:msgbox', '/relative/path', '&#106;avascript:alert(1)'])(
    'makes no link of [x](%s)',
    (target) => {
      expect(renderMarkdown(`[x](${target})`)).not.toContain('href=');
      expect(renderMarkdown(`![x](${target})`)).not.toContain('src=');
    },
  );

  it('links http, https and mailto with rel="noopener noreferrer nofollow", and linkifies bare URLs', () => {
    expect(renderMarkdown('[a](https://example.com/x?y=1)')).toContain('<a href="https://example.com/x?y=1" rel="noopener noreferrer nofollow">a</a>');
    expect(renderMarkdown('[a](http://example.com)')).toContain('href="http://example.com"');
    expect(renderMarkdown('[mail](mailto:me@example.com)')).toContain('href="mailto:me@example.com"');
    expect(renderMarkdown('see https://example.org now')).toContain('<a href="https://example.org" rel="noopener noreferrer nofollow">');
  });

  it('renders ordinary Markdown', () => {
    const html = renderMarkdown('# Title\n\n- **bold** and _it_\n\n`code`');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li><strong>bold</strong> and <em>it</em></li>');
    expect(html).toContain('<code>code</code>');
  });
});

describe('task lists', () => {
  it('render read-only checkboxes labelled by their text, which stays escaped', () => {
    const html = renderMarkdown(`- [ ] buy ${SCRIPT}\n- [x] done [x](javascript:alert(1)) ${IMG}\n- [ ]${ATTR}`);
    expect(html).toContain('<label class="task"><input type="checkbox" class="task-checkbox" disabled> buy &lt;script&gt;');
    expect(html).toContain('<input type="checkbox" class="task-checkbox" disabled checked> done');
    expectInert(html);
    expect(html.match(/<input/g)).toHaveLength(2); // "[ ]" not followed by a space is text
    expect(html).not.toMatch(/<input(?![^>]*disabled)/);
  });

  it('show their state in the list’s excerpt', async () => {
    await createNote(t.db, me.user, { title: 'Chores', content: '- [ ] dishes\n- [x] laundry' });
    expect((await me.browser.get('/notes/')).body).toContain('☐ dishes ☑ laundry');
  });
});
