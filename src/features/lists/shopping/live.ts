import { renderingIn, translator } from '../../../platform/i18n/index.js';
import { renderToHtml } from '../../../platform/views/html.js';
import type { ListLive } from '../live.js';
import { liveViewContext } from '../live-sockets.js';
import type { ShoppingItemRow } from './kind.js';
import { estimatedTotal, formatCents } from './money.js';
import { ItemRow, Total } from './views.js';

/**
 * A shopping list's live updates: its counts and estimated total, and each item's row as the page
 * shows it to such a viewer. Prices are in the list's currency, read with the summary, so one
 * rendering per (role, time zone, language) serves every viewer whatever their own currency.
 */
export const shoppingLive: ListLive<ShoppingItemRow> = {
  async summary(db, listId) {
    // One statement: the list's currency with its items (none: one row of nulls beside it).
    const rows = await db
      .selectFrom('shopping_lists')
      .leftJoin('shopping_items', 'shopping_items.list_id', 'shopping_lists.id')
      .select(['shopping_lists.currency', 'shopping_items.id', 'shopping_items.quantity_milli', 'shopping_items.estimated_price_cents', 'shopping_items.is_done'])
      .where('shopping_lists.id', '=', listId)
      .execute();
    const items = rows.flatMap((row) => (row.id === null ? [] : [{ quantity_milli: row.quantity_milli!, estimated_price_cents: row.estimated_price_cents, is_done: row.is_done! }]));
    const total = estimatedTotal(items);
    return {
      items: items.length,
      open: items.filter((item) => item.is_done === 0).length,
      // As data: each viewer's frame words it in their language (renderSummary).
      total: { amount: formatCents(total.cents), unpriced: total.unpriced },
      currency: rows[0]?.currency ?? '',
    };
  },
  renderItem(item, viewer, summary) {
    const ctx = liveViewContext(viewer.timezone, viewer.language);
    const row = ItemRow({ ctx, item, currency: summary.currency ?? '', canTick: viewer.role !== 'read', canEdit: viewer.role === 'owner' });
    return renderingIn(translator(ctx.language), () => renderToHtml(row));
  },
  renderSummary(summary, viewer) {
    if (!summary.total) return {};
    const t = translator(viewer.language ?? 'en');
    // Exact cents from the decimal text `12.34`.
    const cents = BigInt(summary.total.amount.replace('.', ''));
    const total = { cents, unpriced: summary.total.unpriced, currency: summary.currency ?? '' };
    return { html: renderingIn(t, () => renderToHtml(Total({ ctx: t, total }))) };
  },
};
