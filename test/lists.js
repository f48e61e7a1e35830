// Factories for to-do and shopping lists, each kind's rows read and written by name (listRows),
// and a snapshot to prove a refused change changed nothing.
export async function createTodoList(db, owner, overrides = {}) {
    const now = Date.now();
    const list = await db
        .insertInto('todo_lists')
        .values({ owner_id: owner.id, title: overrides.title ?? 'Chores', description: overrides.description ?? '', created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
    for (const user of overrides.sharedWith ?? [])
        await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
    for (const user of overrides.tickers ?? [])
        await db.insertInto('todo_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
    return list;
}
export async function addTodoItem(db, list, overrides = {}) {
    return db
        .insertInto('todo_items')
        .values({
        list_id: list.id,
        text: overrides.text ?? 'Water the plants',
        due_date: overrides.due_date ?? null,
        is_done: overrides.is_done ?? 0,
        position: overrides.position ?? 0,
        assignee_id: overrides.assignee?.id ?? null,
        created_at: Date.now(),
    })
        .returningAll()
        .executeTakeFirstOrThrow();
}
export async function createShoppingList(db, owner, overrides = {}) {
    const now = Date.now();
    const list = await db
        .insertInto('shopping_lists')
        .values({
        owner_id: owner.id,
        title: overrides.title ?? 'Weekly shop',
        store_name: overrides.store_name ?? '',
        group_id: overrides.group?.id ?? null,
        group_permission: overrides.group_permission ?? 'read',
        created_at: now,
        updated_at: now,
    })
        .returningAll()
        .executeTakeFirstOrThrow();
    for (const user of overrides.sharedWith ?? [])
        await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id }).execute();
    for (const user of overrides.tickers ?? [])
        await db.insertInto('shopping_list_shares').values({ list_id: list.id, user_id: user.id, permission: 'tick' }).execute();
    return list;
}
/** A shopping item; `is_bought` (1: bought) as the JSON API names it, stored in its done column. */
export async function addShoppingItem(db, list, overrides = {}) {
    return db
        .insertInto('shopping_items')
        .values({
        list_id: list.id,
        name: overrides.name ?? 'Milk',
        quantity_milli: overrides.quantity_milli ?? 1000,
        unit: overrides.unit ?? '',
        estimated_price_cents: overrides.estimated_price_cents === undefined ? 99 : overrides.estimated_price_cents,
        // A shopping item's bought is the table's is_done (migration 0024).
        is_done: overrides.is_bought ?? 0,
        created_at: Date.now(),
    })
        .returningAll()
        .executeTakeFirstOrThrow();
}
const doneState = (done, by, at) => ({ done, by, at: at === null ? null : Number(at) });
function listRows(db, tables) {
    const { lists, items, shares } = tables;
    return {
        list: (id) => db.selectFrom(lists).selectAll().where('id', '=', id).$castTo().executeTakeFirst(),
        newestList: () => db.selectFrom(lists).selectAll().orderBy('id', 'desc').$castTo().executeTakeFirstOrThrow(),
        items: (listId) => db.selectFrom(items).selectAll().where('list_id', '=', listId).orderBy('id').$castTo().execute(),
        item: (id) => db.selectFrom(items).selectAll().where('id', '=', id).$castTo().executeTakeFirst(),
        async done(itemId) {
            const row = await db.selectFrom(items).select(['is_done', 'done_by', 'done_at']).where('id', '=', itemId).executeTakeFirstOrThrow();
            return doneState(row.is_done, row.done_by, row.done_at);
        },
        async recordWho(listId, { createdBy, doneBy, at }) {
            await db.updateTable(items).set({ created_by: createdBy, done_by: doneBy, done_at: at }).where('list_id', '=', listId).execute();
        },
        shares: (listId) => db.selectFrom(shares).select(['user_id', 'permission']).where('list_id', '=', listId).orderBy('user_id').execute(),
        async share(listId, userId, permission) {
            await db.insertInto(shares).values({ list_id: listId, user_id: userId, permission }).execute();
        },
        async unshare(listId, userId) {
            await db.deleteFrom(shares).where('list_id', '=', listId).where('user_id', '=', userId).execute();
        },
        async setUpdatedAt(listIds, updatedAt) {
            await db.updateTable(lists).set({ updated_at: updatedAt }).where('id', 'in', listIds).execute();
        },
    };
}
export const todoRows = (db) => listRows(db, { lists: 'todo_lists', items: 'todo_items', shares: 'todo_list_shares' });
export const shoppingRows = (db) => listRows(db, { lists: 'shopping_lists', items: 'shopping_items', shares: 'shopping_list_shares' });
/** The notifications a user was sent, as kind, text and link, oldest first. */
export async function notificationsOf(db, user) {
    return db.selectFrom('notifications').select(['kind', 'text', 'link']).where('user_id', '=', user.id).orderBy('id').execute();
}
/** Every row of every list table, in a stable order: equal snapshots mean nothing changed. */
export async function listTablesSnapshot(db) {
    return {
        todo_lists: await db.selectFrom('todo_lists').selectAll().orderBy('id').execute(),
        todo_list_shares: await db.selectFrom('todo_list_shares').selectAll().orderBy('list_id').orderBy('user_id').execute(),
        todo_items: await db.selectFrom('todo_items').selectAll().orderBy('id').execute(),
        shopping_lists: await db.selectFrom('shopping_lists').selectAll().orderBy('id').execute(),
        shopping_list_shares: await db.selectFrom('shopping_list_shares').selectAll().orderBy('list_id').orderBy('user_id').execute(),
        shopping_items: await db.selectFrom('shopping_items').selectAll().orderBy('id').execute(),
    };
}
//# sourceMappingURL=lists.js.map