import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { LiveItemRow } from '../lists-sharing/live-events.js';
import { renderToHtml } from '../../platform/views/html.js';
import { renderingIn, translator } from '../../platform/i18n/index.js';
import { todayIn } from '../../platform/time-zones.js';
import type { LiveListReader } from '../lists-sharing/live-events.js';
import { rolesOn } from '../lists-sharing/live-roles.js';
import { type LiveListKind, liveViewContext } from '../lists-sharing/live-sockets.js';
import { TodoRepository, type TodoItemRow } from './repository.js';
import { ItemRow } from './views.js';

/** What a to-do list's live event carries: the item's row as the page reads it, and the counts. */
export const todoLiveReader: LiveListReader = {
  kind: 'todo',
  item: (db, userId, itemId) => new TodoRepository(db).findVisibleItem(userId, itemId),
  async summary(db, listId) {
    const row = await db
      .selectFrom('todo_items')
      .select((eb) => [eb.fn.countAll<number | string>().as('items'), eb.fn.sum<number | string | null>('is_done').as('done')])
      .where('list_id', '=', listId)
      .executeTakeFirstOrThrow();
    const items = Number(row.items);
    return { items, open: items - Number(row.done ?? 0) };
  },
};

/** Who may see a to-do list, and its item row as the page shows it to such a viewer. */
export function todoLiveKind(db: Kysely<Database>): LiveListKind {
  const lists = new TodoRepository(db);
  return {
    name: 'todo',
    hasGroups: false,
    roleOf: (userId, listId) => lists.roleOf(userId, listId),
    rolesOn: (listId, userIds) => rolesOn(db, 'todo_lists', lists, listId, userIds),
    renderItem(item: LiveItemRow, viewer) {
      const ctx = liveViewContext(viewer.timezone, '', viewer.language);
      const row = ItemRow({ ctx, item: item as unknown as TodoItemRow, canTick: viewer.role !== 'read', canEdit: viewer.role === 'owner', today: todayIn(viewer.timezone) });
      return renderingIn(translator(ctx.language), () => renderToHtml(row));
    },
    renderSummary(summary, viewer) {
      const { t } = translator(viewer.language ?? 'en');
      return { counts: summary.items ? ` ${t('todo.counts', { open: summary.open, items: summary.items })}` : '' };
    },
  };
}
