import type { Kysely } from 'kysely';
import { withId } from './dialect.js';

// Personal access tokens for the JSON API (platform/api/tokens.ts): a user names one, picks read
// or write, sees it once. Only its SHA-256 is kept (the token is 40 random characters, so no salt
// or slow hash is needed); revoking deletes the row; deleting the user deletes theirs.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('access_tokens'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    /** `read` or `write`. */
    .addColumn('scope', 'text', (col) => col.notNull())
    /** Hex SHA-256 of the whole token. */
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    /** The first characters after the prefix, shown in the list so a user can tell tokens apart. */
    .addColumn('hint', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('access_tokens_user').on('access_tokens').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('access_tokens').execute();
}
