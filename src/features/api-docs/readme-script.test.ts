import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, createUser, DEFAULT_PASSWORD, type TestApp } from '../../../test/index.js';

// The README's curl script, run as written against a listening server: signs in, creates a
// token on the tokens page, creates a note with it and reads it back.

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

function readmeScript(): string {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## JSON API'));
  const script = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!script) throw new Error('no sh block in the README’s JSON API section');
  return script;
}

it('the README’s curl script creates a token, creates a note and reads it back', async () => {
  const user = await createUser(t.db, { username: 'curl-user' });
  const script = readmeScript().replace(/^BASE=.*$/m, `BASE=${base} USERNAME=${user.username} PASSWORD='${DEFAULT_PASSWORD}'`);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { timeout: 20_000 });
  const note = JSON.parse(stdout) as { id: number; title: string; content: string };
  expect(note).toMatchObject({ title: 'From the shell', content: 'Made with *curl*.' });
  const stored = await t.db.selectFrom('notes').select(['owner_id', 'title']).where('id', '=', note.id).executeTakeFirstOrThrow();
  expect(stored).toEqual({ owner_id: user.id, title: 'From the shell' });
  const tokens = await t.db.selectFrom('access_tokens').select(['name', 'scope']).where('user_id', '=', user.id).execute();
  expect(tokens).toEqual([{ name: 'shell', scope: 'write' }]);
});
