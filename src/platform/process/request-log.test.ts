import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLog } from './request-log.js';

describe('the request log', () => {
  it('writes the path of each request, never its query string (search terms, next)', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream }, logController: new LogController({ disableRequestLogging: true }) });
    await app.register(requestLog);
    app.get('/notes/', async () => 'ok');
    app.get('/accounts/login/', async () => 'ok');
    await app.inject('/notes/?q=biopsy+results&page=2');
    await app.inject('/accounts/login/?next=%2Fnotes%2F42%2F');
    await app.close();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; path?: string; url?: string }).filter((line) => line.msg === 'request');
    expect(logged.map((line) => line.path)).toEqual(['/notes/', '/accounts/login/']);
    expect(lines.join('')).not.toMatch(/biopsy|next=|notes%2F42/);
  });
});
