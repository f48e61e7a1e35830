import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// A version number on each user, group and note that moves whenever something the notes pages
// show changes. Kept pages are served only while the numbers they were read under are what they
// were (platform/views/page-cache.ts), so a change drops the pages that show it, not every page:
//
// - a note's version moves with the note itself (its text, pin, group, notebook...), its tags,
//   and the name or colour of a tag or notebook on it: its page is kept under it;
// - a user's and a group's version move whenever one of their notes' versions does, when a group
//   is renamed, when an author is renamed, and (the user's) on joining or leaving a group: the
//   notes list of a user is kept under theirs and their groups'.
//
// Triggers keep the numbers, in the transaction of the change, whoever makes it: this process,
// another worker or instance, the CLI, or an administrator in psql.

interface Bump {
  table: 'notes' | 'note_tags' | 'tags' | 'notebooks' | 'groups' | 'group_members' | 'users';
  /** `insert`, `update`, `delete`, or `update of <column>`. */
  event: string;
  /** Runs only for rows where this holds. */
  when?: string;
  /** Statements run for each row changed, where NEW and OLD are the row after and before. */
  statements: string[];
}

const user = (id: string) => `update users set view_version = view_version + 1 where id in (${id})`;
const group = (id: string) => `update groups set view_version = view_version + 1 where id in (${id})`;
const note = (id: string) => `update notes set view_version = view_version + 1 where id in (${id})`;
const noteOwner = (noteId: string) => `select owner_id from notes where id = ${noteId}`;
const noteGroup = (noteId: string) => `select group_id from notes where id = ${noteId}`;
const taggedNotes = (tagId: string) => `select note_id from note_tags where tag_id = ${tagId}`;

const BUMPS: Bump[] = [
  { table: 'notes', event: 'insert', statements: [user('NEW.owner_id'), group('NEW.group_id')] },
  // Not for the update of the note's own number that it makes.
  {
    table: 'notes',
    event: 'update',
    when: 'NEW.view_version = OLD.view_version',
    statements: [note('NEW.id'), user('OLD.owner_id, NEW.owner_id'), group('OLD.group_id, NEW.group_id')],
  },
  { table: 'notes', event: 'delete', statements: [user('OLD.owner_id'), group('OLD.group_id')] },
  ...(['NEW', 'OLD'] as const).map(
    (row): Bump => ({ table: 'note_tags', event: row === 'NEW' ? 'insert' : 'delete', statements: [note(`${row}.note_id`), user(noteOwner(`${row}.note_id`)), group(noteGroup(`${row}.note_id`))] }),
  ),
  ...(['update', 'delete'] as const).flatMap((event): Bump[] => [
    {
      table: 'tags',
      event,
      statements: [note(taggedNotes('OLD.id')), user('OLD.owner_id'), group(`select group_id from notes where id in (${taggedNotes('OLD.id')})`)],
    },
    { table: 'notebooks', event, statements: [note('select id from notes where notebook_id = OLD.id'), user('OLD.owner_id'), group('select group_id from notes where notebook_id = OLD.id')] },
  ]),
  { table: 'groups', event: 'update of name', statements: [group('NEW.id')] },
  { table: 'group_members', event: 'insert', statements: [user('NEW.user_id')] },
  { table: 'group_members', event: 'delete', statements: [user('OLD.user_id')] },
  { table: 'users', event: 'update of username', statements: [user('NEW.id'), group('select group_id from notes where owner_id = NEW.id')] },
];

const triggerName = (bump: Bump) => `${bump.table}_${bump.event.replace(/ /g, '_')}_view_version`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'groups', 'notes']) {
    await db.schema.alterTable(table).addColumn('view_version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  }
  const postgres = isPostgres(db);
  for (const bump of BUMPS) {
    const name = triggerName(bump);
    const body = bump.statements.map((statement) => `${statement};`).join('\n  ');
    const when = bump.when ? ` when (${bump.when})` : '';
    if (postgres) {
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$\nbegin\n  ${body}\n  return null;\nend\n$$`).execute(db);
      await sql.raw(`create trigger ${name} after ${bump.event} on ${bump.table} for each row${when} execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} after ${bump.event} on ${bump.table} for each row${when} begin\n  ${body}\nend`).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const bump of BUMPS) {
    const name = triggerName(bump);
    await sql.raw(postgres ? `drop trigger ${name} on ${bump.table}` : `drop trigger ${name}`).execute(db);
    if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  }
  for (const table of ['users', 'groups', 'notes']) await db.schema.alterTable(table).dropColumn('view_version').execute();
}
