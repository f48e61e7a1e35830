import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

// A version number on each user and each group that moves whenever something a notes page shows
// to that user, or to that group's members, changes: a note (its text, tags, notebook, group,
// pin...), a tag's or notebook's name or colour on a note, a group's name, an author's name,
// joining or leaving a group. Kept pages are served only while the caller's version and their
// groups' versions are what they were (platform/views/page-cache.ts), so a change by one user
// drops the pages of that user and of their group's members, not every page of the site.
//
// Triggers keep the numbers, in the transaction of the change, whoever makes it: this process,
// another worker or instance, the CLI, or an administrator in psql.

interface Bump {
  table: 'notes' | 'note_tags' | 'tags' | 'notebooks' | 'groups' | 'group_members' | 'users';
  /** `insert`, `update`, `delete`, or `update of <column>`. */
  event: string;
  /** Statements run for each row changed; ROW stands for NEW (insert, update) or OLD (delete). */
  statements: string[];
}

const user = (id: string) => `update users set view_version = view_version + 1 where id in (${id})`;
const group = (id: string) => `update groups set view_version = view_version + 1 where id in (${id})`;
const noteOwner = (noteId: string) => `select owner_id from notes where id = ${noteId}`;
const noteGroup = (noteId: string) => `select group_id from notes where id = ${noteId}`;

const BUMPS: Bump[] = [
  { table: 'notes', event: 'insert', statements: [user('NEW.owner_id'), group('NEW.group_id')] },
  { table: 'notes', event: 'update', statements: [user('OLD.owner_id, NEW.owner_id'), group('OLD.group_id, NEW.group_id')] },
  { table: 'notes', event: 'delete', statements: [user('OLD.owner_id'), group('OLD.group_id')] },
  { table: 'note_tags', event: 'insert', statements: [user(noteOwner('NEW.note_id')), group(noteGroup('NEW.note_id'))] },
  { table: 'note_tags', event: 'delete', statements: [user(noteOwner('OLD.note_id')), group(noteGroup('OLD.note_id'))] },
  ...(['update', 'delete'] as const).flatMap((event): Bump[] => [
    {
      table: 'tags',
      event,
      statements: [user('OLD.owner_id'), group('select notes.group_id from note_tags join notes on notes.id = note_tags.note_id where note_tags.tag_id = OLD.id')],
    },
    { table: 'notebooks', event, statements: [user('OLD.owner_id'), group('select group_id from notes where notebook_id = OLD.id')] },
  ]),
  { table: 'groups', event: 'update of name', statements: [group('NEW.id')] },
  { table: 'group_members', event: 'insert', statements: [user('NEW.user_id')] },
  { table: 'group_members', event: 'delete', statements: [user('OLD.user_id')] },
  { table: 'users', event: 'update of username', statements: [user('NEW.id'), group('select group_id from notes where owner_id = NEW.id')] },
];

const triggerName = (bump: Bump) => `${bump.table}_${bump.event.replace(/ /g, '_')}_view_version`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['users', 'groups']) {
    await db.schema.alterTable(table).addColumn('view_version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  }
  const postgres = isPostgres(db);
  for (const bump of BUMPS) {
    const name = triggerName(bump);
    const body = bump.statements.map((statement) => `${statement};`).join('\n  ');
    if (postgres) {
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$\nbegin\n  ${body}\n  return null;\nend\n$$`).execute(db);
      await sql.raw(`create trigger ${name} after ${bump.event} on ${bump.table} for each row execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} after ${bump.event} on ${bump.table} for each row begin\n  ${body}\nend`).execute(db);
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
  for (const table of ['users', 'groups']) await db.schema.alterTable(table).dropColumn('view_version').execute();
}
