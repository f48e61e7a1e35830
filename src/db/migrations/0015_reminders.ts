import { type Kysely, sql } from 'kysely';
import { isPostgres, withId } from './dialect.js';

// Reminders on notes, and at once the scheduler's job table: a row is claimed when
// `next_due_at` has passed (features/notes/reminder-scheduler.ts), in the transaction that
// delivers it and then deletes it or moves it to its next occurrence. The wall-clock time as
// entered and its time zone are kept, so repeats follow the schedule in that zone (09:00 stays
// 09:00 across a DST change). Deleting the note or its owner deletes its reminders.
//
// The note page lists its reminders and is kept under notes.view_version (0007): triggers move
// the note's number on every reminder change, whoever makes it.

const TRIGGERS = [
  { event: 'insert', notes: 'NEW.note_id' },
  { event: 'update', notes: 'OLD.note_id, NEW.note_id' },
  { event: 'delete', notes: 'OLD.note_id' },
];

const triggerName = (event: string) => `reminders_${event}_view_version`;

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('reminders'))
    .addColumn('note_id', 'integer', (col) => col.notNull().references('notes.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    /** As entered: `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`, in time_zone. */
    .addColumn('local_time', 'text', (col) => col.notNull())
    .addColumn('time_zone', 'text', (col) => col.notNull())
    /** `none`, `daily`, `weekly` or `monthly`. */
    .addColumn('repeat', 'text', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull().defaultTo(''))
    /** Epoch ms of the next delivery. */
    .addColumn('next_due_at', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('reminders_due').on('reminders').columns(['next_due_at', 'id']).execute();
  await db.schema.createIndex('reminders_note').on('reminders').columns(['note_id', 'next_due_at']).execute();
  const postgres = isPostgres(db);
  for (const { event, notes } of TRIGGERS) {
    const name = triggerName(event);
    const body = `update notes set view_version = view_version + 1 where id in (${notes});`;
    if (postgres) {
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$\nbegin\n  ${body}\n  return null;\nend\n$$`).execute(db);
      await sql.raw(`create trigger ${name} after ${event} on reminders for each row execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} after ${event} on reminders for each row begin\n  ${body}\nend`).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const { event } of TRIGGERS) {
    const name = triggerName(event);
    await sql.raw(postgres ? `drop trigger ${name} on reminders` : `drop trigger ${name}`).execute(db);
    if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  }
  await db.schema.dropTable('reminders').execute();
}
