import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { TestApp } from './helpers.js';

// The original application's dumpdata, for the import-django tests. The fixture's users' hashes
// were made with the passwords below (the README of the shared fixtures).
export const FIXTURE = new URL('./fixtures/django-dumpdata-sample.json', import.meta.url).pathname;
export const PASSWORDS = { olenaa5cd: 'olenaa5cd-pass-158176', tarasa5cd: 'tarasa5cd-pass-061981', irynaa5cd: 'irynaa5cd-pass-566950' };

/** The fixture's entries, to change one for a test. */
export const fixture = () => JSON.parse(readFileSync(FIXTURE, 'utf8')) as { model: string; pk: number | string; fields: Record<string, unknown> }[];

/** Writes dumps to files in a temporary folder of the calling test file, removed after its tests. */
export function dumpFiles(): (content: unknown) => string {
  const dir = mkdtempSync(join(tmpdir(), 'groupnotes-django-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let counter = 0;
  return (content) => {
    counter += 1;
    const path = join(dir, `dump${counter}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
}

/** Rows per table that an import writes. */
export async function counts(t: TestApp) {
  const tables = ['users', 'groups', 'group_members', 'notebooks', 'tags', 'notes', 'note_tags', 'todo_lists', 'todo_items', 'todo_list_shares', 'shopping_lists', 'shopping_items', 'chat_messages', 'reminders'] as const;
  const result: Record<string, number> = {};
  for (const table of tables) {
    const row = await t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}
