import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface AdminUserRow {
  id: number;
  username: string;
  email: string;
  is_active: number;
  is_admin: number;
  totp_enabled: number;
  last_login: number | null;
  date_joined: number;
}

export interface AuditEntry {
  actorId: number | null;
  actorName: string;
  action: string;
  targetId: number | null;
  targetName: string;
  address: string;
}

/** How many audit entries the page shows, newest first. */
export const AUDIT_PAGE = 200;

export class AdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  users(): Promise<AdminUserRow[]> {
    return this.db.selectFrom('users').select(['id', 'username', 'email', 'is_active', 'is_admin', 'totp_enabled', 'last_login', 'date_joined']).orderBy('username_key').execute();
  }

  findUser(id: number): Promise<AdminUserRow | undefined> {
    return this.db.selectFrom('users').select(['id', 'username', 'email', 'is_active', 'is_admin', 'totp_enabled', 'last_login', 'date_joined']).where('id', '=', id).executeTakeFirst();
  }

  async setActive(id: number, active: boolean): Promise<void> {
    await this.db.updateTable('users').set({ is_active: active ? 1 : 0 }).where('id', '=', id).execute();
  }

  /** Two-factor sign-in off, as its owner turning it off would leave it: no secret, no recovery codes. */
  async disableTwoFactor(id: number): Promise<void> {
    await this.db.updateTable('users').set({ totp_enabled: 0, totp_secret: null, totp_last_step: null }).where('id', '=', id).execute();
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', id).execute();
  }

  /** Whether taking `user` away (deactivated or demoted) would leave the site without an active administrator. */
  async isLastActiveAdmin(user: AdminUserRow): Promise<boolean> {
    if (user.is_admin !== 1 || user.is_active !== 1) return false;
    const other = await this.db.selectFrom('users').select('id').where('is_admin', '=', 1).where('is_active', '=', 1).where('id', '<>', user.id).limit(1).executeTakeFirst();
    return other === undefined;
  }

  async setAdmin(id: number, admin: boolean): Promise<void> {
    await this.db.updateTable('users').set({ is_admin: admin ? 1 : 0 }).where('id', '=', id).execute();
  }

  async record(entry: AuditEntry, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({ at: now, actor_id: entry.actorId, actor_name: entry.actorName, action: entry.action, target_id: entry.targetId, target_name: entry.targetName, address: entry.address })
      .execute();
  }

  auditLog() {
    return this.db.selectFrom('audit_log').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(AUDIT_PAGE).execute();
  }
}
