import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database, Group, User } from '../../db/schema.js';
import type { Hub } from '../../platform/hub/hub.js';
import { recordActivity } from './activity.js';
import { msg } from '../../platform/i18n/index.js';
import type { Notifier } from '../../services.js';
import type { Outcome } from '../../platform/forms.js';
import type { ObjectKinds } from '../../platform/object-kinds.js';
import { UsersRepository } from '../accounts/index.js';
import { GroupsRepository } from './repository.js';


// Names are unique per owner: the message speaks of the caller's own groups, and tells nothing of others'.
const nameTaken = (): Outcome<never> => ({ ok: false, errors: { name: ['group_form.name_taken'] } });

/** Group administration. Membership changes are published so that live chat sockets follow them. */
export class GroupsService {
  readonly groups: GroupsRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: Hub | null,
    /** Tells added members; its announcements reach open pages only through a hub (none in the CLI). */
    private readonly notifications: Notifier | null = null,
    /** The kinds of object a group holds: what a member who goes takes out of it. Needed to remove a member (the CLI removes none). */
    private readonly objectKinds: ObjectKinds | null = null,
  ) {
    this.groups = new GroupsRepository(db);
  }

  /** The creator becomes owner and first member, in one transaction. */
  async create(ownerId: number, name: string): Promise<Outcome<Group>> {
    if (await this.groups.findOwnedByName(ownerId, name)) return nameTaken();
    try {
      const group = await this.db.transaction().execute(async (trx) => {
        const repository = new GroupsRepository(trx);
        const created = await repository.insertGroup(name, ownerId);
        await repository.addMember(created.id, ownerId);
        return created;
      });
      return { ok: true, value: group };
    } catch (error) {
      // Two creations of one name at once: the unique index decides.
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
  }

  /**
   * The owner renames the group: names stay unique per owner by the same key as at creation, the
   * unique index deciding between two renames at once. Recorded in the group's activity.
   */
  async rename(group: Group, name: string): Promise<Outcome<null>> {
    const same = await this.groups.findOwnedByName(group.owner_id, name);
    if (same && same.id !== group.id) return nameTaken();
    if (group.name === name) return { ok: true, value: null };
    try {
      await this.db.transaction().execute(async (trx) => {
        if (!(await new GroupsRepository(trx).renameGroup(group.id, group.owner_id, name))) return;
        await recordActivity(trx, { groupId: group.id, kind: 'group.renamed', actorId: group.owner_id });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return nameTaken();
      throw error;
    }
    return { ok: true, value: null };
  }

  /**
   * Adds the user and tells them, in one transaction: a notification is never sent for a
   * membership that did not happen, nor twice for one (re-adding a member is an error, no change).
   * `addedBy` names who did it in the notification; none for the administrator's CLI.
   */
  async addMember(group: Group, username: string, addedBy?: string): Promise<Outcome<User>> {
    const user = await new UsersRepository(this.db).findByUsername(username);
    if (!user) return { ok: false, errors: { username: [{ key: msg('group_form.no_such_user'), values: { username } }] } };
    const alreadyMember = { ok: false as const, errors: { username: [{ key: msg('group_form.already_member'), values: { username: user.username } }] } };
    if (await this.groups.isMember(group.id, user.id)) return alreadyMember;
    try {
      await this.db.transaction().execute(async (trx) => {
        await new GroupsRepository(trx).addMember(group.id, user.id);
        // Only the owner adds members (the administrator's command line names nobody).
        await recordActivity(trx, { groupId: group.id, kind: 'member.added', actorId: addedBy ? group.owner_id : null, memberId: user.id });
        await this.notifications?.add(trx, [user.id], {
          kind: 'group.added',
          text: addedBy ? { key: 'notifications.group_added_by', values: { by: addedBy, group: group.name } } : { key: 'notifications.group_added', values: { group: group.name } },
          link: `/groups/${group.id}/`,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return alreadyMember;
      throw error;
    }
    this.notifications?.announce([user.id]);
    return { ok: true, value: user };
  }

  /** Only the group's owner removes members: the event names them. What the member shared with the group leaves it with them. */
  async removeMember(group: Group, userId: number): Promise<Outcome<null>> {
    if (userId === group.owner_id) return { ok: false, errors: { user_pk: ['group_form.owner_not_removable'] } };
    const removed = await this.goes(group.id, userId, { kind: 'member.removed', actorId: group.owner_id });
    if (!removed) {
      return { ok: false, errors: { user_pk: ['group_form.not_a_member'] } };
    }
    return { ok: true, value: null };
  }

  /** A member who is not the owner leaves, taking what they shared with the group; false when there was nothing to leave. */
  async leave(groupId: number, userId: number): Promise<boolean> {
    return this.goes(groupId, userId, { kind: 'member.left', actorId: userId });
  }

  /**
   * The member goes, in one transaction with everything they shared with the group: each kind of
   * object takes theirs out of it (shares by name stay), and the activity says how many of each
   * went. Then their sockets of the group close and those on the objects re-check. False when they
   * were not a member.
   */
  private async goes(groupId: number, userId: number, event: { kind: 'member.left' | 'member.removed'; actorId: number }): Promise<boolean> {
    const kinds = this.objectKinds;
    if (!kinds) throw new Error('GroupsService needs the kinds of object to remove a member');
    const unshared = await this.db.transaction().execute(async (trx) => {
      if (!(await new GroupsRepository(trx).removeMember(groupId, userId))) return undefined;
      const taken: { kind: string; id: number }[] = [];
      const counts: { kind: string; count: number }[] = [];
      for (const kind of kinds.all()) {
        const ids = (await kind.inGroup?.unshareOwned(trx, userId, groupId)) ?? [];
        if (ids.length > 0) counts.push({ kind: kind.kind, count: ids.length });
        taken.push(...ids.map((id) => ({ kind: kind.kind, id })));
      }
      // The member's row last: the same moment, it heads the feed (newest first), the counts below it.
      for (const count of counts) await recordActivity(trx, { groupId, kind: 'member.unshared', actorId: event.actorId, memberId: userId, unshared: count });
      await recordActivity(trx, { groupId, kind: event.kind, actorId: event.actorId, memberId: userId });
      return taken;
    });
    if (!unshared) return false;
    this.hub?.publish({ type: 'group.members_removed', groupId, userIds: [userId], unshared });
    return true;
  }

  async delete(group: Group): Promise<void> {
    await this.groups.deleteGroup(group.id);
    this.hub?.publish({ type: 'group.deleted', groupId: group.id });
  }
}
