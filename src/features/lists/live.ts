import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listAccess } from './access.js';
import type { ItemRow, ListKind, ListRow } from './kind.js';
import type { LiveItemRow, LiveListReader, LiveListSummary } from './live-events.js';
import { rolesOn } from './live-roles.js';
import type { LiveListKind, LiveViewer } from './live-sockets.js';
import { listsRepository } from './repository.js';

// A kind's live updates: what its event carries and how its viewers' pages show it. The sockets,
// the events and who may see what are the engine's (live-sockets.ts, live-events.ts, access.ts).

export interface ListLive<Item> {
  /** What the list shows of all its items after a change, when it is more than their counts (a shopping list's total): one statement. */
  summary?(db: Kysely<Database>, listId: number): Promise<LiveListSummary>;
  /** The item's row, as the list page renders it for such a viewer (form tokens left empty); `summary` has what it needs of its list (a currency). */
  renderItem(item: Item, viewer: Pick<LiveViewer, 'role' | 'timezone' | 'language'>, summary: LiveListSummary): string;
  /** The list's summary as such a viewer's page words it: the counts after the heading, the total's element. */
  renderSummary(summary: LiveListSummary, viewer: Pick<LiveViewer, 'language'>): { counts?: string; html?: string };
}

/** What a kind's live event carries: the item's row as the page reads it (read as the user who changed it), and the summary. */
export function liveReader<List extends ListRow, Item extends ItemRow>(kind: ListKind<List, Item, unknown, unknown>, live: ListLive<Item>): LiveListReader {
  return {
    kind: kind.name,
    item: async (db, userId, itemId) => (await listsRepository(db, kind).items.findVisible(userId, itemId)) as unknown as LiveItemRow | undefined,
    summary: (db, listId) => (live.summary ? live.summary(db, listId) : listsRepository(db, kind).counts(listId)),
  };
}

/** Who may see a kind's list, and its item row as the page shows it to such a viewer. */
export function liveKind<List extends ListRow, Item extends ItemRow>(db: Kysely<Database>, kind: ListKind<List, Item, unknown, unknown>, live: ListLive<Item>): LiveListKind {
  const access = listAccess(db, kind);
  return {
    name: kind.name,
    hasGroups: kind.group !== undefined,
    roleOf: (userId, listId) => access.roleOf(userId, listId),
    rolesOn: (listId, userIds) => rolesOn(db, kind, access, listId, userIds),
    renderItem: (item, viewer, summary) => live.renderItem(item as unknown as Item, viewer, summary),
    renderSummary: (summary, viewer) => live.renderSummary(summary, viewer),
  };
}
