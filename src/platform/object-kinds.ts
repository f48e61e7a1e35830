import type { AliasableExpression, Expression, Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MessageKey } from './i18n/index.js';

// The kinds of object people share (a note, a to-do list, a shopping list), each described once,
// by the feature that owns it, for the features that show other features' objects: chat's link
// cards, the group page's shared objects and its activity feed. The platform knows no kind: it
// keeps what the features register and hands it to those who ask.

/** What every kind's queries select: enough to name and link an object. */
export interface ObjectRow {
  id: number;
  title: string;
  updated_at: number;
}

/** A query of objects (ObjectRow's columns), to be read as a subquery: `selectFrom(rows.as('o'))`. */
export type ObjectRows = AliasableExpression<ObjectRow>;

/** A user's id, or a column of user ids (`group_members.user_id`) to ask for each user at once. */
export type ViewerRef = number | Expression<number>;

export interface ObjectKind {
  /** Its name in references and records: `note` in a chat link `note:12`, a group activity row's `object_kind`. */
  kind: string;
  /** The kind in words, a catalogue key ("Note", "To-do list"). */
  noun: MessageKey;
  /** The pages' common prefix: an object's page is `${path}${id}/`. */
  path: string;
  /**
   * The objects of this kind `viewer` may see now, by the feature's own visibility query (the one
   * that guards its pages). Whoever narrows it to some ids learns which of them the viewer may
   * see: an object left out is the same as one that does not exist. `viewer` may be a column, so
   * that one statement asks for many users (chat's cards: who else in the group sees this).
   */
  visible(viewer: ViewerRef): ObjectRows;
  /** For kinds that can belong to a group: what of group `groupId` (a column of the caller's row) the group page lists, and under which heading. */
  inGroup?: {
    heading: MessageKey;
    /** visible(viewer) narrowed to the group's objects the page lists (a note not archived, say). */
    shared(viewer: number, groupId: Expression<number>): ObjectRows;
    /**
     * Takes every object `ownerId` owns out of group `groupId`, because they left it or were
     * removed: in `db`, the transaction of the membership's change, so the group never keeps what
     * its former member shared. Shares by name stay as they are. The ids of the objects taken out.
     */
    unshareOwned(db: Kysely<Database>, ownerId: number, groupId: number): Promise<number[]>;
  };
}

/** The kinds registered, in the order they were: each once, from the feature that owns it. */
export class ObjectKinds {
  private readonly kinds = new Map<string, ObjectKind>();

  register(kind: ObjectKind): void {
    if (this.kinds.has(kind.kind)) throw new Error(`object kind ${kind.kind} registered twice`);
    this.kinds.set(kind.kind, kind);
  }

  get(name: string): ObjectKind | undefined {
    return this.kinds.get(name);
  }

  all(): ObjectKind[] {
    return [...this.kinds.values()];
  }
}
