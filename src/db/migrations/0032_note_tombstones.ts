import type { Kysely } from 'kysely';

// A deleted note leaves a tombstone: its id, its owner, its group at that moment and when, never
// its title or text. Going back to the note then tells its owner and the group's members that it
// was deleted, instead of the 404 that everyone else gets. Tombstones older than 90 days are swept
// with the owner's next deletion (notes/repository.ts), so the table stays small.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('note_tombstones')
    .addColumn('note_id', 'integer', (col) => col.primaryKey())
    .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (col) => col.references('groups.id').onDelete('set null'))
    .addColumn('deleted_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('note_tombstones_owner_deleted').on('note_tombstones').columns(['owner_id', 'deleted_at']).execute();
  await db.schema.createIndex('note_tombstones_group').on('note_tombstones').column('group_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('note_tombstones').execute();
}
