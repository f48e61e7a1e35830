import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { LiveItemRow } from '../lists-sharing/live-events.js';
import { renderToHtml } from '../../platform/views/html.js';
import type { LiveListReader } from '../lists-sharing/live-events.js';
import { rolesOn } from '../lists-sharing/live-roles.js';
import { type LiveListKind, liveViewContext } from '../lists-sharing/live-sockets.js';
import { estimatedTotal, formatCents } from './money.js';
import { renderingIn, translator } from '../../platform/i18n/index.js';
import { ShoppingRepository, type ShoppingItemRow } from './repository.js';
import { ItemRow, Total } from './views.js';

/** What a shopping list's live event carries: the item's row as the page reads it, the counts and the estimated total. */
export const shoppingLiveReader: LiveListReader = {
  kind: 'shopping',
  item: (db, userId, itemId) => new ShoppingRepository(db).findVisibleItem(userId, itemId),
  async summary(db, listId) {
    const items = await db.selectFrom('shopping_items').select(['quantity_milli', 'estimated_price_cents', 'is_bought']).where('list_id', '=', listId).execute();
    const total = estimatedTotal(items);
    return {
      items: items.length,
      open: items.filter((item) => item.is_bought === 0).length,
      // As data: each viewer's frame words it in their language and currency (renderSummary).
      total: { amount: formatCents(total.cents), unpriced: total.unpriced },
    };
  },
};

/** Who may see a shopping list, and its item row as the page shows it to such a viewer. */
export function shoppingLiveKind(db: Kysely<Database>): LiveListKind {
  const lists = new ShoppingRepository(db);
  return {
    name: 'shopping',
    hasGroups: true,
    roleOf: (userId, listId) => lists.roleOf(userId, listId),
    rolesOn: (listId, userIds) => rolesOn(db, 'shopping_lists', lists, listId, userIds),
    renderItem(item: LiveItemRow, viewer) {
      const ctx = liveViewContext(viewer.timezone, viewer.currency, viewer.language);
      const row = ItemRow({ ctx, item: item as unknown as ShoppingItemRow, canTick: viewer.role !== 'read', canEdit: viewer.role === 'owner' });
      return renderingIn(translator(ctx.language), () => renderToHtml(row));
    },
    renderSummary(summary, viewer) {
      if (!summary.total) return {};
      const t = translator(viewer.language ?? 'en');
      // Exact cents from the decimal text `12.34`.
      const cents = BigInt(summary.total.amount.replace('.', ''));
      const total = { cents, unpriced: summary.total.unpriced, currency: viewer.currency ?? '' };
      return { html: renderingIn(t, () => renderToHtml(Total({ ctx: t, total }))) };
    },
  };
}
