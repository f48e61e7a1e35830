import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createGroup, createNote, loggedIn, type TestApp } from '../../../test/index.js';
import { renderMarkdown } from './markdown.js';

const TRACKER = 'https://tracker.example/pixel.png?reader=1';

describe('remote images in notes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('are a link the reader may follow, never an image the page loads by itself', () => {
    const html = renderMarkdown(`![holiday photo](${TRACKER})`);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('href="https://tracker.example/pixel.png?reader=1"');
    expect(html).toContain('holiday photo');
    expect(html).toMatch(/rel="noopener noreferrer nofollow"/);
  });

  it('cannot tell the writer when another member of the group reads the note', async () => {
    const writer = await loggedIn(t);
    const reader = await loggedIn(t);
    const group = await createGroup(t.db, writer.user, [reader.user]);
    const note = await createNote(t.db, writer.user, { group_id: group.id, content: `Look: ![](${TRACKER})` });
    const page = await reader.browser.get(`/notes/${note.id}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<img[^>]*tracker\.example/i);
    // Nor could any other markup load one: the page's policy allows images from this site only.
    const imgSrc = /img-src ([^;]*)/.exec(String(page.headers['content-security-policy']))![1]!.split(' ');
    expect(imgSrc).not.toContain('https:');
    expect(imgSrc.every((source) => source === "'self'" || source === 'data:')).toBe(true);
  });
});
