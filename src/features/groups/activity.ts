import { type AliasableExpression, type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../../db/json-rows.js';
import type { Database } from '../../db/schema.js';
import type { ObjectKinds } from '../../platform/object-kinds.js';

/**
 * What happened in a group: an object shared into it or changed, a member coming or going, and
 * what a member's going took out of the group (`member.unshared`, one row per kind, with a count).
 */
export type ActivityKind = 'note.shared' | 'list.added' | 'list.changed' | 'member.added' | 'member.left' | 'member.removed' | 'member.unshared' | 'group.renamed';

export interface ActivityEvent {
  groupId: number;
  kind: ActivityKind;
  /** Who did it; null when nobody signed in did (the administrator's command line). */
  actorId: number | null;
  /** The member a member event is about. */
  memberId?: number;
  /** The object an event is about: its kind as registered (ObjectKinds) and its id. */
  object?: { kind: string; id: number };
  /** For `member.unshared`: the kind of the objects the member's going took out of the group, and how many (no ids: they are no longer the group's). */
  unshared?: { kind: string; count: number };
}

/** Changes to one object by one person within this long are one row (a shop of 30 ticks is one line). */
export const COALESCE_MS = 10 * 60_000;
/** What the group page shows, newest first. */
export const RECENT_LIMIT = 20;
/** The sweep keeps this much: events of the last KEEP_DAYS days, and at most KEEP_PER_GROUP a group. */
export const KEEP_DAYS = 90;
export const KEEP_PER_GROUP = 200;

/** Records an event in `db`: the transaction of the change, so it is never lost nor made up. */
export async function recordActivity(db: Kysely<Database>, event: ActivityEvent, now = Date.now()): Promise<void> {
  await db.insertInto('group_activity').values(activityRow(event, now)).execute();
}

/**
 * recordActivity as a part of the statement that makes the change (PostgreSQL's data-modifying
 * WITH): the row is written only where `when` holds, so the change and its record are one round
 * trip and one atomic statement. Each value is cast to its column's type: an INSERT ... SELECT
 * does not give its parameters the columns' types.
 */
export function activityInsertWhen(db: Kysely<Database>, event: ActivityEvent, when: Expression<SqlBool>, now = Date.now()) {
  const row = activityRow(event, now);
  const columns = Object.keys(COLUMN_TYPES) as (keyof RecordedRow)[];
  const values = columns.map((column) => sql`cast(${row[column]} as ${sql.raw(COLUMN_TYPES[column])})`.as(column));
  return db.insertInto('group_activity').columns(columns).expression(db.selectNoFrom(values).where(when));
}

type RecordedRow = ReturnType<typeof activityRow>;

/** The PostgreSQL type of each column recordActivity writes. */
const COLUMN_TYPES: Record<keyof RecordedRow, 'integer' | 'bigint' | 'text'> = {
  group_id: 'integer',
  kind: 'text',
  actor_id: 'integer',
  member_id: 'integer',
  object_kind: 'text',
  object_id: 'integer',
  count: 'integer',
  created_at: 'bigint',
  updated_at: 'bigint',
};

function activityRow(event: ActivityEvent, now: number) {
  return {
    group_id: event.groupId,
    kind: event.kind,
    actor_id: event.actorId,
    member_id: event.memberId ?? null,
    object_kind: event.object?.kind ?? event.unshared?.kind ?? null,
    object_id: event.object?.id ?? null,
    count: event.unshared?.count ?? 1,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Records a change to an object of a group, in the change's transaction: added to this person's
 * row for the object when it began less than COALESCE_MS ago, else a new row. `groupOf` is the
 * object's group as it is now (a subquery of the feature's); nothing is recorded without one.
 */
export async function recordChange(
  db: Kysely<Database>,
  change: { actorId: number; object: { kind: string; id: number }; groupOf: AliasableExpression<number | null> },
  now = Date.now(),
): Promise<void> {
  const { actorId, object, groupOf } = change;
  const added = await db
    .updateTable('group_activity')
    .set((eb) => ({ count: eb('count', '+', 1), updated_at: now }))
    .where('object_kind', '=', object.kind)
    .where('object_id', '=', object.id)
    .where('kind', '=', 'list.changed')
    .where('actor_id', '=', actorId)
    .where('created_at', '>', now - COALESCE_MS)
    .where('group_id', '=', groupOf)
    .executeTakeFirst();
  if (added.numUpdatedRows > 0n) return;
  const group = await db.selectNoFrom(groupOf.as('group_id')).executeTakeFirst();
  if (group === undefined || group.group_id === null) return;
  await recordActivity(db, { groupId: group.group_id, kind: 'list.changed', actorId, object }, now);
}

/** One event as the group page shows it. */
export interface ActivityEntry {
  id: number;
  kind: ActivityKind;
  actor: string | null;
  member: string | null;
  count: number;
  updated_at: number;
  /** The object it is about, when the reader may see it now: its kind's name, page and title. */
  object: { kind: string; path: string; title: string } | null;
  /** For `member.unshared`: the kind of the objects taken out of the group (`count` of them). */
  unsharedKind: string | null;
}

interface ActivityRow {
  id: number;
  kind: ActivityKind;
  actor: string | null;
  member: string | null;
  count: number;
  updated_at: number;
  object_kind: string | null;
  object_id: number | null;
  title: string | null;
}

/**
 * The group's recent events `viewerId` may see, as one JSON column (read it with readRecent). An
 * event about an object shows only to who may see the object now, by its kind's own visibility
 * query (a note since moved out of the group, a list moved to another group, a deleted one: gone);
 * one of a kind nobody registered, never; a count of objects a member's going took out of the
 * group names none of them, and shows to every member. The caller checks membership.
 */
export function recentActivityColumn(db: Kysely<Database>, kinds: ObjectKinds, viewerId: number, groupId: Expression<number>) {
  const query = db
    .selectFrom('group_activity')
    .leftJoin('users as actor', 'actor.id', 'group_activity.actor_id')
    .leftJoin('users as member', 'member.id', 'group_activity.member_id')
    .select((eb) => {
      let title = sql<string | null>`null`;
      for (const kind of kinds.all()) {
        const seen = eb.selectFrom(kind.visible(viewerId).as('seen')).select('seen.title').whereRef('seen.id', '=', 'group_activity.object_id');
        title = sql<string | null>`case when ${eb.ref('group_activity.object_kind')} = ${kind.kind} then (${seen}) else ${title} end`;
      }
      return [
        'group_activity.id',
        'group_activity.kind',
        'actor.username as actor',
        'member.username as member',
        'group_activity.count',
        'group_activity.updated_at',
        'group_activity.object_kind',
        'group_activity.object_id',
        title.as('title'),
      ];
    })
    .where('group_activity.group_id', '=', groupId)
    .where((eb) => {
      const seen = kinds.all().map((kind) =>
        eb.and([
          eb('group_activity.object_kind', '=', kind.kind),
          eb.exists(eb.selectFrom(kind.visible(viewerId).as('seen')).select('seen.id').whereRef('seen.id', '=', 'group_activity.object_id')),
        ]),
      );
      // How many objects a member's going took out of the group is told to every member: no object is named.
      return eb.or([eb('group_activity.object_kind', 'is', null), eb('group_activity.kind', '=', 'member.unshared'), ...seen]);
    })
    .orderBy('group_activity.updated_at', 'desc')
    .orderBy('group_activity.id', 'desc')
    .limit(RECENT_LIMIT);
  return jsonRowsFrom(db, query);
}

/** recentActivityColumn's rows, each object named and linked. */
export function readRecentActivity(kinds: ObjectKinds, column: unknown): ActivityEntry[] {
  return parseJsonRows<ActivityRow>(column).map(({ object_kind, object_id, title, ...row }) => {
    const kind = object_kind === null ? undefined : kinds.get(object_kind);
    const object = kind && object_id !== null && title !== null ? { kind: kind.kind, path: `${kind.path}${object_id}/`, title } : null;
    const unsharedKind = row.kind === 'member.unshared' ? object_kind : null;
    return { ...row, count: Number(row.count), updated_at: Number(row.updated_at), object, unsharedKind };
  });
}

/** The sweep: events older than KEEP_DAYS, and all but each group's KEEP_PER_GROUP newest, go. Returns how many went. */
export async function trimActivity(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const old = await db.deleteFrom('group_activity').where('updated_at', '<', now - KEEP_DAYS * 86_400_000).executeTakeFirst();
  const ranked = db
    .selectFrom('group_activity')
    .select((eb) => ['group_activity.id', eb.fn.agg<number>('row_number').over((over) => over.partitionBy('group_activity.group_id').orderBy('group_activity.updated_at', 'desc').orderBy('group_activity.id', 'desc')).as('place')]);
  const beyond = await db
    .deleteFrom('group_activity')
    .where('id', 'in', db.selectFrom(ranked.as('ranked')).select('ranked.id').where('ranked.place', '>', KEEP_PER_GROUP))
    .executeTakeFirst();
  return Number(old.numDeletedRows + beyond.numDeletedRows);
}
