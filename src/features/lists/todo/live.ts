import { renderingIn, translator } from '../../../platform/i18n/index.js';
import { todayIn } from '../../../platform/time-zones.js';
import { renderToHtml } from '../../../platform/views/html.js';
import type { ListLive } from '../live.js';
import { liveViewContext } from '../live-sockets.js';
import type { TodoItemRow } from './kind.js';
import { ItemRow } from './views.js';

/** A to-do list's live updates: its counts (the engine's), and each item's row as the page shows it to such a viewer. */
export const todoLive: ListLive<TodoItemRow> = {
  renderItem(item, viewer) {
    const ctx = liveViewContext(viewer.timezone, viewer.language);
    const row = ItemRow({ ctx, item, canTick: viewer.role !== 'read', canEdit: viewer.role === 'owner', today: todayIn(viewer.timezone) });
    return renderingIn(translator(ctx.language), () => renderToHtml(row));
  },
  renderSummary(summary, viewer) {
    const { t } = translator(viewer.language ?? 'en');
    return { counts: summary.items ? ` ${t('todo.counts', { open: summary.open, items: summary.items })}` : '' };
  },
};
