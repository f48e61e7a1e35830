import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import { ADMINISTRATORS_LOCK, lockKeys } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { SessionStore } from '../../platform/chain/session.js';
import type { Hub } from '../../platform/hub/hub.js';
import { identityKey } from '../../platform/identity-key.js';
import { verifyPassword } from '../../platform/passwords/passwords.js';

const GROUP_NAME_MAX = 150;

export type DeleteOutcome = { ok: true } | { ok: false; reason: 'wrong-password' | 'second-factor' | 'gone' | 'last-administrator' };

/**
 * Deletes a user and everything they own, in one transaction. Groups they own pass to their
 * longest-standing other member (joined first; the lower id on a tie), or are deleted with no
 * other member. Their notes and lists go, those shared into groups included; so do their chat
 * messages, memberships, tags, notebooks and sessions (by the foreign keys' cascades, and
 * explicitly for the rows whose triggers move group members' view versions).
 */
export class AccountDeletion {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: Config,
    private readonly hub: Hub,
  ) {}

  /**
   * `secondFactor` is asked once the password is right (with two-factor sign-in on, it checks the
   * code): nothing is deleted unless it says yes.
   */
  async delete(userId: number, password: string, secondFactor: () => Promise<boolean> = async () => true): Promise<DeleteOutcome> {
    const user = await this.db.selectFrom('users').select(['id', 'username', 'password']).where('id', '=', userId).executeTakeFirst();
    if (!user) return { ok: false, reason: 'gone' };
    const { ok } = await verifyPassword(password, user.password, this.config.pbkdf2Iterations);
    if (!ok) return { ok: false, reason: 'wrong-password' };
    if (!(await secondFactor())) return { ok: false, reason: 'second-factor' };

    const done = await this.db.transaction().execute(async (trx) => {
      // The site keeps an active administrator: checked after the turn every such change takes.
      await lockKeys(trx, [ADMINISTRATORS_LOCK]);
      if (await isLastActiveAdministrator(trx, userId)) throw new LastAdministrator();
      const deletedGroups = await this.handOverGroups(trx, user);
      await trx.deleteFrom('notes').where('owner_id', '=', userId).execute();
      await trx.deleteFrom('shopping_lists').where('owner_id', '=', userId).execute();
      const endedSessions = await new SessionStore(trx, this.config.sessionCookieAge).deleteForUser(userId);
      // Only with the password just checked: a change of password meanwhile stops the deletion.
      const deleted = await trx.deleteFrom('users').where('id', '=', userId).where('password', '=', user.password).executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw new PasswordChangedMeanwhile();
      return { deletedGroups, endedSessions };
    }).catch((error: unknown) => {
      if (error instanceof PasswordChangedMeanwhile) return null;
      if (error instanceof LastAdministrator) return 'last-administrator' as const;
      throw error;
    });
    if (!done) return { ok: false, reason: 'wrong-password' };
    if (done === 'last-administrator') return { ok: false, reason: done };
    // Told only after the commit, so that a socket reconnecting at once finds the session gone.
    if (done.endedSessions.length > 0) this.hub.publish({ type: 'sessions.ended', sessionKeys: done.endedSessions });
    for (const groupId of done.deletedGroups) this.hub.publish({ type: 'group.deleted', groupId });
    return { ok: true };
  }

  /** Returns the ids of the groups deleted for want of another member. */
  private async handOverGroups(trx: Kysely<Database>, user: { id: number; username: string }): Promise<number[]> {
    const owned = await trx.selectFrom('groups').select(['id', 'name']).where('owner_id', '=', user.id).orderBy('id').execute();
    const deleted: number[] = [];
    for (const group of owned) {
      const heir = await trx
        .selectFrom('group_members')
        .select('user_id')
        .where('group_id', '=', group.id)
        .where('user_id', '<>', user.id)
        .orderBy('joined_at')
        .orderBy('user_id')
        .limit(1)
        .executeTakeFirst();
      if (!heir) {
        await trx.deleteFrom('groups').where('id', '=', group.id).execute();
        deleted.push(group.id);
        continue;
      }
      const name = await freeGroupName(trx, heir.user_id, group.name, user.username);
      await trx.updateTable('groups').set({ owner_id: heir.user_id, name, name_key: identityKey(name) }).where('id', '=', group.id).execute();
    }
    return deleted;
  }
}

class PasswordChangedMeanwhile extends Error {}
class LastAdministrator extends Error {}

/** Whether the user is an active administrator and no other one is. */
async function isLastActiveAdministrator(trx: Kysely<Database>, userId: number): Promise<boolean> {
  const admins = await trx.selectFrom('users').select('id').where('is_admin', '=', 1).where('is_active', '=', 1).limit(2).execute();
  return admins.length === 1 && admins[0]!.id === userId;
}

/**
 * Group names are unique per owner: when the heir already owns a "Family", the group handed to
 * them becomes "Family (from alice)", then "Family (from alice) 2"...
 */
async function freeGroupName(trx: Kysely<Database>, ownerId: number, name: string, formerOwner: string): Promise<string> {
  const taken = async (candidate: string) =>
    (await trx.selectFrom('groups').select('id').where('owner_id', '=', ownerId).where('name_key', '=', identityKey(candidate)).executeTakeFirst()) !== undefined;
  if (!(await taken(name))) return name;
  for (let n = 1; ; n++) {
    const suffix = ` (from ${formerOwner.slice(0, 30)})${n === 1 ? '' : ` ${n}`}`;
    const candidate = `${name.slice(0, Math.max(1, GROUP_NAME_MAX - suffix.length))}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
}
