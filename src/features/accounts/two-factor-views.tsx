import { Checkbox, CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors } from '../../platform/forms.js';
import { assetUrl } from '../../platform/views/assets.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { LOGIN_CODE_PATH } from './two-factor-pending.js';
import { NoEmailNote } from './views.js';

/**
 * `digitsOnly`: the field takes a code from the app alone, so a phone shows its number pad. Where a
 * recovery code is taken too, the ordinary keyboard stays: those codes have letters.
 */
function CodeField({ errors, label, autofocus, digitsOnly }: { errors: FormErrors; label: string; autofocus?: boolean; digitsOnly?: boolean }) {
  return <Field name="code" label={label} errors={errors} required autocomplete="one-time-code" inputMode={digitsOnly ? 'numeric' : undefined} maxLength={40} autofocus={autofocus} />;
}

/** The secret in groups of four, as authenticator apps show it and accept it typed. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)!.join(' ');
}

/**
 * `uri`: the `otpauth://` address the QR code holds, also a link, for the phone that shows this
 * page and so cannot scan it. `revokeTokens`: whether "also revoke my API tokens" is ticked; it is
 * on a page opened anew.
 */
export function TwoFactorSetupPage({ ctx, secret, uri, qrCode, errors = {}, revokeTokens = true }: { ctx: ViewContext; secret: string; uri: string; qrCode: string; errors?: FormErrors; revokeTokens?: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.link')}>
      <article class="narrow">
        <h1>{ctx.t('two_factor.link')}</h1>
        <p class="lead">{ctx.t('two_factor.lead')}</p>
        <p>{ctx.t('two_factor.scan')}</p>
        <img src={qrCode} width={240} height={240} alt={ctx.t('two_factor.qr_alt')} />
        <p>
          <a href={uri}>{ctx.t('two_factor.open_in_app')}</a>
        </p>
        <p>
          {ctx.t('two_factor.type_key')} <code>{grouped(secret)}</code>
        </p>
        <form method="post" action="/accounts/2fa/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <CodeField errors={errors} label={ctx.t('two_factor.then_type')} digitsOnly />
          <Field name="password" label={ctx.t('reauth.password')} type="password" errors={errors} required autocomplete="current-password" />
          <Checkbox name="revoke_tokens" label={ctx.t('tokens.also_revoke')} checked={revokeTokens} />
          <button type="submit">{ctx.t('two_factor.turn_on')}</button>
        </form>
      </article>
    </Layout>
  );
}

/** The codes as a text file: whose they are and for which site (on paper, that is not obvious), then one a line. */
function codesFile(heading: string, codes: string[]): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent([heading, '', ...codes, ''].join('\n'))}`;
}

/**
 * The recovery codes, shown once. Download is a link to the codes already on this page (a `data:`
 * URL), so nothing can fetch them again later, and it works without a script; Copy and Print
 * need recovery-codes.js, which shows them. Printed, the page is the heading and the codes alone.
 */
export function RecoveryCodesPage({ ctx, codes, site }: { ctx: ViewContext; codes: string[]; site: string }) {
  const heading = ctx.t('two_factor.codes_for', { username: ctx.user!.username, site });
  return (
    <Layout ctx={ctx} title={ctx.t('two_factor.codes_title')}>
      <article class="narrow recovery-codes-page">
        <h1>{ctx.t('two_factor.is_on')}</h1>
        <p>
          {ctx.t('two_factor.keep_codes')} <strong>{ctx.t('two_factor.shown_once')}</strong>
        </p>
        <h2 class="recovery-codes-heading">{heading}</h2>
        <ul class="recovery-codes">
          {codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <div class="actions">
          <button type="button" class="secondary outline" data-copy-codes data-copied={ctx.t('two_factor.copied')} data-copy-failed={ctx.t('two_factor.copy_failed')} hidden>
            {ctx.t('two_factor.copy')}
          </button>
          <a href={codesFile(heading, codes)} download="groupnotes-recovery-codes.txt" role="button" class="secondary outline" data-download-codes>
            {ctx.t('two_factor.download')}
          </a>
          <button type="button" class="secondary outline" data-print-codes hidden>
            {ctx.t('two_factor.print')}
          </button>
          <span role="status" data-codes-status></span>
        </div>
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
      <link rel="stylesheet" href={assetUrl('recovery-codes-print.css')} media="print" />
      <script src={assetUrl('js/recovery-codes.js')} defer />
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
