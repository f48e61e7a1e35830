import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The platform knows no feature: what dependency-cruiser cannot see, a feature's table named in
// the platform's code, is checked here. The platform's own tables are the caller's (users and
// their sessions and tokens) and the mail it sends; every other table belongs to a feature.

const PLATFORM = fileURLToPath(new URL('.', import.meta.url));
const SCHEMA = fileURLToPath(new URL('../db/schema.ts', import.meta.url));
const PLATFORM_TABLES = new Set(['users', 'sessions', 'access_tokens', 'mail_outbox']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The tables of the Database interface, as db/schema.ts declares them. */
function tables(): string[] {
  const schema = readFileSync(SCHEMA, 'utf8');
  const body = /export interface Database \{([^}]*)\}/.exec(schema)?.[1] ?? '';
  return [...body.matchAll(/^\s*([a-z_]+):/gm)].map((match) => match[1]!);
}

describe('the platform', () => {
  it('names no feature’s table in its code (the caller’s own tables and the mail outbox aside)', () => {
    const featureTables = tables().filter((table) => !PLATFORM_TABLES.has(table));
    expect(featureTables).toContain('group_members');
    const named: string[] = [];
    for (const file of sources(PLATFORM)) {
      // Code only: a comment may take a feature as its example.
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const table of featureTables) {
        if (new RegExp(`['"\`]${table}(['"\`.]|\\s+as\\s)`).test(text)) named.push(`${relative(PLATFORM, file)}: ${table}`);
      }
    }
    expect(named).toEqual([]);
  });
});
