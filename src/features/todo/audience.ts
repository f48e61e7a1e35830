import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AudienceRules } from '../../platform/audience.js';
import { listAudience, via } from '../lists-sharing/audience.js';
import { TodoListAccess } from './access.js';

/** Who may see to-do list `listId` and what each may do: its owner and the users it is shared with, as access.ts admits them. */
export function todoAudience(db: Kysely<Database>, listId: number): AudienceRules<'todo_lists'> {
  const access = new TodoListAccess(db);
  const candidates = db
    .selectFrom('todo_lists')
    .select(['todo_lists.owner_id as user_id', via('owner')])
    .where('todo_lists.id', '=', listId)
    .unionAll(db.selectFrom('todo_list_shares').select(['todo_list_shares.user_id', via('share')]).where('todo_list_shares.list_id', '=', listId));
  const narrowed = (lists: ReturnType<TodoListAccess['visibleLists']>) => lists.select('todo_lists.id').where('todo_lists.id', '=', listId);
  return listAudience(candidates, {
    read: (user) => narrowed(access.visibleLists(user)),
    tick: (user) => narrowed(access.tickableLists(user)),
    change: (user) => narrowed(access.ownedLists(user)),
  });
}
