import { Kysely, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fixedLimit } from './fixed-limit.js';

describe('fixedLimit', () => {
  const db = new Kysely<{ t: { id: number } }>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });

  it('writes the count into the statement, binding nothing', () => {
    const compiled = db.selectFrom('t').select('id').limit(fixedLimit(100)).compile();
    expect(compiled.sql).toBe('select "id" from "t" limit 100');
    expect(compiled.parameters).toEqual([]);
  });

  it('refuses what is not a count, which would otherwise be written into SQL', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => fixedLimit(bad)).toThrow(/a fixed limit is a count/);
  });
});
