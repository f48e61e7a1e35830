import type { Expression, Kysely } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { Database } from '../../db/schema.js';
import type { MessageKey } from '../../platform/i18n/index.js';
import type { ObjectKinds, ObjectRow } from '../../platform/object-kinds.js';

// What is shared with a group, shown on the group page: every kind of object that can be in a
// group (ObjectKind.inGroup), read by its own feature's visibility query, each kind's rows a JSON
// column of the group page's one statement (no round trip per kind).

/** How many of each kind the group page shows, newest first. */
export const SHARED_LIMIT = 20;

/** One kind as the group page shows it. */
export interface SharedSection {
  kind: string;
  heading: MessageKey;
  items: { id: number; title: string; url: string; updated_at: number }[];
}

/** One JSON column per kind (`shared_<kind>`), to select beside the group; the caller checks membership. */
export function sharedObjectColumns(db: Kysely<Database>, kinds: ObjectKinds, viewerId: number, groupId: Expression<number>) {
  return kinds.all().flatMap(({ kind, inGroup }) => {
    if (!inGroup) return [];
    const shared = db
      .selectFrom(inGroup.shared(viewerId, groupId).as('shared'))
      .select(['shared.id', 'shared.title', 'shared.updated_at'])
      .orderBy('shared.updated_at', 'desc')
      .orderBy('shared.id', 'desc')
      .limit(SHARED_LIMIT);
    return [jsonRowsFrom(db, shared).as(`shared_${kind}`)];
  });
}

/** sharedObjectColumns' values read from the row, each item linked. */
export function readSharedObjects(kinds: ObjectKinds, row: object): SharedSection[] {
  const values = row as Record<string, unknown>;
  return kinds.all().flatMap(({ kind, path, inGroup }) => {
    if (!inGroup) return [];
    const items = parseJsonRows<ObjectRow>(values[`shared_${kind}`] ?? []).map((item) => ({
      id: Number(item.id),
      title: item.title,
      url: `${path}${Number(item.id)}/`,
      updated_at: Number(item.updated_at),
    }));
    return [{ kind, heading: inGroup.heading, items }];
  });
}
