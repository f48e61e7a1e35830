import type { Kysely } from 'kysely';

// A shopping list's currency: its prices and total are shown in it to everyone who reads the
// list, each in their own language. An ISO 4217 code from the account page's short list, or ''
// for none (plain numbers). Until now prices followed each viewer's own currency (0020); an
// existing list takes its owner's, which is what its owner saw.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('shopping_lists')
    .addColumn('currency', 'varchar(3)', (col) => col.notNull().defaultTo(''))
    .execute();
  await db
    .updateTable('shopping_lists')
    .set((eb) => ({
      currency: eb.fn.coalesce(eb.selectFrom('users').select('users.currency').whereRef('users.id', '=', 'shopping_lists.owner_id'), eb.val('')),
    }))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('shopping_lists').dropColumn('currency').execute();
}
