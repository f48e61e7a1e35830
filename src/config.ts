import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism } from 'node:os';

/** The whole configuration, read once from the environment and validated; the README's configuration table lists it. */
export interface Config {
  /** Listen address. */
  host: string;
  port: number;
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://user:pass@host:5432/db`. */
  databaseUrl: string;
  /** When set, chat and control events fan out across instances through Redis pub/sub. */
  redisUrl: string | undefined;
  /** Prefix of this deployment's Redis channel names, so several deployments can share one Redis. */
  redisPrefix: string;
  /** Signs flash cookies and session auth hashes; required in production. */
  secretKey: string;
  /** `NODE_ENV=production`: Secure cookies, HTTPS redirect, HSTS, no error details. */
  production: boolean;
  /** Host header allow-list; `*` allows any, `.example.com` a domain and its subdomains. */
  allowedHosts: string[];
  /** Extra origins (`https://tunnel.example`) allowed for unsafe requests and WebSocket handshakes. */
  csrfTrustedOrigins: string[];
  /** Trust X-Forwarded-For/Proto from the reverse proxy. */
  trustProxy: boolean;
  /** Session lifetime in seconds. */
  sessionCookieAge: number;
  /** PBKDF2 cost of new hashes; weaker stored hashes are upgraded at login. */
  pbkdf2Iterations: number;
  /** Whether /register/ is open. */
  allowSignup: boolean;
  /** New accounts per client address an hour (0: no limit); behind a proxy, only per person with trustProxy. */
  signupLimitPerHour: number;
  /** Outgoing mail; undefined sends none (SMTP_URL=off, or unset outside production): the log notes each mail not sent, never its body. */
  smtpUrl: string | undefined;
  /** The origin links in mails point to (`https://notes.example.com`), never the request's Host; required in production, `http://HOST:PORT` in development. */
  publicUrl: string;
  /** The From of every mail. */
  mailFrom: string;
  /** Per-connection chat frame limit: a burst, refilled per second (0 per second: no limit). */
  chatRateBurst: number;
  chatRatePerSecond: number;
  /** Per-token JSON API request limit: a burst, refilled per second (0 per second: no limit). */
  apiRateBurst: number;
  apiRatePerSecond: number;
  /** A user's JSON API request limit, which all of their tokens and their cookie share; twice a token's by default (0 per second: none). */
  apiUserRateBurst: number;
  apiUserRatePerSecond: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** HTTP worker processes of `serve` (cluster); one per core by default. */
  webConcurrency: number;
  /** Memory each worker may give to rendered pages kept while the database is unchanged (SQLite); 0 turns it off. */
  pageCacheBytes: number;
  /** PostgreSQL connections each worker's pool may open. */
  databasePoolSize: number;
  /** How often each instance looks for due reminders added elsewhere (its own wake it at their time). */
  reminderPollMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const DEV_SECRET_FILE = 'data/secret.key';

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}")`);
}

function list(env: Env, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw.split(',').map((item) => item.trim()).filter(Boolean);
}

function databaseUrl(env: Env): string {
  const url = env.DATABASE_URL?.trim() || 'sqlite:./data/groupnotes.sqlite3';
  if (!/^sqlite:.+/.test(url) && !/^postgres(ql)?:\/\/.+/.test(url)) {
    throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres:// (got "${url}")`);
  }
  return url;
}

function origins(env: Env): string[] {
  const values = list(env, 'CSRF_TRUSTED_ORIGINS') ?? [];
  for (const origin of values) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`CSRF_TRUSTED_ORIGINS entries must look like https://host[:port] (got "${origin}")`);
    }
  }
  return values.map((origin) => new URL(origin).origin);
}

/** In development a key is generated once and kept in data/secret.key, so sessions survive restarts. */
function secretKey(env: Env, production: boolean): string {
  const key = env.SECRET_KEY?.trim();
  if (key) {
    if (key.length < 32) throw new ConfigError('SECRET_KEY must be at least 32 characters long');
    return key;
  }
  if (production) throw new ConfigError('SECRET_KEY must be set when NODE_ENV=production');
  if (existsSync(DEV_SECRET_FILE)) return readFileSync(DEV_SECRET_FILE, 'utf8').trim();
  const generated = randomBytes(48).toString('base64url');
  mkdirSync(dirname(DEV_SECRET_FILE), { recursive: true });
  writeFileSync(DEV_SECRET_FILE, generated + '\n', { mode: 0o600 });
  return generated;
}

/**
 * PUBLIC_URL in development: where the server listens, so that mailed links reach it. A wildcard
 * (0.0.0.0, ::) is no address to visit; this machine is, under a name the default ALLOWED_HOSTS takes.
 */
function devPublicUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  try {
    return new URL(`http://${name}:${port}`).origin;
  } catch {
    throw new ConfigError(`PUBLIC_URL cannot default to the listen address HOST=${host}: set PUBLIC_URL (e.g. http://127.0.0.1:8001)`);
  }
}

function publicUrl(env: Env, production: boolean, host: string, port: number): string {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) {
    if (production) throw new ConfigError('PUBLIC_URL must be set when NODE_ENV=production (e.g. https://notes.example.com)');
    return devPublicUrl(host, port);
  }
  if (!/^https?:\/\/[^/\s]+\/?$/.test(raw)) throw new ConfigError(`PUBLIC_URL must look like https://host[:port] (got "${raw}")`);
  return new URL(raw).origin;
}

/**
 * The SMTP server, or undefined for no mail. Production must say which: without mail no reset
 * link reaches anyone, so going without is a choice (`off`), not an oversight.
 */
function smtp(env: Env, production: boolean): string | undefined {
  const raw = env.SMTP_URL?.trim();
  if (!raw) {
    if (production) throw new ConfigError('SMTP_URL must be set when NODE_ENV=production (smtp://... or smtps://..., or off to send no mail)');
    return undefined;
  }
  if (raw.toLowerCase() === 'off') return undefined;
  if (!/^smtps?:\/\/.+/.test(raw)) throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, or be off (got "${raw}")`);
  return raw;
}

/** noreply@ the public host, or @localhost when that is an address (which no mail server takes after an @). */
function defaultMailFrom(origin: string): string {
  const host = new URL(origin).hostname;
  const domain = /^[\d.]+$|^\[/.test(host) ? 'localhost' : host;
  return `groupnotes <noreply@${domain}>`;
}

/**
 * Connections one worker's pool may open by default: `workers x pool` stays under PostgreSQL's
 * default max_connections (100), with room for the CLI, migrations and a psql session. Beside a
 * PostgreSQL on the same machine (`local`), whose backends share our cores, the instance opens
 * about what PostgreSQL's wiki advises for a server's cores, `cores x 2 + 1`, shared by its
 * workers (at least 2 each): a statement past that many waits in our lines, where a write goes
 * first (db/pg-pool.ts), instead of in the kernel's run queue, where it does not.
 */
export function defaultPoolSize(workers: number, local = false, cores = availableParallelism()): number {
  const bounded = Math.min(10, Math.max(2, Math.floor(80 / workers)));
  return local ? Math.min(bounded, Math.max(2, Math.ceil((cores * 2 + 1) / workers))) : bounded;
}

/**
 * Whether a postgres:// URL names this machine: localhost, a loopback address or a Unix socket
 * (`?host=/run/postgresql`, or no host at all, which pg takes from PGHOST or else localhost).
 */
export function isLocalPostgres(url: string, env: Env = {}): boolean {
  if (!/^postgres(ql)?:\/\//.test(url)) return false;
  let host: string;
  try {
    const parsed = new URL(url);
    host = parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname) || env.PGHOST?.trim() || 'localhost');
  } catch {
    // Not a URL, or a host that is not valid percent-encoding: not this machine, as far as we can tell.
    return false;
  }
  return host.startsWith('/') || ['localhost', '::1', '[::1]'].includes(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * HTTP workers when WEB_CONCURRENCY is not set: one per core, but a core fewer beside a
 * PostgreSQL on the same machine, whose backends need a core of their own. On 2 cores with a
 * local PostgreSQL, one worker served the crowd bench 20% more reads with a quarter less p99
 * than two (docs/performance.md); with SQLite, which works inside the workers, two did better.
 */
export function defaultWorkers(databaseUrl: string, env: Env = {}, cores = availableParallelism()): number {
  return cores > 1 && isLocalPostgres(databaseUrl, env) ? cores - 1 : cores;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test (got "${nodeEnv}")`);
  }
  const production = nodeEnv === 'production';
  const allowedHosts = list(env, 'ALLOWED_HOSTS');
  if (production && !allowedHosts) {
    throw new ConfigError('ALLOWED_HOSTS must be set when NODE_ENV=production (e.g. notes.example.com)');
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\/.+/.test(redisUrl)) {
    throw new ConfigError(`REDIS_URL must start with redis:// or rediss:// (got "${redisUrl}")`);
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  const port = integer(env, 'PORT', 8001, 0, 65535);
  const secret = secretKey(env, production);
  const origin = publicUrl(env, production, host, port);
  const smtpUrl = smtp(env, production);
  const database = databaseUrl(env);
  const apiRateBurst = integer(env, 'API_RATE_BURST', 60, 1, 1_000_000);
  const apiRatePerSecond = integer(env, 'API_RATE_PER_SECOND', 10, 0, 1_000_000);
  const webConcurrency = integer(env, 'WEB_CONCURRENCY', defaultWorkers(database, env), 1, availableParallelism() * 4);
  return {
    host,
    port,
    databaseUrl: database,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX?.trim() || 'groupnotes:',
    secretKey: secret,
    production,
    allowedHosts: (allowedHosts ?? ['localhost', '127.0.0.1', '[::1]']).map((host) => host.toLowerCase()),
    csrfTrustedOrigins: origins(env),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    sessionCookieAge: integer(env, 'SESSION_COOKIE_AGE', 1_209_600, 60, 31_536_000),
    pbkdf2Iterations: integer(env, 'PBKDF2_ITERATIONS', 1_000_000, 1, 100_000_000),
    allowSignup: boolean(env, 'ALLOW_SIGNUP', true),
    signupLimitPerHour: integer(env, 'SIGNUP_LIMIT_PER_HOUR', 20, 0, 1_000_000),
    smtpUrl,
    publicUrl: origin,
    mailFrom: env.MAIL_FROM?.trim() || defaultMailFrom(origin),
    chatRateBurst: integer(env, 'CHAT_RATE_BURST', 20, 1, 1_000_000),
    chatRatePerSecond: integer(env, 'CHAT_RATE_PER_SECOND', 10, 0, 1_000_000),
    apiRateBurst,
    apiRatePerSecond,
    apiUserRateBurst: integer(env, 'API_USER_RATE_BURST', 2 * apiRateBurst, 1, 2_000_000),
    apiUserRatePerSecond: integer(env, 'API_USER_RATE_PER_SECOND', 2 * apiRatePerSecond, 0, 2_000_000),
    logLevel,
    webConcurrency,
    pageCacheBytes: integer(env, 'PAGE_CACHE_MB', 64, 0, 4096) * 1024 * 1024,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', defaultPoolSize(webConcurrency, isLocalPostgres(database, env)), 1, 1000),
    reminderPollMs: integer(env, 'REMINDER_POLL_MS', 30_000, 10, 3_600_000),
  };
}
