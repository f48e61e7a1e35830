import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ActivityObjectKind } from '../../platform/activity.js';
import type { AudienceRules, AudienceVia } from '../../platform/audience.js';
import { GroupsRepository } from '../groups/repository.js';

type NotesCondition = (eb: ExpressionBuilder<Database, 'notes'>) => Expression<SqlBool>;

/** A user's id, or a column of user ids (`users.id`) to ask the rule for each user at once. */
export type UserRef = number | Expression<number>;

/**
 * The visibility rule, the only one: notes the user owns, or whose group is one of the user's
 * groups (SPEC.md section 4, rules 2 and 3). NotesRepository.visibleNotes and the audience panel
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

/** How notes show in group activity: titled and seen by the same rule as their pages. */
export function noteActivity(db: Kysely<Database>): ActivityObjectKind {
  return {
    kind: 'note',
    noun: 'note',
    path: (id) => `/notes/${id}/`,
    title: (noteId) => db.selectFrom('notes').select('notes.title').where('notes.id', '=', noteId).$asScalar(),
    visible: (viewerId, noteId) => sql<SqlBool>`exists ${db.selectFrom('notes').select('notes.id').where(visibleTo(db, viewerId)).where('notes.id', '=', noteId)}`,
  };
}
