import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// Usernames, group names and tag names get a key stored beside them, worked out in JavaScript
// (`platform/identity-key.ts`), with unique indexes on the keys instead of on SQL's lower():
// SQLite's lower() folds A-Z only, so `Émile` could not log in and `émile` could register again.
// Group names become unique per owner instead of across the site.
//
// Rows that already exist and now have the same key are not merged and no winner is picked (a
// username decides who logs in and who a list is shared with): the migration stops, changes
// nothing (it runs in a transaction) and names every such row, so that an administrator renames
// them and migrates again. The version already running keeps serving meanwhile.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const WHITESPACE_RUN = /\s+/gu;
const DOTTED_I = /i\u0307/gu;
const MAX_KEY_LENGTH = 600;

/** A frozen copy of `identityKey` as it was when this migration was written: never edit it. */
export function nameKey(name: string): string {
  return name
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

interface KeyedTable {
  table: 'users' | 'groups' | 'tags';
  nameColumn: 'username' | 'name';
  keyColumn: 'username_key' | 'name_key';
  /** Keys are unique per owner (groups, tags) or across the site (users). */
  perOwner: boolean;
}

const TABLES: KeyedTable[] = [
  { table: 'users', nameColumn: 'username', keyColumn: 'username_key', perOwner: false },
  { table: 'groups', nameColumn: 'name', keyColumn: 'name_key', perOwner: true },
  { table: 'tags', nameColumn: 'name', keyColumn: 'name_key', perOwner: true },
];

interface Row {
  id: number;
  name: string;
  owner: number | null;
  key: string;
}

async function keyedRows(db: Kysely<any>, { table, nameColumn, perOwner }: KeyedTable): Promise<Row[]> {
  const rows = await db
    .selectFrom(table)
    .select(['id', `${nameColumn} as name`, ...(perOwner ? ['owner_id as owner'] : [])])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: Number(row.id), name: String(row.name), owner: perOwner ? Number(row.owner) : null, key: nameKey(String(row.name)) }));
}

/** Each set of rows that would share a key, each name that folds to nothing or too long: one phrase each. */
function problemsOf(table: string, rows: Row[]): string[] {
  const scope = (row: Row) => (row.owner === null ? table : `${table} of owner ${row.owner}`);
  const shown = (row: Row) => `${JSON.stringify(row.name)} (id ${row.id})`;
  const problems: string[] = [];
  const sets = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.key === '') problems.push(`${scope(row)}: ${shown(row)} shows no letter`);
    else if (row.key.length > MAX_KEY_LENGTH) problems.push(`${scope(row)}: ${shown(row)} is too long once folded`);
    else {
      const setKey = `${row.owner ?? ''}\u0000${row.key}`;
      sets.set(setKey, [...(sets.get(setKey) ?? []), row]);
    }
  }
  for (const set of sets.values()) if (set.length > 1) problems.push(`${scope(set[0]!)}: ${set.map(shown).join(', ')}`);
  return problems;
}

export async function up(db: Kysely<any>): Promise<void> {
  const rowsByTable = new Map<KeyedTable, Row[]>();
  for (const table of TABLES) rowsByTable.set(table, await keyedRows(db, table));
  const problems = TABLES.flatMap((table) => problemsOf(table.table, rowsByTable.get(table)!));
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} problem(s) with names that must be unique, now that letter case and Unicode compatibility forms ` +
        `(fullwidth letters, ligatures) are folded: ${problems.join('; ')}. Nothing was changed: rename all but one of each set, ` +
        `and each name that shows no letter, then migrate again (for example: update users set username = '<new name>' where id = <id>).`,
    );
  }

  await sql`drop index users_username_ci`.execute(db);
  await sql`drop index groups_name_ci`.execute(db);
  await sql`drop index tags_owner_name_ci`.execute(db);
  for (const table of TABLES) {
    // SQLite adds a NOT NULL column only with a default; PostgreSQL drops it below.
    await db.schema.alterTable(table.table).addColumn(table.keyColumn, `varchar(${MAX_KEY_LENGTH})`, (col) => col.notNull().defaultTo('')).execute();
    for (const row of rowsByTable.get(table)!) {
      await db.updateTable(table.table).set({ [table.keyColumn]: row.key }).where('id', '=', row.id).execute();
    }
    await requireKey(db, table);
  }
  await db.schema.createIndex('users_username_key').on('users').unique().column('username_key').execute();
  await db.schema.createIndex('groups_owner_name_key').on('groups').unique().columns(['owner_id', 'name_key']).execute();
  await db.schema.createIndex('tags_owner_name_key').on('tags').unique().columns(['owner_id', 'name_key']).execute();
}

/** A row inserted without its key would be unreachable by name: refuse it, on both databases. */
async function requireKey(db: Kysely<any>, { table, keyColumn }: KeyedTable): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(keyColumn)} drop default`.execute(db);
    return;
  }
  await sql`create trigger ${sql.raw(`${table}_${keyColumn}_required`)} before insert on ${sql.table(table)}
    when new.${sql.ref(keyColumn)} = ''
    begin select raise(abort, ${sql.lit(`${table}.${keyColumn} is required`)}); end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index tags_owner_name_key`.execute(db);
  await sql`drop index groups_owner_name_key`.execute(db);
  await sql`drop index users_username_key`.execute(db);
  for (const { table, keyColumn } of TABLES) {
    if (!isPostgres(db)) await sql`drop trigger ${sql.raw(`${table}_${keyColumn}_required`)}`.execute(db);
    await db.schema.alterTable(table).dropColumn(keyColumn).execute();
  }
  // Fails, changing nothing, if two owners now have groups of one name: 0005 allowed only one.
  await db.schema.createIndex('users_username_ci').on('users').unique().expression(sql`lower(username)`).execute();
  await db.schema.createIndex('groups_name_ci').on('groups').unique().expression(sql`lower(name)`).execute();
  await db.schema.createIndex('tags_owner_name_ci').on('tags').unique().columns(['owner_id']).expression(sql`lower(name)`).execute();
}
