import { type Expression, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { jsonRowsFrom, parseJsonRows } from '../db/json-rows.js';
import type { Database } from '../db/schema.js';

/** What a person may do with an object, the most first: change it all, tick and add items, read. */
export type AudienceRole = 'change' | 'tick' | 'read';

/** How a person comes to see an object. */
export type AudienceVia = 'owner' | 'share' | 'group';

/** One person who may read an object, as the "who can see this" panel shows them. */
export interface AudienceMember {
  id: number;
  username: string;
  role: AudienceRole;
  via: AudienceVia[];
}

/** A person who might read the object, and why: rows of `candidates` below. */
export interface AudienceCandidate {
  user_id: number;
  via: AudienceVia;
}

/**
 * How a feature decides who may do what with one object: each rule is the feature's own access
 * query (the one that guards its pages and changes) asked for the user `user`, a column of the
 * audience query, and narrowed to the object. So the panel is the rules, not a copy of them.
 */
export interface AudienceRules<TB extends keyof Database> {
  /**
   * Everyone the rules could admit, each with how (owner, each share, each member of the group):
   * a superset of the readers. A user may come more than once, by several ways.
   */
  candidates: SelectQueryBuilder<Database, TB, AudienceCandidate>;
  mayRead(user: Expression<number>): Expression<SqlBool>;
  mayChange(user: Expression<number>): Expression<SqlBool>;
  /** Only for objects with the tick permission (lists). */
  mayTick?(user: Expression<number>): Expression<SqlBool>;
}

/**
 * The readers of one object, one row per (reader, way), with the most they may do: the candidates
 * the read rule admits, ranked by the change and tick rules. One statement; embed it in the
 * page's own query with audienceColumn.
 */
export function audienceQuery<TB extends keyof Database>(db: Kysely<Database>, rules: AudienceRules<TB>) {
  return db
    .selectFrom(rules.candidates.as('candidates'))
    .innerJoin('users', 'users.id', 'candidates.user_id')
    .select((eb) => {
      const user = eb.ref('users.id');
      let role = eb.case().when(rules.mayChange(user)).then(sql.lit<AudienceRole>('change'));
      if (rules.mayTick) role = role.when(rules.mayTick(user)).then(sql.lit<AudienceRole>('tick'));
      return ['users.id', 'users.username', 'candidates.via', role.else(sql.lit<AudienceRole>('read')).end().as('role')];
    })
    .where((eb) => rules.mayRead(eb.ref('users.id')))
    .orderBy('users.username_key')
    .orderBy('users.id');
}

/** audienceQuery as one JSON column of the page's query (read it with readAudience): no round trip of its own. */
export function audienceColumn<TB extends keyof Database>(db: Kysely<Database>, rules: AudienceRules<TB>) {
  return jsonRowsFrom(db, audienceQuery(db, rules));
}

const ROLE_RANK: Record<AudienceRole, number> = { change: 0, tick: 1, read: 2 };
const VIA_ORDER: AudienceVia[] = ['owner', 'share', 'group'];

/** The column's rows, one per person (their ways together), the owner first, then by username as read. */
export function readAudience(column: unknown): AudienceMember[] {
  const people = new Map<number, AudienceMember>();
  for (const row of parseJsonRows<{ id: number; username: string; role: AudienceRole; via: AudienceVia }>(column)) {
    const known = people.get(row.id);
    if (known) {
      if (!known.via.includes(row.via)) known.via.push(row.via);
    } else {
      people.set(row.id, { id: row.id, username: row.username, role: row.role, via: [row.via] });
    }
  }
  const members = [...people.values()];
  for (const member of members) member.via.sort((a, b) => VIA_ORDER.indexOf(a) - VIA_ORDER.indexOf(b));
  // A stable sort: people of one rank stay in the query's username order.
  return members.sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role]);
}
