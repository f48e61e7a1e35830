import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';
import type { User } from '../../src/db/schema.js';
import { DEFAULT_PASSWORD, createGroup, createUser } from '../helpers.js';
import { ProxyClient } from './http-client.js';
import { freePort } from '../net.js';
import { AppInstance, Nginx } from './processes.js';

// The production topology, for real: nginx (deploy/nginx.conf) in front of two `groupnotes
// serve` processes sharing PostgreSQL and Redis. Three nginx processes run the same site file:
// "front" balances over both instances, as in production; "pinA" and "pinB" have both upstream
// ports pointed at one instance each, so a test can say which instance a request or a WebSocket
// reaches while still passing through the shipped nginx configuration (round-robin through
// "front" alone would not be deterministic, and connecting to the instances directly would
// skip nginx's WebSocket settings).

const POSTGRES = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '') ? process.env.DATABASE_URL! : 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface Topology {
  run: string;
  databaseUrl: string;
  appA: AppInstance;
  appB: AppInstance;
  front: Nginx;
  pinA: Nginx;
  pinB: Nginx;
  /** A user created in the shared database (password DEFAULT_PASSWORD). */
  createUser(name: string): Promise<User>;
  /** A group of `owner` with `members`, created in the shared database. */
  createGroup(owner: User, members: User[]): Promise<{ id: number }>;
  /** A client of `port` (default: front), kept for clean-up. */
  client(port?: number, proto?: 'https' | 'http'): ProxyClient;
  loggedIn(user: User, port?: number): Promise<ProxyClient>;
  /** Runs SQL on the shared database. */
  query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Stops every process, drops the database and the temp files; safe after a failed start. */
  stop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database, two app processes (NODE_ENV=production, TRUST_PROXY=true) and
 * three nginx processes. Whatever was started is stopped again if a later step fails.
 */
export async function startTopology(): Promise<Topology> {
  const run = randomBytes(5).toString('hex');
  const dbName = `groupnotes_deploy_${run}`;
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-deploy-'));
  // nginx workers run as an unprivileged user: they must reach their temp paths in here.
  chmodSync(dir, 0o755);
  const clients: ProxyClient[] = [];
  const started: { stop(): Promise<unknown> }[] = [];
  let created = false;

  const stop = async () => {
    for (const each of clients) each.close();
    // nginx first, then the apps: nothing is proxied to an instance that is gone.
    await Promise.all(started.filter((each) => each instanceof Nginx).map((each) => each.stop()));
    await Promise.all(started.filter((each) => each instanceof AppInstance).map((each) => each.stop()));
    if (created) await admin((c) => c.query(`drop database if exists ${dbName} with (force)`));
    if (!process.env.KEEP_DEPLOY_TMP) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await admin((c) => c.query(`create database ${dbName}`));
    created = true;
    const url = new URL(POSTGRES);
    url.pathname = `/${dbName}`;
    const databaseUrl = url.toString();
    const env = {
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
      ALLOWED_HOSTS: 'notes.example.com',
      PUBLIC_URL: 'https://notes.example.com',
      // These tests send no mail.
      SMTP_URL: 'off',
      SECRET_KEY: randomBytes(48).toString('base64url'),
      DATABASE_URL: databaseUrl,
      REDIS_URL: REDIS,
      // Channels of this run only, so parallel runs on one Redis do not hear each other.
      REDIS_PREFIX: `groupnotes-deploy-${run}:`,
      // Cheap hashes keep logins fast; hashing cost is not what these tests are about.
      PBKDF2_ITERATIONS: '1000',
      LOG_LEVEL: 'info',
      // Each instance a cluster of two workers, as production runs it (the default is one per core).
      WEB_CONCURRENCY: '2',
    };
    const [portA, portB, portFront, portPinA, portPinB] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    const appA = new AppInstance('A', portA, env);
    const appB = new AppInstance('B', portB, env);
    started.push(appA, appB);
    // Both start (and migrate the empty database) at the same moment, as after a deployment.
    await Promise.all([appA.start(), appB.start()]);
    const front = new Nginx('front', portFront, [portA, portB], dir);
    const pinA = new Nginx('pinA', portPinA, [portA, portA], dir);
    const pinB = new Nginx('pinB', portPinB, [portB, portB], dir);
    started.push(front, pinA, pinB);
    await Promise.all([front.start(), pinA.start(), pinB.start()]);

    const query = async <Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        return (await db.query<Row>(text, values)).rows;
      } finally {
        await db.end();
      }
    };
    const client = (port = front.port, proto: 'https' | 'http' = 'https') => {
      const made = new ProxyClient(port, proto);
      clients.push(made);
      return made;
    };
    return {
      run,
      databaseUrl,
      appA,
      appB,
      front,
      pinA,
      pinB,
      async createUser(name) {
        const database = openDatabase(databaseUrl, { poolSize: 1 });
        try {
          return await createUser(database.db, { username: `${name}_${run}` });
        } finally {
          await database.close();
        }
      },
      async createGroup(owner, members) {
        const database = openDatabase(databaseUrl, { poolSize: 1 });
        try {
          return await createGroup(database.db, owner, members, `group_${run}_${owner.id}`);
        } finally {
          await database.close();
        }
      },
      client,
      async loggedIn(user, port) {
        const browser = client(port);
        const reply = await browser.login(user.username, DEFAULT_PASSWORD);
        if (reply.status !== 302) throw new Error(`login of ${user.username} through nginx answered ${reply.status}`);
        return browser;
      },
      query,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
