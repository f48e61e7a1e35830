import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AfterCommit } from '../../platform/api/changes.js';
import type { KindName } from './kind.js';
import type { Hub } from '../../platform/hub/hub.js';

/** A list of a kind, for the live list events. */
export interface LiveListRef {
  kind: KindName;
  id: number;
}

/** An item row as JSON (numbers, strings, nulls); the list kind's live module reads it back. */
export type LiveItemRow = Record<string, string | number | null>;

/** What the list shows of all its items after the change: counts, and the shopping list's total in its currency. */
export interface LiveListSummary {
  items: number;
  /** Items not yet done (bought). */
  open: number;
  /** The shopping list's estimated total (exact decimal text) and its items without a price: each viewer's page words it. */
  total?: { amount: string; unpriced: number };
  /** The shopping list's currency (ISO 4217, '' for none): its rows' prices and its total are in it, for every viewer. */
  currency?: string;
}

declare module '../../platform/hub/hub.js' {
  interface HubEvents {
    /** An item of a list was added or changed: its row as the page reads it, so receivers need no query. */
    'list.item': { list: LiveListRef; item: LiveItemRow; summary: LiveListSummary };
    'list.item_removed': { list: LiveListRef; itemId: number; summary: LiveListSummary };
    /** Who may read or tick the list may have changed (a share, its group): sockets re-check. */
    'list.access_changed': { list: LiveListRef };
    /** The list was deleted: its pages are told so (`{"type":"deleted"}`), then their sockets close. */
    'list.deleted': { list: LiveListRef };
  }
}

/** How a list kind reads what its live event carries: the item as its page shows it, and the list's summary. */
export interface LiveListReader {
  kind: LiveListRef['kind'];
  /** The item as its page shows it, read as the user who changed it (who may see it). */
  item(db: Kysely<Database>, userId: number, itemId: number): Promise<LiveItemRow | undefined>;
  summary(db: Kysely<Database>, listId: number): Promise<LiveListSummary>;
}


/**
 * Publishes a list's changes to its live pages on every instance. Called after the change's
 * transaction. A service built on a caller's transaction (the API's If-Match) is given
 * `deferred(...)` instead, so that nothing is announced that might yet be rolled back. A failure
 * to publish is logged, never the request's failure: the change is stored, and pages catch up on
 * their next reload.
 */
/** What a list service announces to live pages (LiveListEvents, or its deferred form). */
export interface ListAnnouncements {
  itemChanged(db: Kysely<Database>, userId: number, listId: number, itemId: number): Promise<void>;
  itemRemoved(db: Kysely<Database>, listId: number, itemId: number): Promise<void>;
  accessChanged(listId: number): void;
  listDeleted(listId: number): void;
  /** Runs `work` (telling pages of something else, the bell) once the change has committed: at once, or after the caller's transaction. */
  afterCommit(work: () => void): void;
}

export class LiveListEvents implements ListAnnouncements {
  constructor(
    private readonly hub: Hub,
    private readonly reader: LiveListReader,
    private readonly log: FastifyBaseLogger,
  ) {}

  async itemChanged(db: Kysely<Database>, userId: number, listId: number, itemId: number): Promise<void> {
    try {
      const [item, summary] = await Promise.all([this.reader.item(db, userId, itemId), this.reader.summary(db, listId)]);
      if (item) this.hub.publish({ type: 'list.item', list: this.ref(listId), item, summary });
    } catch (error) {
      this.log.error({ err: error }, 'live list event not published');
    }
  }

  async itemRemoved(db: Kysely<Database>, listId: number, itemId: number): Promise<void> {
    try {
      this.hub.publish({ type: 'list.item_removed', list: this.ref(listId), itemId, summary: await this.reader.summary(db, listId) });
    } catch (error) {
      this.log.error({ err: error }, 'live list event not published');
    }
  }

  /**
   * The same events, held in `later` until the caller's transaction has committed, then read
   * through `db` (the pool: the transaction is gone by then).
   */
  deferred(later: AfterCommit, db: Kysely<Database>): ListAnnouncements {
    return {
      itemChanged: async (_trx, userId, listId, itemId) => void later.push(() => this.itemChanged(db, userId, listId, itemId)),
      itemRemoved: async (_trx, listId, itemId) => void later.push(() => this.itemRemoved(db, listId, itemId)),
      accessChanged: (listId) => void later.push(async () => this.accessChanged(listId)),
      listDeleted: (listId) => void later.push(async () => this.listDeleted(listId)),
      afterCommit: (work) => void later.push(async () => work()),
    };
  }

  afterCommit(work: () => void): void {
    work();
  }

  /** Who may see the list may have changed: each instance re-checks its sockets of the list. */
  accessChanged(listId: number): void {
    this.hub.publish({ type: 'list.access_changed', list: this.ref(listId) });
  }

  /** The list is gone: each instance tells its pages of it, which then stop following it. */
  listDeleted(listId: number): void {
    this.hub.publish({ type: 'list.deleted', list: this.ref(listId) });
  }

  private ref(listId: number): LiveListRef {
    return { kind: this.reader.kind, id: listId };
  }
}
