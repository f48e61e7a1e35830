import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AudienceRules } from '../../platform/audience.js';
import { listAudience, via } from '../lists-sharing/audience.js';
import { ShoppingListAccess } from './access.js';

/** Who may see shopping list `listId` and what each may do: its owner, users it is shared with and its group's members, as access.ts admits them. */
export function shoppingAudience(db: Kysely<Database>, listId: number): AudienceRules<'shopping_lists'> {
  const access = new ShoppingListAccess(db);
  const candidates = db
    .selectFrom('shopping_lists')
    .select(['shopping_lists.owner_id as user_id', via('owner')])
    .where('shopping_lists.id', '=', listId)
    .unionAll(db.selectFrom('shopping_list_shares').select(['shopping_list_shares.user_id', via('share')]).where('shopping_list_shares.list_id', '=', listId))
    .unionAll(
      db
        .selectFrom('shopping_lists')
        .innerJoin('group_members', 'group_members.group_id', 'shopping_lists.group_id')
        .select(['group_members.user_id', via('group')])
        .where('shopping_lists.id', '=', listId),
    );
  const narrowed = (lists: ReturnType<ShoppingListAccess['visibleLists']>) => lists.select('shopping_lists.id').where('shopping_lists.id', '=', listId);
  return listAudience(candidates, {
    read: (user) => narrowed(access.visibleLists(user)),
    tick: (user) => narrowed(access.tickableLists(user)),
    change: (user) => narrowed(access.ownedLists(user)),
  });
}
