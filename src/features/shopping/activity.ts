import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ActivityObjectKind } from '../../platform/activity.js';
import { ShoppingRepository } from './repository.js';

/** How shopping lists show in group activity: titled, and seen by visibleLists, the rule of their pages. */
export function shoppingActivity(db: Kysely<Database>): ActivityObjectKind {
  const lists = new ShoppingRepository(db);
  return {
    kind: 'shopping',
    noun: 'shopping list',
    path: (id) => `/shopping/${id}/`,
    title: (listId) => db.selectFrom('shopping_lists').select('shopping_lists.title').where('shopping_lists.id', '=', listId).$asScalar(),
    visible: (viewerId, listId) => sql<SqlBool>`exists ${lists.visibleLists(viewerId).select('shopping_lists.id').where('shopping_lists.id', '=', listId)}`,
  };
}
