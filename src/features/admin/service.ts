import type { Kysely } from 'kysely';
import { ADMINISTRATORS_LOCK, lockKeys } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import type { SessionStore } from '../../platform/chain/session.js';
import type { PasswordResetService } from '../accounts/index.js';
import { TokensRepository, UsersRepository } from '../accounts/index.js';
import { AdminRepository, type AdminUserRow } from './repository.js';

/** Who acts, for the audit log: an administrator through the site, or the command line. */
export interface Actor {
  id: number | null;
  name: string;
  address: string;
}

export type AdminOutcome = { ok: true; user: AdminUserRow } | { ok: false; reason: 'missing' | 'self' } | { ok: false; reason: 'last-admin'; user: AdminUserRow };

/**
 * Changes that may take an active administrator away (deactivate, demote) take turns on this
 * key, so two administrators removing each other at once cannot each count the other as the one
 * left: the second counts after the first has committed. (On SQLite every transaction takes turns.)
 */

/**
 * The site keeps an active administrator: taking away the last one is refused, and the attempt
 * written to the audit log with who tried. Run after the turn is taken (ADMINISTRATORS_LOCK).
 */
async function refusedAsLastAdmin(admin: AdminRepository, actor: Actor, user: AdminUserRow, action: 'deactivate' | 'demote'): Promise<boolean> {
  if (!(await admin.isLastActiveAdmin(user))) return false;
  await admin.record({ actorId: actor.id, actorName: actor.name, action: `${action}-refused`, targetId: user.id, targetName: user.username, address: actor.address });
  return true;
}

/** A reset mail cannot go to a user without an email address, nor help a deactivated one (their link would not work). */
export type ResetOutcome = { ok: true; username: string; email: string } | { ok: false; reason: 'missing' } | { ok: false; reason: 'no-email' | 'inactive'; username: string };

/** What an administrator may do to a user; each change is written to the audit log with it, in one transaction. */
export class AdminService {
  readonly admin: AdminRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: SessionStore,
  ) {
    this.admin = new AdminRepository(db);
  }

  /**
   * Deactivates (signs out everywhere at once: every session is deleted and its sockets told, and
   * every API token revoked in the same transaction, so a reactivation brings none back) or
   * reactivates a user. An administrator cannot deactivate themselves (nobody might be left to
   * undo it from the site), nor anyone the last active administrator.
   */
  async setActive(actor: Actor, userId: number, active: boolean): Promise<AdminOutcome> {
    if (!active && actor.id === userId) return { ok: false, reason: 'self' };
    const outcome = await this.db.transaction().execute(async (trx): Promise<AdminOutcome> => {
      const admin = new AdminRepository(trx);
      if (!active) await lockKeys(trx, [ADMINISTRATORS_LOCK]);
      const found = await admin.findUser(userId);
      if (!found) return { ok: false, reason: 'missing' };
      if (!active && (await refusedAsLastAdmin(admin, actor, found, 'deactivate'))) return { ok: false, reason: 'last-admin', user: found };
      await admin.setActive(userId, active);
      if (!active) await new TokensRepository(trx).revokeAll(userId);
      await admin.record({ actorId: actor.id, actorName: actor.name, action: active ? 'activate' : 'deactivate', targetId: found.id, targetName: found.username, address: actor.address });
      return { ok: true, user: found };
    });
    // After the commit: from then on no request of theirs is signed in (the session layer reads
    // is_active every time); deleting the sessions also closes their chat sockets on every instance.
    if (outcome.ok && !active) await this.sessions.deleteForUser(userId);
    return outcome;
  }

  /** Turns off a user's two-factor sign-in (they lost their phone and their recovery codes). */
  async disableTwoFactor(actor: Actor, userId: number): Promise<AdminOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const admin = new AdminRepository(trx);
      const user = await admin.findUser(userId);
      if (!user) return { ok: false, reason: 'missing' } as const;
      await admin.disableTwoFactor(userId);
      await admin.record({ actorId: actor.id, actorName: actor.name, action: 'disable-2fa', targetId: user.id, targetName: user.username, address: actor.address });
      return { ok: true, user } as const;
    });
  }

  /**
   * Queues the password-reset mail the user would get by asking at /accounts/password_reset/,
   * revokes every API token of the user (an administrator resets an account they have a doubt
   * about), with its audit entry, in one transaction: all or none. Nothing is queued, revoked
   * nor logged for a user without an email address or a deactivated one.
   */
  async sendPasswordReset(actor: Actor, userId: number, resets: PasswordResetService): Promise<ResetOutcome> {
    const outcome = await this.db.transaction().execute(async (trx): Promise<ResetOutcome> => {
      const user = await new UsersRepository(trx).findById(userId);
      if (!user) return { ok: false, reason: 'missing' };
      if (!user.email) return { ok: false, reason: 'no-email', username: user.username };
      if (user.is_active !== 1) return { ok: false, reason: 'inactive', username: user.username };
      await resets.queueResetIn(trx, user);
      await new TokensRepository(trx).revokeAll(user.id);
      await new AdminRepository(trx).record({ actorId: actor.id, actorName: actor.name, action: 'send-reset', targetId: user.id, targetName: user.username, address: actor.address });
      return { ok: true, username: user.username, email: user.email };
    });
    if (outcome.ok) resets.mailQueued();
    return outcome;
  }

  /** Gives or takes the admin flag (the command line's promote and demote); the last active administrator keeps it. */
  async setAdmin(actor: Actor, userId: number, admin: boolean): Promise<AdminOutcome> {
    return this.db.transaction().execute(async (trx): Promise<AdminOutcome> => {
      const repository = new AdminRepository(trx);
      if (!admin) await lockKeys(trx, [ADMINISTRATORS_LOCK]);
      const user = await repository.findUser(userId);
      if (!user) return { ok: false, reason: 'missing' } as const;
      if (!admin && (await refusedAsLastAdmin(repository, actor, user, 'demote'))) return { ok: false, reason: 'last-admin', user };
      await repository.setAdmin(userId, admin);
      await repository.record({ actorId: actor.id, actorName: actor.name, action: admin ? 'promote' : 'demote', targetId: user.id, targetName: user.username, address: actor.address });
      return { ok: true, user } as const;
    });
  }
}
