import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { CsrfField, FormAlert } from '../../platform/views/forms.js';
import type { FormErrors } from '../../platform/forms.js';
import { Time } from '../../platform/views/controls.js';
import type { AdminUserRow } from './repository.js';
import type { MessageKey } from '../../platform/i18n/index.js';

interface AuditRow {
  id: number;
  at: number;
  actor_name: string;
  action: string;
  target_name: string;
  address: string;
}

function AdminNav({ ctx }: { ctx: ViewContext }) {
  return (
    <nav aria-label={ctx.t('admin.nav')}>
      <p>
        <a href="/admin/users/">{ctx.t('admin.users')}</a> · <a href="/admin/audit/">{ctx.t('admin.audit_log')}</a>
      </p>
    </nav>
  );
}

export function AdminUsersPage({ ctx, users, errors = {} }: { ctx: ViewContext; users: AdminUserRow[]; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={ctx.t('admin.users')}>
      <h1>{ctx.t('admin.users')}</h1>
      <AdminNav ctx={ctx} />
      <FormAlert errors={errors} />
      <table class="stack-on-phone admin-users">
        <thead>
          <tr>
            <th scope="col">{ctx.t('admin.column_user')}</th>
            <th scope="col">{ctx.t('admin.column_email')}</th>
            <th scope="col">{ctx.t('admin.column_last_login')}</th>
            <th scope="col">{ctx.t('admin.column_two_factor')}</th>
            <th scope="col">{ctx.t('admin.column_status')}</th>
            <th scope="col"><span class="visually-hidden">{ctx.t('admin.column_actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr>
              <th scope="row">
                {user.username}
                {user.is_admin === 1 ? <strong class="badge">{ctx.t('admin.badge_admin')}</strong> : null}
              </th>
              <td data-label={ctx.t('admin.column_email')}>
                {user.email || (
                  <>
                    <em>{ctx.t('admin.no_email')}</em> <small class="muted">{ctx.t('admin.no_email_help')}</small>
                  </>
                )}
              </td>
              <td data-label={ctx.t('admin.column_last_login')}>{user.last_login === null ? ctx.t('admin.never') : <Time ms={user.last_login} timeZone={ctx.user?.timezone} />}</td>
              <td data-label={ctx.t('admin.column_two_factor')}>{user.totp_enabled === 1 ? ctx.t('admin.two_factor_on') : ctx.t('admin.two_factor_off')}</td>
              <td data-label={ctx.t('admin.column_status')}>{user.is_active === 1 ? ctx.t('admin.active') : ctx.t('admin.deactivated')}</td>
              <td class="admin-actions">
                {user.email && user.is_active === 1 ? (
                  <form method="post" action={`/admin/users/${user.id}/send-reset/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      {ctx.t('admin.send_reset')}<span class="visually-hidden">{ctx.t('admin.send_reset_to', { username: user.username })}</span>
                    </button>
                  </form>
                ) : null}
                {user.totp_enabled === 1 ? (
                  <form method="post" action={`/admin/users/${user.id}/disable-2fa/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      {ctx.t('admin.disable_two_factor')}<span class="visually-hidden">{ctx.t('admin.disable_two_factor_for', { username: user.username })}</span>
                    </button>
                  </form>
                ) : null}
                {user.id === ctx.user!.id ? null : (
                  <form method="post" action={`/admin/users/${user.id}/${user.is_active === 1 ? 'deactivate' : 'activate'}/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      {user.is_active === 1 ? ctx.t('admin.deactivate') : ctx.t('admin.reactivate')}
                      <span class="visually-hidden"> {user.username}</span>
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  );
}

/** What each audited action is called on the page (the log stores the short name). */
const ACTION_LABELS: Record<string, MessageKey> = {
  deactivate: 'admin.action_deactivate',
  activate: 'admin.action_activate',
  'disable-2fa': 'admin.action_disable_2fa',
  'send-reset': 'admin.action_send_reset',
  promote: 'admin.action_promote',
  demote: 'admin.action_demote',
  'deactivate-refused': 'admin.action_deactivate_refused',
  'demote-refused': 'admin.action_demote_refused',
};

export function AuditLogPage({ ctx, entries }: { ctx: ViewContext; entries: AuditRow[] }) {
  return (
    <Layout ctx={ctx} title={ctx.t('admin.audit_log')}>
      <h1>{ctx.t('admin.audit_log')}</h1>
      <AdminNav ctx={ctx} />
      {entries.length === 0 ? (
        <p>{ctx.t('admin.audit_empty')}</p>
      ) : (
        <table class="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">{ctx.t('admin.column_when')}</th>
              <th scope="col">{ctx.t('admin.column_who')}</th>
              <th scope="col">{ctx.t('admin.column_what')}</th>
              <th scope="col">{ctx.t('admin.column_whom')}</th>
              <th scope="col">{ctx.t('admin.column_from')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr>
                <th scope="row"><Time ms={entry.at} timeZone={ctx.user?.timezone} /></th>
                <td data-label={ctx.t('admin.column_who')}>{entry.actor_name}</td>
                <td data-label={ctx.t('admin.column_what')}>
                  {ACTION_LABELS[entry.action] ? ctx.t(ACTION_LABELS[entry.action]!) : entry.action}
                </td>
                <td data-label={ctx.t('admin.column_whom')}>{entry.target_name}</td>
                <td data-label={ctx.t('admin.column_from')}>{entry.address}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
