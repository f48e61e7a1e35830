import { type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ObjectKind } from '../../platform/object-kinds.js';
import type { AudienceRules, AudienceVia } from '../../platform/audience.js';
import { GroupsRepository } from '../groups/index.js';

type NotesCondition = (eb: ExpressionBuilder<Database, 'notes'>) => Expression<SqlBool>;

/** A user's id, or a column of user ids (`users.id`) to ask the rule for each user at once. */
export type UserRef = number | Expression<number>;

/**
 * The visibility rule, the only one: notes the user owns, or whose group is one of the user's
 * groups; group membership never grants a change. NotesRepository.visibleNotes and the audience panel
 * both ask it.
 */
export function visibleTo(db: Kysely<Database>, userId: UserRef): NotesCondition {
  return (eb: ExpressionBuilder<Database, 'notes'>) => eb.or([eb('notes.owner_id', '=', userId), eb('notes.group_id', 'in', new GroupsRepository(db).memberGroupIds(userId))]);
}

/** The change rule: the owner only; group membership never grants a change. */
export function ownedBy(userId: UserRef): NotesCondition {
  return (eb: ExpressionBuilder<Database, 'notes'>) => eb('notes.owner_id', '=', userId);
}

const via = (how: AudienceVia) => sql.lit<AudienceVia>(how).as('via');

/**
 * Who may read note `noteId` and who may change it, by the rules above: its owner and the members
 * of its group are the candidates, each admitted (or not) by visibleTo, ranked by ownedBy.
 */
export function noteAudience(db: Kysely<Database>, noteId: number | Expression<number>): AudienceRules<'notes'> {
  const candidates = db
    .selectFrom('notes')
    .select(['notes.owner_id as user_id', via('owner')])
    .where('notes.id', '=', noteId)
    .unionAll(
      db
        .selectFrom('notes')
        .innerJoin('group_members', 'group_members.group_id', 'notes.group_id')
        .select(['group_members.user_id', via('group')])
        .where('notes.id', '=', noteId),
    );
  /** "The rule admits `user` to this note", as a condition on the audience query's row. */
  const holds = (rule: (user: Expression<number>) => NotesCondition) => (user: Expression<number>) =>
    sql<SqlBool>`exists ${db.selectFrom('notes').select('notes.id').where(rule(user)).where('notes.id', '=', noteId)}`;
  return { candidates, mayRead: holds((user) => visibleTo(db, user)), mayChange: holds(ownedBy) };
}

/**
 * Notes as a kind of object other features show (chat's link cards, the group page and its
 * activity), seen by the same rule as their pages: NotesRepository.visibleNotes.
 */
export function noteKind(notes: { visibleNotes(userId: number): SelectQueryBuilder<Database, 'notes', object> }): ObjectKind {
  const rows = (viewer: number) => notes.visibleNotes(viewer).select(['notes.id', 'notes.title', 'notes.updated_at']);
  return {
    kind: 'note',
    noun: 'notes.card_label',
    path: '/notes/',
    visible: rows,
    inGroup: {
      heading: 'notes.shelf_heading',
      // The group page lists the group's notes that are not archived.
      shared: (viewer, groupId) => rows(viewer).where('notes.group_id', '=', groupId).where('notes.is_archived', '=', 0),
      unshareOwned: (db, ownerId, groupId) => takeOutOfGroup(db, ownerId, groupId),
    },
  };
}

/**
 * The owner's notes in the group lose it, archived ones too: the note's, its owner's and both
 * groups' view versions move with the change (migration 0007's triggers), so no kept page shows
 * them to the group again. Their ids.
 */
async function takeOutOfGroup(db: Kysely<Database>, ownerId: number, groupId: number): Promise<number[]> {
  const rows = await db.updateTable('notes').set({ group_id: null }).where('notes.owner_id', '=', ownerId).where('notes.group_id', '=', groupId).returning('notes.id').execute();
  return rows.map((row) => row.id);
}
