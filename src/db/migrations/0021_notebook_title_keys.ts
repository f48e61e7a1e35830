import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// Notebook titles become unique per owner by the same rule as tag names (0006_name_keys): a key
// worked out in JavaScript, stored beside the title in `title_key`, under a unique index on
// (owner_id, title_key). "Recipes" and "recipes" were both allowed until now.
//
// Unlike 0006, existing duplicates do not stop the migration: a notebook's title identifies
// nothing (no one logs in or is shared with by it). Per owner, in id order, the first notebook
// keeps its title and each later one with the same key is renamed "Recipes (2)", "Recipes (3)"...
// (the first number free once folded); a title that folds to nothing or too long is renamed
// "Notebook" first. Deterministic: the same rows always get the same names.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE_RUN = /\s+/gu;
const DOTTED_I = /i\u0307/gu;
const MAX_KEY_LENGTH = 600;
const TITLE_MAX = 200;

/** A frozen copy of `identityKey` as it was when this migration was written: never edit it. */
export function titleKey(title: string): string {
  return title
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(DOTTED_I, 'i')
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/** `title`, or the first of "title (2)", "title (3)"... whose key the owner does not have yet (cut to fit 200 characters). */
export function freeTitle(title: string, taken: Set<string>): string {
  const usable = titleKey(title) !== '' && titleKey(title).length <= MAX_KEY_LENGTH ? title : 'Notebook';
  if (!taken.has(titleKey(usable))) return usable;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${[...usable].slice(0, TITLE_MAX - suffix.length).join('').trimEnd()}${suffix}`;
    if (!taken.has(titleKey(candidate))) return candidate;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite adds a NOT NULL column only with a default; PostgreSQL drops it below.
  await db.schema.alterTable('notebooks').addColumn('title_key', `varchar(${MAX_KEY_LENGTH})`, (col) => col.notNull().defaultTo('')).execute();
  const rows = await db.selectFrom('notebooks').select(['id', 'owner_id', 'title']).orderBy('owner_id').orderBy('id').execute();
  const takenByOwner = new Map<number, Set<string>>();
  for (const row of rows) {
    const owner = Number(row.owner_id);
    const taken = takenByOwner.get(owner) ?? new Set<string>();
    takenByOwner.set(owner, taken);
    const title = freeTitle(String(row.title), taken);
    const key = titleKey(title);
    taken.add(key);
    const changes = title === row.title ? { title_key: key } : { title, title_key: key };
    await db.updateTable('notebooks').set(changes).where('id', '=', row.id).execute();
  }
  if (isPostgres(db)) {
    await sql`alter table notebooks alter column title_key drop default`.execute(db);
  } else {
    // A row inserted without its key would escape the rule: refused, as 0006 does for tags.
    await sql`create trigger notebooks_title_key_required before insert on notebooks
      when new.title_key = ''
      begin select raise(abort, 'notebooks.title_key is required'); end`.execute(db);
  }
  await db.schema.createIndex('notebooks_owner_title_key').on('notebooks').unique().columns(['owner_id', 'title_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index notebooks_owner_title_key`.execute(db);
  if (!isPostgres(db)) await sql`drop trigger notebooks_title_key_required`.execute(db);
  await db.schema.alterTable('notebooks').dropColumn('title_key').execute();
}
