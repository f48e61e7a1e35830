import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

// Administrators (the person who runs the instance) and the audit log of what they do, so that
// helping a locked-out relative needs no database shell and leaves a trace.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('is_admin', 'smallint', (col) => col.notNull().defaultTo(0)).execute();
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'bigint', (col) => col.notNull())
    // Kept when the people are deleted: the log outlives them, by name.
    .addColumn('actor_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('target_name', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.alterTable('users').dropColumn('is_admin').execute();
}
