import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, User } from '../../db/schema.js';
import { ApiClient, buildTestApp, connectChat, createGroup, createNote, createShoppingList, listen, loggedIn, type TestApp, type TestBrowser } from '../../../test/index.js';

// Groups, chat and notifications in Ukrainian: for a browser that asks for it, or a user who
// chose it; dates in Ukrainian too; the API's `code`s and the socket's fields stay English.

const UK = { 'accept-language': 'uk-UA,uk;q=0.9,en;q=0.5' };
const ZONE = 'Europe/Kyiv';
let t: TestApp;
let address: string;
let owner: { user: User; browser: TestBrowser };
let member: { user: User; browser: TestBrowser };
let group: Group;

beforeAll(async () => {
  t = await buildTestApp();
  address = await listen(t.app);
  owner = await loggedIn(t, { username: 'olha' });
  member = await loggedIn(t, { username: 'petro' });
  await t.db.updateTable('users').set({ timezone: ZONE }).where('id', 'in', [owner.user.id, member.user.id]).execute();
  group = await createGroup(t.db, owner.user, [], 'Квартира');
  expect((await owner.browser.post(`/groups/${group.id}/members/`, { action: 'add', username: 'petro' }, { headers: UK })).statusCode).toBe(302);
  // A message of an earlier year, shown with its date; and one that mentions petro.
  await t.db
    .insertInto('chat_messages')
    .values({ group_id: group.id, author_id: member.user.id, content: 'Привіт', created_at: Date.parse('2025-03-05T10:00:00Z') })
    .execute();
  expect((await new ApiClient(t.app, { browser: owner.browser }).post(`/api/v1/groups/${group.id}/messages/`, { content: '@petro, глянь' })).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('groups in Ukrainian', () => {
  it('the group page, with its flash message, plural and activity', async () => {
    const body = (await owner.browser.get(`/groups/${group.id}/`, { headers: UK })).body;
    expect(body).toContain('<html lang="uk">');
    expect(body).toContain('petro тепер учасник групи Квартира.');
    expect(body).toContain('Власник — ви · 2 учасники');
    expect(body).toContain('<h2 id="members-heading">Учасники</h2>');
    expect(body).toContain('olha: додано учасника petro');
    expect(body).toContain('<button type="submit">Додати учасника</button>');
    expect(body).not.toContain('Add member');
  });

  it('the chat page, its times written the Ukrainian way and its script’s words', async () => {
    const body = (await member.browser.get(`/groups/${group.id}/chat/`, { headers: UK })).body;
    expect(body).toContain('<h1>Чат групи Квартира</h1>');
    expect(body).toContain('data-locale="uk"');
    expect(body).toContain('title="5 бер. 2025 р., 12:00">5 бер. 2025 р., 12:00</time>');
    expect(body).toContain('<strong class="chat-author">Ви</strong>');
    expect(body).toContain('data-word-reconnecting="З’єднання втрачено. Повторна спроба за {seconds} с…"');
    expect(body).toContain('<button type="submit" id="chat-send">Надіслати</button>');
    // The English page keeps the English format.
    expect((await member.browser.get(`/groups/${group.id}/chat/`)).body).toContain('>5 Mar 2025, 12:00</time>');
  });

  it('the notifications page: the groups’ notifications in the reader’s language', async () => {
    const body = (await member.browser.get('/notifications/', { headers: UK })).body;
    expect(body).toContain('<h1>Сповіщення</h1>');
    expect(body).toContain('olha додає вас до групи Квартира');
    expect(body).toContain('olha згадує вас у групі Квартира');
    const english = (await member.browser.get('/notifications/')).body;
    expect(english).toContain('olha added you to the group Квартира');
  });

  it('an API error: the message and fields in Ukrainian, the code the same English one', async () => {
    const api = new ApiClient(t.app, { browser: owner.browser });
    const path = `/api/v1/groups/${group.id}/members/`;
    const uk = await api.request('POST', path, { body: { username: 'nobody' }, headers: UK });
    const en = await api.request('POST', path, { body: { username: 'nobody' } });
    expect(uk.statusCode).toBe(400);
    expect(uk.data.error).toEqual({ code: 'invalid', message: 'Тіло запиту некоректне.', fields: { username: ['Немає користувача з іменем «nobody».'] } });
    expect(en.data.error).toEqual({ code: 'invalid', message: 'The request body is not valid.', fields: { username: ['There is no user named “nobody”.'] } });
  });

  it('the activity line of what a member who left took out of the group, counted the Ukrainian way', async () => {
    const leaver = await loggedIn(t, { username: 'ivan' });
    await t.db.insertInto('group_members').values({ group_id: group.id, user_id: leaver.user.id, joined_at: Date.now() }).execute();
    for (const title of ['Один', 'Два', 'Три', 'Чотири', 'П’ять']) await createNote(t.db, leaver.user, { title, group_id: group.id });
    await createShoppingList(t.db, leaver.user, { title: 'Ринок', group });
    expect((await leaver.browser.post(`/groups/${group.id}/leave/`)).statusCode).toBe(302);
    const body = (await owner.browser.get(`/groups/${group.id}/`, { headers: UK })).body;
    expect(body).toContain('ivan: 5 нотаток більше не спільні з групою');
    expect(body).toContain('ivan: 1 список покупок більше не спільний з групою');
  });

  it('the chat socket’s error reasons, for a user who chose Ukrainian, in the same frame fields', async () => {
    await t.db.updateTable('users').set({ language: 'uk' }).where('id', '=', member.user.id).execute();
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey: member.browser.cookies.get('sessionid')! });
    client.send({ content: '   ' });
    client.send('не JSON');
    const errors = await client.waitFor((frame) => frame.type === 'error', 2);
    expect(errors.map((frame) => frame.error)).toEqual(['повідомлення порожнє', 'це не JSON: надішліть {"content": "..."}']);
    client.close();
  });
});
