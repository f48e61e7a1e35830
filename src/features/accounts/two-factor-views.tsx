import { Checkbox, CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { LOGIN_CODE_PATH } from './two-factor-pending.js';
import { NoEmailNote } from './views.js';

function CodeField({ errors, label, autofocus }: { errors: FormErrors; label: string; autofocus?: boolean }) {
  return <Field name="code" label={label} errors={errors} required autocomplete="one-time-code" maxLength={40} autofocus={autofocus} />;
}

/** The secret in groups of four, as authenticator apps show it and accept it typed. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)!.join(' ');
}

/** `revokeTokens`: whether "also revoke my API tokens" is ticked; it is on a page opened anew. */
export function TwoFactorSetupPage({ ctx, secret, qrCode, errors = {}, revokeTokens = true }: { ctx: ViewContext; secret: string; qrCode: string; errors?: FormErrors; revokeTokens?: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.link')}>
      <article class="narrow">
        <h1>{ctx.t('two_factor.link')}</h1>
        <p class="lead">{ctx.t('two_factor.lead')}</p>
        <p>{ctx.t('two_factor.scan')}</p>
        <img src={qrCode} width={240} height={240} alt={ctx.t('two_factor.qr_alt')} />
        <p>
          {ctx.t('two_factor.type_key')} <code>{grouped(secret)}</code>
        </p>
        <form method="post" action="/accounts/2fa/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <CodeField errors={errors} label={ctx.t('two_factor.then_type')} />
          <Field name="password" label={ctx.t('reauth.password')} type="password" errors={errors} required autocomplete="current-password" />
          <Checkbox name="revoke_tokens" label={ctx.t('tokens.also_revoke')} checked={revokeTokens} />
          <button type="submit">{ctx.t('two_factor.turn_on')}</button>
        </form>
      </article>
    </Layout>
  );
}

export function RecoveryCodesPage({ ctx, codes }: { ctx: ViewContext; codes: string[] }) {
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.codes_title')}>
      <article class="narrow">
        <h1>{ctx.t('two_factor.is_on')}</h1>
        <p>
          {ctx.t('two_factor.keep_codes')} <strong>{ctx.t('two_factor.shown_once')}</strong>
        </p>
        <ul class="recovery-codes">
          {codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <p>{ctx.t('two_factor.logged_out_elsewhere')}</p>
        <NoEmailNote
          ctx={ctx}
          then={
            <>
              {ctx.t('two_factor.no_email_then')} <a href="/accounts/">{ctx.t('two_factor.no_email_link')}</a>.
            </>
          }
        />
        <a href="/accounts/2fa/" role="button">{ctx.t('two_factor.saved_them')}</a>
      </article>
    </Layout>
  );
}

export function TwoFactorOnPage({ ctx, recoveryCodesLeft, errors = {} }: { ctx: ViewContext; recoveryCodesLeft: number; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.link')}>
      <article class="narrow">
        <h1>{ctx.t('two_factor.link')}</h1>
        <p class="lead">{ctx.t('two_factor.on_lead')}</p>
        <p>{ctx.t('two_factor.codes_left', { count: recoveryCodesLeft })}</p>
        <h2>{ctx.t('two_factor.turn_it_off')}</h2>
        <form method="post" action="/accounts/2fa/disable/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="password" label={ctx.t('two_factor.your_password')} type="password" errors={errors} required autocomplete="current-password" />
          <CodeField errors={errors} label={ctx.t('two_factor.code_or_recovery')} />
          <button type="submit" class="secondary">{ctx.t('two_factor.turn_off')}</button>
        </form>
      </article>
    </Layout>
  );
}

export function LoginCodePage({ ctx, errors = {} }: { ctx: ViewContext; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.enter_code_title')}>
      <article class="narrow">
        <h1>{ctx.t('two_factor.enter_code_title')}</h1>
        <p class="lead">{ctx.t('two_factor.enter_code_lead')}</p>
        <form method="post" action={LOGIN_CODE_PATH} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <CodeField errors={errors} label={ctx.t('two_factor.code_from_app')} autofocus />
          <button type="submit">{ctx.t('two_factor.log_in')}</button>
        </form>
        <p>
          {ctx.t('two_factor.no_phone')} <a href="/accounts/login/">{ctx.t('two_factor.start_again')}</a>
        </p>
      </article>
    </Layout>
  );
}
