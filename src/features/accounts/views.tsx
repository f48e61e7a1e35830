import { currencyChoices } from '../../platform/currencies.js';
import type { ComponentChildren } from 'preact';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues, Select } from '../../platform/views/forms.js';
import { timeZoneChoices } from '../../platform/time-zones.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { TimeAgo } from '../../platform/views/controls.js';
import { describeUserAgent, timeAgo } from './user-agent.js';
import { sessionKeyId } from '../../platform/chain/session.js';

interface FormProps {
  ctx: ViewContext;
  values?: FormValues;
  errors?: FormErrors;
}

export function LoginPage({ ctx, values = {}, errors = {}, next, allowSignup }: FormProps & { next: string; allowSignup: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('login.title')}>
      <article class="narrow">
        <h1>{ctx.t('login.title')}</h1>
        <p class="lead">{ctx.t('login.lead')}</p>
        <form method="post" action="/accounts/login/" novalidate>
          <CsrfField ctx={ctx} />
          <input type="hidden" name="next" value={next} />
          <FormAlert errors={errors} />
          <Field name="username" label={ctx.t('field.username')} value={values.username} errors={errors} required autocomplete="username" autofocus={!values.username || !!errors.username} maxLength={150} />
          <Field name="password" label={ctx.t('field.password')} type="password" errors={errors} required autocomplete="current-password" autofocus={!!values.username && !errors.username} />
          <button type="submit">{ctx.t('login.submit')}</button>
        </form>
        <p>
          <a href="/accounts/password_reset/">{ctx.t('login.forgot_password')}</a>
        </p>
        {allowSignup ? (
          <p>
            {ctx.t('login.new_here')} <a href="/register/">{ctx.t('login.create_account')}</a>
          </p>
        ) : null}
      </article>
    </Layout>
  );
}

/**
 * Told wherever it matters to a signed-in user without an email address: a forgotten password
 * cannot be reset by mail. `then` says what to do about it on that page.
 */
export function NoEmailNote({ ctx, then }: { ctx: ViewContext; then: ComponentChildren }) {
  if (ctx.user?.email) return null;
  return (
    <p role="note" class="no-email-note">
      <strong>Your account has no email address</strong>, so a forgotten password cannot be reset by mail: {then}
    </p>
  );
}

export function RegisterPage({ ctx, values = {}, errors = {} }: FormProps) {
  return (
    <Layout ctx={ctx} title="Create an account">
      <article class="narrow">
        <h1>Create an account</h1>
        <form method="post" action="/register/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="username" label="Username" value={values.username} errors={errors} required autocomplete="username" maxLength={150}
            help="Up to 150 letters, digits and @ . + - _" />
          <Field name="email" label="Email (optional)" type="email" value={values.email} errors={errors} autocomplete="email"
            help="Only used to reset a forgotten password: without one, a forgotten password cannot be reset." />
          <Field name="password1" label="Password" type="password" value={errors.password2 ? values.password1 : undefined} keepPassword errors={errors} required autocomplete="new-password"
            help="At least 8 characters, not too common, not all digits, not like your username." />
          <Field name="password2" label="Password again" type="password" errors={errors} required autocomplete="new-password" />
          <input type="hidden" name="timezone" value={values.timezone ?? ''} data-guess-time-zone />
          <button type="submit">Create account</button>
        </form>
        <p>
          Already have an account? <a href="/accounts/login/">Log in</a>.
        </p>
      </article>
    </Layout>
  );
}

export function PasswordChangePage({ ctx, values = {}, errors = {} }: FormProps) {
  return (
    <Layout ctx={ctx} title="Change password">
      <article class="narrow">
        <h1>Change your password</h1>
        <p>Changing it logs you out everywhere else.</p>
        <NoEmailNote ctx={ctx} then="keep this one somewhere safe." />
        <form method="post" action="/accounts/password_change/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="old_password" label="Current password" type="password" errors={errors} required autocomplete="current-password" />
          <Field name="new_password1" label="New password" type="password" value={errors.new_password2 ? values.new_password1 : undefined} keepPassword errors={errors} required autocomplete="new-password" />
          <Field name="new_password2" label="New password again" type="password" errors={errors} required autocomplete="new-password" />
          <button type="submit">Change password</button>
        </form>
        <p>
          <a href="/accounts/sessions/">See where you are logged in</a>
        </p>
        <p>
          <a href="/accounts/2fa/">Two-factor sign-in</a>
        </p>
      </article>
    </Layout>
  );
}

export function PasswordChangeDonePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title="Password changed">
      <article class="narrow">
        <h1>Password changed</h1>
        <p>Your password was changed, and every other session of yours has ended.</p>
        <a href="/notes/" role="button">Back to your notes</a>
      </article>
    </Layout>
  );
}

interface SessionRow {
  session_key: string;
  created_at: number;
  last_seen: number;
  user_agent: string;
  ip_address: string;
}

export function SessionsPage({ ctx, sessions, currentKey }: { ctx: ViewContext; sessions: SessionRow[]; currentKey: string }) {
  const timeZone = ctx.user?.timezone || 'UTC';
  return (
    <Layout ctx={ctx} title="Your sessions">
      <h1>Where you are logged in</h1>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Logged in</th>
              <th scope="col">Last seen</th>
              <th scope="col"><span class="visually-hidden">Log out</span></th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => {
              const current = session.session_key === currentKey;
              return (
                <tr>
                  <td>
                    <span title={session.user_agent || undefined}>{describeUserAgent(session.user_agent)}</span>
                    {current ? <strong class="badge">this browser</strong> : null}
                  </td>
                  <td>{session.ip_address || 'unknown'}</td>
                  <td><TimeAgo ms={session.created_at} text={timeAgo(session.created_at)} timeZone={timeZone} /></td>
                  <td><TimeAgo ms={session.last_seen} text={timeAgo(session.last_seen)} timeZone={timeZone} /></td>
                  <td>
                    <form method="post" action={`/accounts/sessions/${sessionKeyId(session.session_key)}/delete/`} class="inline">
                      <CsrfField ctx={ctx} />
                      <button type="submit" class="secondary outline">{current ? 'End and log out' : 'End'}</button>
                    </form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {sessions.length > 1 ? (
        <form method="post" action="/accounts/sessions/">
          <CsrfField ctx={ctx} />
          <button type="submit" class="secondary">Log out everywhere else</button>
        </form>
      ) : (
        <p>This is your only session.</p>
      )}
      <p>
        <a href="/accounts/2fa/">Two-factor sign-in</a>: ask for a code from your phone after the password.
      </p>
    </Layout>
  );
}

export function AccountPage({ ctx, values, errors = {} }: { ctx: ViewContext; values: FormValues; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title="Your account">
      <article class="narrow">
        <h1>Your account</h1>
        <NoEmailNote ctx={ctx} then="add one below." />
        <form method="post" action="/accounts/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="email" label="Email (optional)" type="email" value={values.email} errors={errors} autocomplete="email"
            help="Only used to reset a forgotten password: without one, a forgotten password cannot be reset." />
          <Select name="timezone" label="Time zone" value={values.timezone} errors={errors} choices={timeZoneChoices(values.timezone).map((zone) => ({ value: zone, label: zone }))}
            help="Your “today”: when a to-do item is overdue." />
          <Select name="currency" label="Currency" value={values.currency} errors={errors} choices={currencyChoices()}
            help="How shopping list prices and totals are shown to you." />
          <button type="submit">Save</button>
        </form>
        <ul>
          <li><a href="/accounts/sessions/">Where you are logged in</a></li>
          <li><a href="/accounts/password_change/">Change your password</a></li>
          <li><a href="/accounts/2fa/">Two-factor sign-in</a></li>
          <li><a href="/accounts/tokens/">Access tokens</a> for scripts using the API</li>
          <li><a href="/accounts/export/">Download your data</a> (a zip of Markdown files) · <a href="/accounts/import/">Import notes</a></li>
          <li><a href="/accounts/delete/">Delete your account</a></li>
        </ul>
      </article>
    </Layout>
  );
}
