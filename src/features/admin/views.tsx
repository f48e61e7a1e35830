import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { CsrfField } from '../../platform/views/forms.js';
import { Time } from '../../platform/views/controls.js';
import type { AdminUserRow } from './repository.js';

interface AuditRow {
  id: number;
  at: number;
  actor_name: string;
  action: string;
  target_name: string;
  address: string;
}

function AdminNav() {
  return (
    <p>
      <a href="/admin/users/">Users</a> · <a href="/admin/audit/">Audit log</a>
    </p>
  );
}

export function AdminUsersPage({ ctx, users }: { ctx: ViewContext; users: AdminUserRow[] }) {
  return (
    <Layout ctx={ctx} title="Users">
      <h1>Users</h1>
      <AdminNav />
      <table class="stack-on-phone admin-users">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Email</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">Two-factor</th>
            <th scope="col">Status</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr>
              <th scope="row">
                {user.username}
                {user.is_admin === 1 ? <strong class="badge">admin</strong> : null}
              </th>
              <td data-label="Email">
                {user.email || (
                  <>
                    <em>none</em> <small class="muted">Password reset needs an email address.</small>
                  </>
                )}
              </td>
              <td data-label="Last sign-in">{user.last_login === null ? 'never' : <Time ms={user.last_login} />}</td>
              <td data-label="Two-factor">{user.totp_enabled === 1 ? 'on' : 'off'}</td>
              <td data-label="Status">{user.is_active === 1 ? 'active' : 'deactivated'}</td>
              <td class="admin-actions">
                {user.email && user.is_active === 1 ? (
                  <form method="post" action={`/admin/users/${user.id}/send-reset/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      Send reset mail<span class="visually-hidden"> to {user.username}</span>
                    </button>
                  </form>
                ) : null}
                {user.totp_enabled === 1 ? (
                  <form method="post" action={`/admin/users/${user.id}/disable-2fa/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      Turn off two-factor<span class="visually-hidden"> sign-in for {user.username}</span>
                    </button>
                  </form>
                ) : null}
                {user.id === ctx.user!.id ? null : (
                  <form method="post" action={`/admin/users/${user.id}/${user.is_active === 1 ? 'deactivate' : 'activate'}/`} class="inline">
                    <CsrfField ctx={ctx} />
                    <button type="submit" class="secondary outline small">
                      {user.is_active === 1 ? 'Deactivate' : 'Reactivate'}
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
const ACTION_LABELS: Record<string, string> = {
  deactivate: 'deactivated',
  activate: 'reactivated',
  'disable-2fa': 'turned off two-factor sign-in of',
  'send-reset': 'sent a password-reset mail to',
  promote: 'made an administrator',
  demote: 'took administrator from',
};

export function AuditLogPage({ ctx, entries }: { ctx: ViewContext; entries: AuditRow[] }) {
  return (
    <Layout ctx={ctx} title="Audit log">
      <h1>Audit log</h1>
      <AdminNav />
      {entries.length === 0 ? (
        <p>No administrator has done anything yet.</p>
      ) : (
        <table class="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Whom</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr>
                <th scope="row"><Time ms={entry.at} /></th>
                <td data-label="Who">{entry.actor_name}</td>
                <td data-label="What">
                  <span title={entry.action}>{ACTION_LABELS[entry.action] ?? entry.action}</span>
                </td>
                <td data-label="Whom">{entry.target_name}</td>
                <td data-label="From">{entry.address}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
