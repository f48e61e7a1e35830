import { type KyselyPlugin, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, SelectQueryNode, type UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, connectChat, createGroup, createUser, listen, loggedIn, type TestApp } from '../../../../test/index.js';
import { type DatabaseHandle, openDatabase } from '../../../db/database.js';
import { Hub } from '../../../platform/hub/hub.js';
import { MemoryTransport } from '../../../platform/hub/transport.js';
import { Notifications } from '../../notifications/notifications.js';
import { ChatService } from './service.js';

// The handshake checked membership and session, but the socket was
// registered for events only after the upgrade; a removal or logout published in between
// reached no socket, and the member kept the chat until the next sweep (30 s).

/**
 * Runs `act` right after the app's next one-column select from `table` has read its answer,
 * before the app goes on (the query keeps its connection meanwhile). What `act` changes is
 * written to the database directly and published to nobody, like an event that came too early.
 */
class AfterOneColumnRead implements KyselyPlugin {
  act: (() => Promise<void>) | null = null;
  private readonly reads = new WeakSet<object>();

  constructor(private readonly table: string) {}

  transformQuery({ node, queryId }: { node: RootOperationNode; queryId: object }): RootOperationNode {
    if (this.act && SelectQueryNode.is(node) && node.selections?.length === 1 && JSON.stringify(node.from).includes(`"${this.table}"`)) this.reads.add(queryId);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const act = this.act;
    if (act && this.reads.has(queryId)) {
      this.act = null;
      await act();
    }
    return result;
  }
}

/** The handshake's membership check: the window between it and the socket's registration, made deterministic. */
const trap = new AfterOneColumnRead('group_members');
/**
 * The live-session check that starts the access re-check after the socket is registered: held
 * until `act` is done, the time a slow database takes before the history is read.
 */
const recheckTrap = new AfterOneColumnRead('sessions');
let t: TestApp;
/** Connections of their own for the trap's changes: the app's query still holds its connection then. */
let other: DatabaseHandle;
let address: string;
beforeAll(async () => {
  t = await buildTestApp({}, (database) => ({ ...database, db: database.db.withPlugin(trap).withPlugin(recheckTrap) }));
  other = openDatabase(t.config.databaseUrl, { poolSize: 1 });
  address = await listen(t.app);
});
afterAll(async () => {
  await other.close();
  await t.close();
});

async function memberOfGroup() {
  const { user, browser } = await loggedIn(t);
  const owner = await createUser(t.db);
  const group = await createGroup(t.db, owner, [user]);
  return { user, group, sessionKey: browser.cookies.get('sessionid')! };
}

const closedWithin = (closed: Promise<{ code: number }>, ms: number) => Promise.race([closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

describe('access lost between the handshake and the registration of the socket', () => {
  it('a member removed in that window has the socket closed with 4403, and gets no history', async () => {
    const { user, group, sessionKey } = await memberOfGroup();
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: user.id, content: 'before', created_at: Date.now() }).execute();
    trap.act = async () => {
      await other.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', user.id).execute();
    };
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey });
    expect(trap.act).toBeNull();
    expect((await closedWithin(client.closed, 1_000))?.code).toBe(4403);
    expect(client.frames.filter((frame) => frame.type === 'history')).toEqual([]);
  });

  it('a session ended in that window has the socket closed with 4403', async () => {
    const { group, sessionKey } = await memberOfGroup();
    trap.act = async () => {
      await other.db.deleteFrom('sessions').where('session_key', '=', sessionKey).execute();
    };
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey });
    expect(trap.act).toBeNull();
    expect((await closedWithin(client.closed, 1_000))?.code).toBe(4403);
  });

  it('a member whose access stays keeps the socket and gets the history', async () => {
    const { user, group, sessionKey } = await memberOfGroup();
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: user.id, content: 'kept', created_at: Date.now() }).execute();
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey });
    await client.waitFor((frame) => frame.type === 'history' && frame.content === 'kept');
    expect(await closedWithin(client.closed, 300)).toBeNull();
    client.close();
  });
});

describe('the history query', () => {
  it('returns nothing to a non-member', async () => {
    const { user, group } = await memberOfGroup();
    const stranger = await createUser(t.db);
    await t.db.insertInto('chat_messages').values({ group_id: group.id, author_id: user.id, content: 'members only', created_at: Date.now() }).execute();
    const chat = new ChatService(t.db, new Hub(new MemoryTransport(), t.app.log), new Notifications(null));
    expect((await chat.history(group.id, user.id)).map((message) => message.content)).toEqual(['members only']);
    expect(await chat.history(group.id, stranger.id)).toEqual([]);
  });
});

describe('frames a client sends before its history arrives', () => {
  it('are stored after the history is sent, and come back as messages, not inside the history', async () => {
    const { group, sessionKey } = await memberOfGroup();
    let sent: () => void = () => undefined;
    const firstSent = new Promise<void>((resolve) => (sent = resolve));
    // The re-check, and so the history read after it, waits until the client's first frame has reached the server.
    recheckTrap.act = () => firstSent.then(() => new Promise((resolve) => setTimeout(resolve, 100)));
    const client = await connectChat(address, `/ws/groups/${group.id}/chat/`, { sessionKey });
    client.send({ content: 'first' });
    sent();
    const [message] = await client.waitFor((frame) => frame.type === 'message' && frame.content === 'first');
    expect(message).toBeDefined();
    expect(client.frames.filter((frame) => frame.type === 'history')).toEqual([]);
    client.close();
  });
});

