import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../../db/schema.js';
import { ApiClient, buildTestApp, connectChat, createGroup, createUser, listen, loggedIn, type TestApp, type TestBrowser } from '../../../../test/index.js';
import { MAX_MENTIONS, mentionedKeys } from './mentions.js';

let t: TestApp;
let address: string;
beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
});
afterAll(() => t.close());

const mentionsOf = (user: User) =>
  t.db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', user.id).where('kind', '=', 'chat.mention').execute();

async function post(author: { browser: TestBrowser }, groupId: number, content: string): Promise<void> {
  const sent = await new ApiClient(t.app, { browser: author.browser }).post(`/api/v1/groups/${groupId}/messages/`, { content });
  expect(sent.statusCode).toBe(201);
}

async function cast() {
  const author = await loggedIn(t, { username: `Ann${Date.now() % 100000}${Math.floor(Math.random() * 1000)}` });
  const member = await createUser(t.db, { username: `Bea${Date.now() % 100000}${Math.floor(Math.random() * 1000)}` });
  const other = await createUser(t.db);
  const stranger = await createUser(t.db);
  const group = await createGroup(t.db, author.user, [member, other], `Smith family ${Date.now() % 100000}${Math.floor(Math.random() * 1000)}`);
  return { author, member, other, stranger, group };
}

describe('@mentions in the chat', () => {
  it('notify a mentioned member once, with who, where and a link to the chat', async () => {
    const { author, member, other, group } = await cast();
    await post(author, group.id, `@${member.username} look, and again @${member.username}!`);
    expect(await mentionsOf(member)).toEqual([{ kind: 'chat.mention', text: `${author.user.username} mentioned you in ${group.name}`, link: `/groups/${group.id}/chat/` }]);
    expect(await mentionsOf(other)).toEqual([]);
  });

  it('do not notify a non-member, an unknown name or the author', async () => {
    const { author, stranger, group } = await cast();
    await post(author, group.id, `@${stranger.username} @nobody_here_${Date.now()} @${author.user.username}`);
    expect(await mentionsOf(stranger)).toEqual([]);
    expect(await mentionsOf(author.user)).toEqual([]);
  });

  it('match names as every lookup by name does: case folded, fullwidth letters, a full stop after', async () => {
    const { author, member, other, group } = await cast();
    const fullwidth = [...member.username.toUpperCase()].map((char) => (/[A-Z0-9]/.test(char) ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char)).join('');
    await post(author, group.id, `thanks @${fullwidth}. and @${other.username.toUpperCase()}.`);
    expect(await mentionsOf(member)).toHaveLength(1);
    expect(await mentionsOf(other)).toHaveLength(1);
  });

  it('an address is not a mention', async () => {
    const { author, member, group } = await cast();
    await post(author, group.id, `mail me at someone@${member.username}`);
    expect(await mentionsOf(member)).toEqual([]);
  });

  it('work over the socket as over the API, and the socket still gets the message', async () => {
    const { author, member, group } = await cast();
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey: author.browser.cookies.get('sessionid') });
    client.send({ content: `hey @${member.username}` });
    await client.waitFor((frame) => frame.type === 'message');
    client.close();
    expect(await mentionsOf(member)).toHaveLength(1);
  });

  it(`notify at most ${MAX_MENTIONS} people per message`, async () => {
    const { author, group } = await cast();
    const many: User[] = [];
    for (let i = 0; i < MAX_MENTIONS + 2; i++) many.push(await createUser(t.db));
    await t.db.insertInto('group_members').values(many.map((user) => ({ group_id: group.id, user_id: user.id, joined_at: Date.now() }))).execute();
    await post(author, group.id, many.map((user) => `@${user.username}`).join(' '));
    const notified = await t.db.selectFrom('notifications').select('user_id').where('kind', '=', 'chat.mention').where('user_id', 'in', many.map((user) => user.id)).execute();
    expect(notified).toHaveLength(MAX_MENTIONS);
  });
});

describe('mentionedKeys', () => {
  it('finds names after a start or a space, not inside words or addresses', () => {
    expect(mentionedKeys('@Ann hi (@bob) x@carol')).toEqual(['ann', 'bob']);
    expect(mentionedKeys('no mentions here')).toEqual([]);
  });

  it('tries a name with and without its trailing full stops', () => {
    expect(mentionedKeys('thanks @j.r.')).toEqual(['j.r.', 'j.r']);
  });
});
