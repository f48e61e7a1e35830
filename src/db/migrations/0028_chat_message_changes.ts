import type { Kysely } from 'kysely';

// A chat message can be edited by its author for a while, and deleted by its author for that
// while or by the group's owner whenever. A deleted message keeps its row (its content
// emptied), so the history's ids stay continuous and it shows "message deleted" in place.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_messages').addColumn('edited_at', 'bigint').execute();
  await db.schema.alterTable('chat_messages').addColumn('deleted_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_messages').dropColumn('deleted_at').execute();
  await db.schema.alterTable('chat_messages').dropColumn('edited_at').execute();
}
