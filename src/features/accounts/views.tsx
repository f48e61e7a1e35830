import type { ComponentChildren } from 'preact';
import { Checkbox, CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
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
      <strong>{ctx.t('no_email.title')}</strong>{ctx.t('no_email.body')} {then}
    </p>
  );
}

export function RegisterPage({ ctx, values = {}, errors = {} }: FormProps) {
  return (
    <Layout ctx={ctx} title={ctx.t('register.title')}>
      <article class="narrow">
        <h1>{ctx.t('register.title')}</h1>
        <form method="post" action="/register/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="username" label={ctx.t('field.username')} value={values.username} errors={errors} required autocomplete="username" maxLength={150}
            help={ctx.t('register.username_help')} />
          <Field name="email" label={ctx.t('field.email_optional')} type="email" value={values.email} errors={errors} autocomplete="email"
            help={ctx.t('field.email_help')} />
          <Field name="password1" label={ctx.t('field.password')} type="password" value={errors.password2 ? values.password1 : undefined} keepPassword errors={errors} required autocomplete="new-password"
            help={ctx.t('password.rules')} />
          <Field name="password2" label={ctx.t('register.password_again')} type="password" errors={errors} required autocomplete="new-password" />
          <input type="hidden" name="timezone" value={values.timezone ?? ''} data-guess-time-zone />
          <button type="submit">{ctx.t('register.submit')}</button>
        </form>
        <p>
          {ctx.t('register.have_account')} <a href="/accounts/login/">{ctx.t('register.log_in')}</a>.
        </p>
      </article>
    </Layout>
  );
}

/** `revokeTokens`: whether "also revoke my API tokens" is ticked; it is on a page opened anew. */
export function PasswordChangePage({ ctx, values = {}, errors = {}, revokeTokens = true }: FormProps & { revokeTokens?: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('password_change.title')}>
      <article class="narrow">
        <h1>{ctx.t('password_change.heading')}</h1>
        <p>{ctx.t('password_change.lead')}</p>
        <NoEmailNote ctx={ctx} then={ctx.t('password_change.no_email_then')} />
        <form method="post" action="/accounts/password_change/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="old_password" label={ctx.t('password_change.current')} type="password" errors={errors} required autocomplete="current-password" />
          <Field name="new_password1" label={ctx.t('password_change.new')} type="password" value={errors.new_password2 ? values.new_password1 : undefined} keepPassword errors={errors} required autocomplete="new-password" />
          <Field name="new_password2" label={ctx.t('password_change.new_again')} type="password" errors={errors} required autocomplete="new-password" />
          <Checkbox name="revoke_tokens" label={ctx.t('tokens.also_revoke')} checked={revokeTokens} />
          <button type="submit">{ctx.t('password_change.submit')}</button>
        </form>
        <p>
          <a href="/accounts/sessions/">{ctx.t('password_change.sessions_link')}</a>
        </p>
        <p>
          <a href="/accounts/2fa/">{ctx.t('two_factor.link')}</a>
        </p>
      </article>
    </Layout>
  );
}

export function PasswordChangeDonePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title={ctx.t('password_change_done.title')}>
      <article class="narrow">
        <h1>{ctx.t('password_change_done.title')}</h1>
        <p>{ctx.t('password_change_done.body')}</p>
        <a href="/notes/" role="button">{ctx.t('password_change_done.back')}</a>
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

/** "Firefox on Windows": the browser and system names are the products' own, the rest is the catalogue's. */
function browserOf(ctx: ViewContext, userAgent: string): string {
  const { browser, system } = describeUserAgent(userAgent);
  const named = browser ?? ctx.t('sessions.unknown_browser');
  return system ? ctx.t('sessions.browser_on_system', { browser: named, system }) : named;
}

function Ago({ ctx, ms, timeZone }: { ctx: ViewContext; ms: number; timeZone: string }) {
  return <TimeAgo ms={ms} text={timeAgo(ms, ctx.language) ?? ctx.t('sessions.just_now')} timeZone={timeZone} />;
}

export function SessionsPage({ ctx, sessions, currentKey }: { ctx: ViewContext; sessions: SessionRow[]; currentKey: string }) {
  const timeZone = ctx.user?.timezone || 'UTC';
  return (
    <Layout ctx={ctx} title={ctx.t('sessions.title')}>
      <h1>{ctx.t('sessions.heading')}</h1>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{ctx.t('sessions.browser')}</th>
              <th scope="col">{ctx.t('sessions.address')}</th>
              <th scope="col">{ctx.t('sessions.logged_in')}</th>
              <th scope="col">{ctx.t('sessions.last_seen')}</th>
              <th scope="col"><span class="visually-hidden">{ctx.t('sessions.log_out')}</span></th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => {
              const current = session.session_key === currentKey;
              return (
                <tr>
                  <td>
                    <span title={session.user_agent || undefined}>{browserOf(ctx, session.user_agent)}</span>
                    {current ? <strong class="badge">{ctx.t('sessions.this_browser')}</strong> : null}
                  </td>
                  <td>{session.ip_address || ctx.t('sessions.unknown_address')}</td>
                  <td><Ago ctx={ctx} ms={session.created_at} timeZone={timeZone} /></td>
                  <td><Ago ctx={ctx} ms={session.last_seen} timeZone={timeZone} /></td>
                  <td>
                    <form method="post" action={`/accounts/sessions/${sessionKeyId(session.session_key)}/delete/`} class="inline">
                      <CsrfField ctx={ctx} />
                      <button type="submit" class="secondary outline">{current ? ctx.t('sessions.end_and_log_out') : ctx.t('sessions.end')}</button>
                    </form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {sessions.length > 1 ? null : <p>{ctx.t('sessions.only_one')}</p>}
      <div class="actions">
        {sessions.length > 1 ? (
          <form method="post" action="/accounts/sessions/">
            <CsrfField ctx={ctx} />
            <button type="submit" class="secondary">{ctx.t('sessions.log_out_elsewhere')}</button>
          </form>
        ) : null}
        <form method="post" action="/accounts/sessions/revoke-tokens/">
          <CsrfField ctx={ctx} />
          <button type="submit" class="secondary">{ctx.t('sessions.revoke_tokens')}</button>
        </form>
      </div>
      <p>{ctx.t('sessions.revoke_tokens_hint')}</p>
      <p>
        <a href="/accounts/2fa/">{ctx.t('two_factor.link')}</a>{ctx.t('sessions.two_factor_hint')}
      </p>
    </Layout>
  );
}
