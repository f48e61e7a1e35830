import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ConfigError, defaultPoolSize, defaultWorkers, isLocalPostgres, loadConfig } from './config.js';

const base = { SECRET_KEY: 'k'.repeat(40) };

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8001,
      databaseUrl: 'sqlite:./data/groupnotes.sqlite3',
      redisUrl: undefined,
      production: false,
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      csrfTrustedOrigins: [],
      trustProxy: false,
      sessionCookieAge: 1_209_600,
      pbkdf2Iterations: 1_000_000,
      allowSignup: true,
      chatRateBurst: 20,
      chatRatePerSecond: 10,
      logLevel: 'info',
      webConcurrency: availableParallelism(),
      pageCacheBytes: 64 * 1024 * 1024,
    });
  });

  it('sizes the database pool per worker so that all workers stay under PostgreSQL\'s 100 connections', () => {
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '1' }).databasePoolSize).toBe(10);
    expect(loadConfig({ ...base, WEB_CONCURRENCY: '1', DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    expect(defaultPoolSize(1)).toBe(10);
    expect(defaultPoolSize(16)).toBe(5);
    expect(defaultPoolSize(64)).toBe(2);
    for (let workers = 1; workers <= 40; workers += 1) expect(workers * defaultPoolSize(workers)).toBeLessThanOrEqual(80);
  });

  it('beside a local PostgreSQL, opens about cores x 2 + 1 connections in all, at least 2 a worker', () => {
    expect(defaultPoolSize(1, true, 2)).toBe(5);
    expect(defaultPoolSize(3, true, 4)).toBe(3);
    expect(defaultPoolSize(7, true, 8)).toBe(3);
    expect(defaultPoolSize(15, true, 16)).toBe(3);
    expect(defaultPoolSize(1, true, 1)).toBe(3);
    expect(defaultPoolSize(1, true, 64)).toBe(10);
    expect(defaultPoolSize(1, false, 2)).toBe(10);
    // Never more than the connection limit's share.
    for (let cores = 1; cores <= 64; cores += 1) {
      const workers = defaultWorkers('postgres://localhost/notes', {}, cores);
      expect(defaultPoolSize(workers, true, cores)).toBeLessThanOrEqual(defaultPoolSize(workers));
    }
    const workers = defaultWorkers('postgres://localhost/notes');
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://localhost/notes' }).databasePoolSize).toBe(defaultPoolSize(workers, true));
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://db.example.com/notes', WEB_CONCURRENCY: '1' }).databasePoolSize).toBe(10);
  });

  it('runs a worker per core, and a core fewer beside a PostgreSQL on the same machine', () => {
    expect(defaultWorkers('sqlite:./data/groupnotes.sqlite3', {}, 4)).toBe(4);
    expect(defaultWorkers('postgres://db.example.com/notes', {}, 4)).toBe(4);
    expect(defaultWorkers('postgres://postgres@127.0.0.1:5432/notes', {}, 4)).toBe(3);
    expect(defaultWorkers('postgres://postgres@127.0.0.1:5432/notes', {}, 2)).toBe(1);
    expect(defaultWorkers('postgres://postgres@127.0.0.1:5432/notes', {}, 1)).toBe(1);
    const cores = availableParallelism();
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://localhost/notes' }).webConcurrency).toBe(Math.max(1, cores - 1));
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://db.example.com/notes' }).webConcurrency).toBe(cores);
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://localhost/notes', WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
    // A host that is not valid percent-encoding is not this machine; the driver says what is wrong with it.
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://u@%zz/notes' }).webConcurrency).toBe(cores);
  });

  it.each([
    ['postgres://postgres@127.0.0.1:5432/notes', {}, true],
    ['postgresql://u:p@localhost/notes', {}, true],
    ['postgres://u@LOCALHOST/notes', {}, true],
    ['postgres://u@[::1]:5432/notes', {}, true],
    ['postgres://u@127.0.1.1/notes', {}, true],
    ['postgres:///notes?host=/run/postgresql', {}, true],
    ['postgres://u@%2Frun%2Fpostgresql/notes', {}, true],
    ['postgres:///notes', {}, true],
    ['postgres:///notes', { PGHOST: 'db.example.com' }, false],
    ['postgres://u@db.example.com/notes', {}, false],
    ['postgres://u@10.0.0.5/notes', {}, false],
    ['postgres://u@127.example.com/notes', {}, false],
    ['postgres://u@localhost.example.com/notes', {}, false],
    ['sqlite:./data/groupnotes.sqlite3', {}, false],
    ['postgres://u@%zz/notes', {}, false],
  ])('tells whether %s (%o) is a PostgreSQL on this machine', (url, env, local) => {
    expect(isLocalPostgres(url, env)).toBe(local);
  });

  it('refuses to start in production without SECRET_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOWED_HOSTS: 'x.example' })).toThrow(
      new ConfigError('SECRET_KEY must be set when NODE_ENV=production'),
    );
  });

  it('refuses to start in production without PUBLIC_URL, and defaults it in development', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', ALLOWED_HOSTS: 'x.example' })).toThrow(
      new ConfigError('PUBLIC_URL must be set when NODE_ENV=production (e.g. https://notes.example.com)'),
    );
    expect(loadConfig(base).publicUrl).toBe('http://127.0.0.1:8001');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://notes.example.com/' }).publicUrl).toBe('https://notes.example.com');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://notes.example.com' }).mailFrom).toBe('groupnotes <noreply@notes.example.com>');
  });

  it.each([
    [{ PORT: '8080' }, 'http://127.0.0.1:8080'],
    [{ HOST: 'localhost', PORT: '9000' }, 'http://localhost:9000'],
    [{ HOST: 'notes.lan' }, 'http://notes.lan:8001'],
    [{ HOST: '192.168.1.20', PORT: '80' }, 'http://192.168.1.20'],
    [{ HOST: '::1', PORT: '8080' }, 'http://[::1]:8080'],
    [{ HOST: 'FE80::1', PORT: '8080' }, 'http://[fe80::1]:8080'],
  ])('in development, defaults PUBLIC_URL to where %j listens', (env, origin) => {
    expect(loadConfig({ ...base, ...env }).publicUrl).toBe(origin);
  });

  it('names this machine in the default PUBLIC_URL when HOST is a wildcard, by a name the Host check lets in', () => {
    for (const [host, origin] of [['0.0.0.0', 'http://127.0.0.1:8080'], ['::', 'http://localhost:8080']] as const) {
      const config = loadConfig({ ...base, HOST: host, PORT: '8080' });
      expect(config.publicUrl).toBe(origin);
      expect(config.allowedHosts).toContain(new URL(origin).hostname);
    }
  });

  it('says to set PUBLIC_URL when HOST makes no address for links', () => {
    expect(() => loadConfig({ ...base, HOST: 'fe80::1%eth0' })).toThrow(
      new ConfigError('PUBLIC_URL cannot default to the listen address HOST=fe80::1%eth0: set PUBLIC_URL (e.g. http://127.0.0.1:8001)'),
    );
  });

  it('refuses to start in production without SMTP_URL, and sends no mail with SMTP_URL=off', () => {
    const production = { ...base, NODE_ENV: 'production', ALLOWED_HOSTS: 'x.example', PUBLIC_URL: 'https://x.example' };
    expect(() => loadConfig(production)).toThrow(
      new ConfigError('SMTP_URL must be set when NODE_ENV=production (smtp://... or smtps://..., or off to send no mail)'),
    );
    expect(loadConfig({ ...production, SMTP_URL: 'off' }).smtpUrl).toBeUndefined();
    expect(loadConfig({ ...production, SMTP_URL: 'OFF' }).smtpUrl).toBeUndefined();
    expect(loadConfig({ ...production, SMTP_URL: 'smtp://mail.x.example:587' }).smtpUrl).toBe('smtp://mail.x.example:587');
    // Development sends no mail without it.
    expect(loadConfig(base).smtpUrl).toBeUndefined();
  });

  it('limits sign-ups to 20 an hour per address by default, SIGNUP_LIMIT_PER_HOUR otherwise (0: no limit)', () => {
    expect(loadConfig(base).signupLimitPerHour).toBe(20);
    expect(loadConfig({ ...base, SIGNUP_LIMIT_PER_HOUR: '2' }).signupLimitPerHour).toBe(2);
    expect(loadConfig({ ...base, SIGNUP_LIMIT_PER_HOUR: '0' }).signupLimitPerHour).toBe(0);
  });

  it.each([
    [{ SIGNUP_LIMIT_PER_HOUR: 'twenty' }, 'SIGNUP_LIMIT_PER_HOUR must be a whole number from 0 to 1000000 (got "twenty")'],
    [{ SIGNUP_LIMIT_PER_HOUR: '-1' }, 'SIGNUP_LIMIT_PER_HOUR must be a whole number from 0 to 1000000 (got "-1")'],
    [{ SMTP_URL: 'of' }, 'SMTP_URL must start with smtp:// or smtps://, or be off (got "of")'],
    [{ PUBLIC_URL: 'notes.example.com' }, 'PUBLIC_URL must look like https://host[:port]'],
    [{ PUBLIC_URL: 'https://notes.example.com/app' }, 'PUBLIC_URL must look like https://host[:port]'],
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535 (got "eighty")'],
    [{ PORT: '70000' }, 'PORT must be a whole number'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with sqlite: or postgres://'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY must be true or false'],
    [{ CSRF_TRUSTED_ORIGINS: 'tunnel.example' }, 'CSRF_TRUSTED_ORIGINS entries must look like'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be a whole number from 1 to 1000 (got "0")'],
    [{ PAGE_CACHE_MB: '-1' }, 'PAGE_CACHE_MB must be a whole number from 0 to 4096 (got "-1")'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY must be at least 32 characters'],
    [{ NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(40) }, 'ALLOWED_HOSTS must be set when NODE_ENV=production'],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
