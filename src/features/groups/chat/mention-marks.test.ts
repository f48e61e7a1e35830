import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityKey } from '../../../platform/identity-key.js';
import { buildTestApp, createGroup, createUser, loggedIn, type TestApp } from '../../../../test/index.js';
import { type MessagePart, mentionParts } from './mentions.js';
import { MAX_SUGGESTED_MEMBERS } from '../repository.js';
import { UsersRepository } from '../../accounts/repository.js';

// Mentions of members are marked in the chat's history as the server renders it (the reader's own
// more strongly), the text escaped; the page gives its members' names, for the box's suggestions,
// to members only; and public/js/chat-mentions.js, which marks live messages, reads mentions by
// the server's rule.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const content = (body: string) => [...body.matchAll(/<p class="chat-content">(.*?)<\/p>/g)].map((match) => match[1]);

describe('mentions in the history the server renders', () => {
  it('are marked for members only, the reader’s own more strongly, the text escaped', async () => {
    const ann = await loggedIn(t, { username: 'ann' });
    const sofiia = await createUser(t.db, { username: 'sofiia' });
    const taras = await createUser(t.db, { username: 'Taras' });
    await createUser(t.db, { username: 'olga' });
    const group = await createGroup(t.db, sofiia, [ann.user, taras]);
    const messages = [
      '@ann look, @taras. and @olga, mail x@ann <img src=x onerror=alert(1)> @ANN',
      'nobody here',
    ];
    for (const [i, text] of messages.entries()) {
      await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: sofiia.id, content: text, created_at: Date.now() + i }).execute();
    }
    const page = await ann.browser.get(`/groups/${group.id}/chat/`);
    expect(page.statusCode).toBe(200);
    expect(content(page.body)).toEqual([
      '<mark class="mention mention-you">@ann</mark> look, <mark class="mention">@taras</mark>. and @olga, mail x@ann &lt;img src=x onerror=alert(1)> <mark class="mention mention-you">@ANN</mark>',
      'nobody here',
    ]);
  });

  it('the members’ names are on the page for a member, and for nobody else', async () => {
    const owner = await loggedIn(t, { username: 'petro' });
    const member = await createUser(t.db, { username: 'solomiia' });
    const stranger = await loggedIn(t, { username: 'stranger' });
    const group = await createGroup(t.db, owner.user, [member]);
    const page = await owner.browser.get(`/groups/${group.id}/chat/`);
    expect(page.body).toContain('data-members="[&quot;petro&quot;,&quot;solomiia&quot;]"');
    const refused = await stranger.browser.get(`/groups/${group.id}/chat/`);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain('data-members');
    expect(refused.body).not.toContain('solomiia');
  });

  it(`are at most ${MAX_SUGGESTED_MEMBERS}, the first by name, in a larger group`, async () => {
    const owner = await loggedIn(t, { username: 'aaa-owner' });
    const users = new UsersRepository(t.db);
    const others = [];
    for (let i = 0; i < MAX_SUGGESTED_MEMBERS; i += 1) others.push(await users.insert({ username: `zz-member-${String(i).padStart(4, '0')}`, email: '', password: '!' }));
    const group = await createGroup(t.db, owner.user, others);
    const page = (await owner.browser.get(`/groups/${group.id}/chat/`)).body;
    const names = JSON.parse(/data-members="([^"]*)"/.exec(page)![1]!.replaceAll('&quot;', '"')) as string[];
    expect(names).toHaveLength(MAX_SUGGESTED_MEMBERS);
    expect(names[0]).toBe('aaa-owner');
    expect(names.at(-1)).toBe(`zz-member-${String(MAX_SUGGESTED_MEMBERS - 2).padStart(4, '0')}`);
  });
});

describe('public/js/chat-mentions.js', () => {
  const window: { groupnotesMentionRule?: { identityKey(name: string): string; parts(text: string, keys: Set<string>): MessagePart[] } } = {};
  runInNewContext(readFileSync(new URL('../../../../public/js/chat-mentions.js', import.meta.url), 'utf8'), { window });
  const rule = window.groupnotesMentionRule!;
  const members = ['ann', 'Taras', 'sofiia', 'inci', 'Софія', 'ann.b', 'Zoé'];
  const texts = [
    '@ann hi',
    'thanks @Ann.',
    'thanks @ann... and @ann.b.',
    'mail ann@example.com or @ann@sofiia',
    'fullwidth @ＳＯＦＩＩＡ',
    '@ta @taras-x @taras_ @TARAS',
    'Turkish @İNCİ and @ınci',
    'invisible @a\u200bnn, decomposed @Zoe\u0301',
    '@Софія, привіт',
    `${Array.from({ length: 10 }, (_, i) => `@n${i}`).join(' ')} @ann`,
    '@ann @n1 @ann',
    '',
  ];

  it('finds the mentions the server finds, in every text', () => {
    const keys = new Set(members.map(identityKey));
    for (const text of texts) expect(JSON.parse(JSON.stringify(rule.parts(text, new Set(keys)))), text).toEqual(mentionParts(text, keys));
    // Not two rules that agree on nothing: the server's marks what it should.
    expect(mentionParts('thanks @Ann. and @olga', keys)).toEqual([{ text: 'thanks ' }, { text: '@Ann', mention: 'ann' }, { text: '. and @olga' }]);
    expect(mentionParts(texts[9]!, keys).filter((part) => part.mention)).toEqual([]);
  });

  it('keys names as the server does', () => {
    for (const name of [...members, 'ＡＮＮ', 'Straße', 'STRASSE', 'İnci', 'a\u200bb', ' a  b ', 'ﬁne']) expect(rule.identityKey(name), name).toBe(identityKey(name));
  });
});
