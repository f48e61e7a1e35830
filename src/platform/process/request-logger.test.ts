import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLoggerFactory } from './request-logger.js';

/** A Fastify app logging at `level` into an array of parsed lines, with our request logger. */
async function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, childLoggerFactory: requestLoggerFactory, disableRequestLogging: true });
  app.get('/', async (request) => {
    request.log.debug('a debug line');
    request.log.info({ detail: 1 }, 'an info line');
    request.log.warn('a warning');
    request.log.child({ part: 'inner' }).error('an error from a child');
    return 'ok';
  });
  await app.ready();
  return { app, lines };
}

describe('request.log (RequestLogger)', () => {
  it('writes the lines at or above the level, each bound to the request id', async () => {
    const { app, lines } = await appLoggingAt('info');
    const response = await app.inject('/');
    expect(response.statusCode).toBe(200);
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(['an info line', 'a warning', 'an error from a child']);
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(1);
    expect(lines[0]!.reqId).toBeTruthy();
    expect(lines[0]!.detail).toBe(1);
    expect(lines[2]!.part).toBe('inner');
    await app.close();
  });

  it('writes nothing below the level', async () => {
    const { app, lines } = await appLoggingAt('error');
    await app.inject('/');
    expect(lines.map((line) => line.msg)).toEqual(['an error from a child']);
    await app.close();
  });

  it('keeps two requests apart', async () => {
    const { app, lines } = await appLoggingAt('warn');
    await app.inject('/');
    await app.inject('/');
    const ids = lines.filter((line) => line.msg === 'a warning').map((line) => line.reqId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
    await app.close();
  });

  it('makes the pino child only when a line is written', () => {
    const made: unknown[] = [];
    const written: unknown[][] = [];
    const child = { level: 'warn', warn: (...args: unknown[]) => written.push(args) };
    const parent = { level: 'warn', child: (bindings: unknown) => (made.push(bindings), child) } as unknown as Parameters<typeof requestLoggerFactory>[0];
    const log = requestLoggerFactory(parent, { reqId: 'req-1' }, {});
    log.info('below the level');
    log.debug('below the level');
    expect(made).toEqual([]);
    log.warn('at the level');
    log.warn('again');
    expect(made).toEqual([{ reqId: 'req-1' }]);
    expect(written).toEqual([['at the level'], ['again']]);
  });
});

