import type { Expression, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MergingNotification, Recipients } from '../../services.js';

/** Something put into a group by `actorId`: a note, a list of a kind with groups. */
export interface GroupShare {
  groupId: number;
  actorId: number;
  /** Its kind as registered (ObjectKinds: `note`, `todo`, `shopping`), its title (an expression of the statement, or a parameter) and its page. */
  object: { kind: string; title: Expression<string | null>; path: string };
}

/**
 * Whom to tell of a share into a group, and what: the group's members but the one who shared,
 * each as they are when the statement runs. Several things of a kind one person shares with the
 * group while the first notification is recent and unread are one notification ("Olga shared 3
 * notes with the group Family", pointing at the group's page). The names are read in the
 * statement that tells them, so telling takes no query of its own.
 */
export function groupShareNotice(db: Kysely<Database>, share: GroupShare): { recipients: Recipients; notification: MergingNotification } {
  const { groupId, actorId, object } = share;
  const recipients = db.selectFrom('group_members').select('group_members.user_id').where('group_members.group_id', '=', groupId).where('group_members.user_id', '<>', actorId);
  const by = db.selectFrom('users as sharer').select('sharer.username').where('sharer.id', '=', actorId).$asScalar();
  const group = db.selectFrom('groups as shared_with').select('shared_with.name').where('shared_with.id', '=', groupId).$asScalar();
  return {
    recipients,
    notification: {
      kind: 'group.shared',
      mergeKey: `group.shared:${groupId}:${actorId}:${object.kind}`,
      one: { text: { key: 'notifications.group_shared_one', values: { by, kind: object.kind, title: object.title, group } }, link: object.path },
      many: { text: { key: 'notifications.group_shared_many', values: { by, kind: object.kind, group } }, link: `/groups/${groupId}/` },
    },
  };
}
