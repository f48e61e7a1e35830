import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Response as InjectResponse } from 'light-my-request';
import { type AppDeps, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Database, User } from '../src/db/schema.js';
import { UsersRepository } from '../src/features/accounts/repository.js';
import { GroupsRepository } from '../src/features/groups/repository.js';
import { hashPassword } from '../src/platform/passwords/passwords.js';
import { createTestDatabase } from './database.js';

/** Cheap hashes keep the suite fast; one test file runs at the default cost on purpose. */
export const TEST_ITERATIONS = 1000;
export const TEST_SECRET = 'test-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';
export const DEFAULT_PASSWORD = 'correct-horse-battery';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    SECRET_KEY: TEST_SECRET,
    PBKDF2_ITERATIONS: String(TEST_ITERATIONS),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/**
 * The real app on a database of its own, migrated. `observe` may wrap the database handle the app
 * is given (to count what the app asks of it); the test still gets the real one. `logStream`
 * receives the app's log lines (set LOG_LEVEL too: tests run silent).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  observe?: (database: DatabaseHandle) => DatabaseHandle,
  logStream?: AppDeps['logStream'],
): Promise<TestApp> {
  const testDb = await createTestDatabase();
  const config = testConfig({ ...env, DATABASE_URL: testDb.url });
  const database = openDatabase(config.databaseUrl, { poolSize: env.DATABASE_POOL_SIZE ? config.databasePoolSize : 4 });
  await migrateToLatest(database.db);
  const app = await buildApp(config, { database: observe ? observe(database) : database, logStream });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
    },
  };
}

let userCounter = 0;

/** A user with overridable fields; the password is DEFAULT_PASSWORD unless given. */
export async function createUser(
  db: Kysely<Database>,
  overrides: { username?: string; email?: string; password?: string; iterations?: number } = {},
): Promise<User> {
  userCounter += 1;
  const password = await hashPassword(overrides.password ?? DEFAULT_PASSWORD, overrides.iterations ?? TEST_ITERATIONS);
  // Through the repository, which alone writes usernames (and their keys).
  return new UsersRepository(db).insert({ username: overrides.username ?? `user${userCounter}_${Date.now() % 100000}`, email: overrides.email ?? '', password });
}

type FormValue = string | number | boolean | (string | number)[] | undefined;

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Leave the CSRF token out (to test the rejection). */
  csrf?: boolean;
  /** Send this token instead of the one the cookie holds. */
  token?: string;
  origin?: string | null;
}

/**
 * A browser over app.inject: keeps cookies, sends the Origin header and the CSRF token on
 * POST like a real form submission.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly host = 'localhost',
    /** The client's address as the app sees it (for limits per address). */
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: InjectResponse): void {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async get(url: string, options: RequestOptions = {}): Promise<InjectResponse> {
    const response = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.remoteAddress,
      headers: { host: this.host, cookie: this.cookieHeader(), ...options.headers },
    });
    this.remember(response);
    return response;
  }

  /** Makes sure the csrftoken cookie exists, as visiting any page with a form would. */
  async ensureCsrfCookie(): Promise<string> {
    if (!this.cookies.has('csrftoken')) await this.get('/accounts/login/');
    return this.cookies.get('csrftoken')!;
  }

  async post(url: string, form: Record<string, FormValue> = {}, options: RequestOptions = {}): Promise<InjectResponse> {
    const body = new URLSearchParams();
    if (options.csrf !== false) body.append('csrfmiddlewaretoken', options.token ?? (await this.ensureCsrfCookie()));
    for (const [key, value] of Object.entries(form)) {
      if (value === undefined) continue;
      for (const item of [value].flat()) body.append(key, String(item));
    }
    const origin = options.origin === undefined ? `http://${this.host}` : options.origin;
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      payload: body.toString(),
      headers: {
        host: this.host,
        'content-type': 'application/x-www-form-urlencoded',
        cookie: this.cookieHeader(),
        ...(origin ? { origin } : {}),
        ...options.headers,
      },
    });
    this.remember(response);
    return response;
  }

  async login(username: string, password = DEFAULT_PASSWORD): Promise<InjectResponse> {
    const response = await this.post('/accounts/login/', { username, password });
    if (response.statusCode !== 302) throw new Error(`login as ${username} failed with ${response.statusCode}`);
    return response;
  }
}

/** A user and a browser logged in as that user. */
export async function loggedIn(t: TestApp, overrides: Parameters<typeof createUser>[1] = {}): Promise<{ user: User; browser: TestBrowser }> {
  const user = await createUser(t.db, overrides);
  const browser = new TestBrowser(t.app);
  await browser.login(user.username, overrides.password ?? DEFAULT_PASSWORD);
  return { user, browser };
}

let groupCounter = 0;

/** A group owned by `owner`, with the owner and `members` as members. */
export async function createGroup(db: Kysely<Database>, owner: User, members: User[] = [], name?: string) {
  groupCounter += 1;
  const now = Date.now();
  const group = await new GroupsRepository(db).insertGroup(name ?? `group${groupCounter}_${now % 100000}`, owner.id, now);
  await db
    .insertInto('group_members')
    .values([owner, ...members].map((member) => ({ group_id: group.id, user_id: member.id, joined_at: now })))
    .execute();
  return group;
}

/** Deletes a group as its repository does: memberships go with it, notes and lists lose it. */
export async function deleteGroup(db: Kysely<Database>, group: { id: number }): Promise<void> {
  await new GroupsRepository(db).deleteGroup(group.id);
}
