import type { Expression, Kysely } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../db/json-rows.js';
import type { Database } from '../db/schema.js';

// What is shared with a group, shown on the group page: the platform does not know notes or lists.
// Each feature registers its kind with its own visibility query, narrowed to the group; the group
// page embeds every kind's rows as a JSON column of its one statement (no round trip per kind).

/** How many of each kind the group page shows, newest first. */
export const SHELF_LIMIT = 20;

export interface ShelfRow {
  id: number;
  title: string;
  updated_at: number;
}

/** A subquery of ShelfRow, the shape jsonRowsFrom embeds. */
type ShelfQuery = Parameters<typeof jsonRowsFrom<ShelfRow>>[1];

export interface GroupShelfKind {
  kind: string;
  /** The section's heading, a catalogue key (`notes.shelf_heading`). */
  heading: string;
  /** The object's page. */
  path(id: number): string;
  /**
   * The objects of group `groupId` (a reference to the group page's row) that `viewerId` may see
   * by the feature's own rule, newest first, at most `limit`: id, title and updated_at.
   */
  shared(viewerId: number, groupId: Expression<number>, limit: number): ShelfQuery;
}

/** One kind as the group page shows it. */
export interface ShelfSection {
  kind: string;
  heading: string;
  items: { id: number; title: string; url: string; updated_at: number }[];
}

export class GroupShelf {
  private readonly kinds = new Map<string, GroupShelfKind>();

  register(kind: GroupShelfKind): void {
    if (this.kinds.has(kind.kind)) throw new Error(`group shelf kind ${kind.kind} registered twice`);
    this.kinds.set(kind.kind, kind);
  }

  /** One JSON column per kind (`shelf_<kind>`), to select beside the group; the caller checks membership. */
  columns(db: Kysely<Database>, viewerId: number, groupId: Expression<number>) {
    return [...this.kinds.values()].map((kind) => jsonRowsFrom(db, kind.shared(viewerId, groupId, SHELF_LIMIT)).as(`shelf_${kind.kind}`));
  }

  /** columns()' values read from the row, each item linked. */
  read(row: object): ShelfSection[] {
    const values = row as Record<string, unknown>;
    return [...this.kinds.values()].map((kind) => ({
      kind: kind.kind,
      heading: kind.heading,
      items: parseJsonRows<ShelfRow>(values[`shelf_${kind.kind}`] ?? []).map((item) => ({
        id: Number(item.id),
        title: item.title,
        url: kind.path(Number(item.id)),
        updated_at: Number(item.updated_at),
      })),
    }));
  }
}
