import { renderingIn, translator } from '../../../platform/i18n/index.js';
import { renderToHtml } from '../../../platform/views/html.js';
import type { ListLive } from '../live.js';
import { liveViewContext } from '../live-sockets.js';
import type { ShoppingItemRow } from './kind.js';
import { estimatedTotal, formatCents } from './money.js';
import { ItemRow, Total } from './views.js';

/** A shopping list's live updates: its counts and estimated total, and each item's row as the page shows it to such a viewer. */
export const shoppingLive: ListLive<ShoppingItemRow> = {
  async summary(db, listId) {
    const items = await db.selectFrom('shopping_items').select(['quantity_milli', 'estimated_price_cents', 'is_done']).where('list_id', '=', listId).execute();
    const total = estimatedTotal(items);
    return {
      items: items.length,
      open: items.filter((item) => item.is_done === 0).length,
      // As data: each viewer's frame words it in their language and currency (renderSummary).
      total: { amount: formatCents(total.cents), unpriced: total.unpriced },
    };
  },
  renderItem(item, viewer) {
    const ctx = liveViewContext(viewer.timezone, viewer.currency, viewer.language);
    const row = ItemRow({ ctx, item, canTick: viewer.role !== 'read', canEdit: viewer.role === 'owner' });
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
