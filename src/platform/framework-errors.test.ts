import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildTestApp, createToken, createUser, results, type TestApp } from '../../test/index.js';
import { translator } from './i18n/index.js';

// Requests that Fastify or Node refuse before the hooks run (platform/framework-errors.tsx) are
// answered like every other error: in the API's shape under /api/, with an error page elsewhere.

let t: TestApp;
let token: string;
let api: ApiClient;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  token = await createToken(t.db, await createUser(t.db));
  api = new ApiClient(t.app, { token });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const en = translator('en').t;
const uk = translator('uk').t;

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** The API's documented error body, and nothing else: `{"error": {"code", "message"}}`. */
function apiError({ type, body }: Pick<Answer, 'type' | 'body'>): { code: string; message: string } {
  expect(type).toBe('application/json; charset=utf-8');
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error)).toEqual(['code', 'message']);
  return parsed.error;
}

function page({ type, body }: Pick<Answer, 'type' | 'body'>): string {
  expect(type).toBe('text/html; charset=utf-8');
  expect(body).toMatch(/^<!doctype html>/);
  expect(body).toContain('vendor/pico.min.css');
  return body;
}

/**
 * A request sent as these bytes, past the percent-encoding a client library would do: what
 * `curl 'http://host/api/v1/notes/?q=борщ'` sends.
 */
function sendRaw(target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const head = Object.entries({ host: 'localhost', connection: 'close', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from(`GET ${target} HTTP/1.1\r\n${head}\r\n`, 'utf8')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const type = /^content-type: *(.*)$/im.exec(head)?.[1] ?? '';
      resolve({ status: Number(head.split(' ')[1]), type, body });
    });
  });
}

async function inject(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await t.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } });
  return { status: response.statusCode, type: String(response.headers['content-type']), body: response.body };
}

describe('an address that is not valid percent-encoding', () => {
  it('sent raw (non-ASCII in the query, as curl sends it) is a 400 in the API’s shape that says how to send it', async () => {
    const answer = await sendRaw('/api/v1/notes/?q=борщ');
    expect(answer.status).toBe(400);
    expect(apiError(answer)).toEqual({ code: 'invalid', message: en('error.bad_url') });
  });

  it('sent raw is answered in the caller’s language', async () => {
    const answer = await sendRaw('/api/v1/нотатки/', { 'accept-language': 'uk' });
    expect(answer.status).toBe(400);
    expect(apiError(answer)).toEqual({ code: 'invalid', message: uk('error.bad_url') });
  });

  it('sent raw to a page is an error page', async () => {
    const answer = await sendRaw('/notes/?q=борщ');
    expect(answer.status).toBe(400);
    expect(page(answer)).toContain(en('error.bad_url'));
  });

  it.each(['/api/v1/notes/%zz/', '/api/v1/notes/%E0%A4%A/', '/api/v1/%/'])('in the path (%s) is a 400 in the API’s shape', async (url) => {
    const answer = await inject(url, { 'accept-language': 'uk' });
    expect(answer.status).toBe(400);
    expect(apiError(answer)).toEqual({ code: 'invalid', message: uk('error.bad_url') });
  });

  it('in a page’s path is an error page', async () => {
    const answer = await inject('/notes/%zz/');
    expect(answer.status).toBe(400);
    expect(page(answer)).toContain(en('error.bad_url'));
  });

  it.each(['?q=%zz', '?q=100%', '?q=%FF', '?limit=5&q=%D0'])('in an API query (%s) is a 400, not a search for the text as it came', async (query) => {
    const response = await api.get(`/api/v1/notes/${query}`);
    expect(response.statusCode).toBe(400);
    expect(apiError({ type: String(response.headers['content-type']), body: response.body })).toEqual({ code: 'invalid', message: en('error.bad_url') });
  });
});

describe('an address in UTF-8 percent-encoding', () => {
  it('is read as UTF-8', async () => {
    expect((await api.post('/api/v1/notes/', { title: 'борщ по-київськи' })).statusCode).toBe(201);
    const found = await api.get(`/api/v1/notes/?q=${encodeURIComponent('борщ')}`);
    expect(found.statusCode).toBe(200);
    expect(results(found).map((note) => String(note.title))).toEqual(['борщ по-київськи']);
  });
});

describe('a path part longer than the router takes', () => {
  it('is the 404 of a path that names nothing, in the API’s shape', async () => {
    const answer = await inject(`/api/v1/notes/${'1'.repeat(101)}/`);
    expect(answer.status).toBe(404);
    expect(apiError(answer)).toEqual({ code: 'not_found', message: en('error.not_found') });
  });

  it('is a 404 page for a page', async () => {
    const answer = await inject(`/notes/${'1'.repeat(101)}/`);
    expect(answer.status).toBe(404);
    page(answer);
  });
});

describe('headers past Node’s limit', () => {
  it('are a 431 in the API’s shape', async () => {
    const answer = await sendRaw('/api/v1/notes/', { 'x-padding': 'x'.repeat(20_000) });
    expect(answer.status).toBe(431);
    expect(apiError(answer)).toEqual({ code: 'headers_too_large', message: en('error.headers_too_large') });
  });

  it('are a 431 page for a page', async () => {
    const answer = await sendRaw('/notes/', { 'x-padding': 'x'.repeat(20_000) });
    expect(answer.status).toBe(431);
    expect(page(answer)).toContain(en('error.headers_too_large'));
  });
});

describe('the framework’s other refusals of an API request', () => {
  it.each([
    ['a body that is not JSON', 400, 'invalid', 'error.bad_request', 'POST', { 'content-type': 'application/json' }, '{"title": '],
    ['an empty JSON body', 400, 'invalid', 'error.bad_request', 'POST', { 'content-type': 'application/json' }, ''],
    ['a body of a type nobody reads', 415, 'unsupported_media_type', 'error.unsupported_media_type', 'POST', { 'content-type': 'text/csv' }, 'a,b'],
    ['a body past the limit', 413, 'too_large', 'error.too_large', 'POST', { 'content-type': 'application/json' }, JSON.stringify({ title: 'x'.repeat(1024 * 1024) })],
    ['a method the path does not take', 405, 'method_not_allowed', 'error.method_not_allowed', 'DELETE', {}, undefined],
  ] as const)('%s is a %i in the API’s shape', async (_, status, code, key, method, headers, payload) => {
    const response = await t.app.inject({ method, url: '/api/v1/notes/', headers: { host: 'localhost', authorization: `Bearer ${token}`, ...headers }, payload });
    expect(response.statusCode).toBe(status);
    expect(apiError({ type: String(response.headers['content-type']), body: response.body })).toEqual({ code, message: en(key, { allowed: 'GET, POST' }) });
  });
});
