import { CsrfField, Field, FormAlert, type FormErrors } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import { LOGIN_CODE_PATH } from './two-factor-pending.js';
import { NoEmailNote } from './views.js';

const TITLE = 'Two-factor sign-in';

function CodeField({ errors, label = 'Code from your app', autofocus }: { errors: FormErrors; label?: string; autofocus?: boolean }) {
  return <Field name="code" label={label} errors={errors} required autocomplete="one-time-code" maxLength={40} autofocus={autofocus} />;
}

/** The secret in groups of four, as authenticator apps show it and accept it typed. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)!.join(' ');
}

export function TwoFactorSetupPage({ ctx, secret, qrCode, errors = {} }: { ctx: ViewContext; secret: string; qrCode: string; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={TITLE}>
      <article class="narrow">
        <h1>{TITLE}</h1>
        <p class="lead">Sign-in will ask for a code from your phone after your password.</p>
        <p>Scan this QR code with an authenticator app (such as Aegis, FreeOTP or Google Authenticator):</p>
        <img src={qrCode} width={240} height={240} alt="QR code holding your two-factor secret" />
        <p>
          Or type this key into the app: <code>{grouped(secret)}</code>
        </p>
        <form method="post" action="/accounts/2fa/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <CodeField errors={errors} label="Then type the code the app shows" />
          <button type="submit">Turn on two-factor sign-in</button>
        </form>
      </article>
    </Layout>
  );
}

export function RecoveryCodesPage({ ctx, codes }: { ctx: ViewContext; codes: string[] }) {
  return (
    <Layout ctx={ctx} title="Your recovery codes">
      <article class="narrow">
        <h1>Two-factor sign-in is on</h1>
        <p>
          Keep these recovery codes somewhere safe, away from your phone. If you lose your phone, each of them
          signs you in once in place of a code. <strong>They are shown only this once.</strong>
        </p>
        <ul class="recovery-codes">
          {codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <p>You were logged out everywhere else: sign in there again with your password and a code.</p>
        <NoEmailNote
          ctx={ctx}
          then={
            <>
              with a lost phone and a forgotten password you would be locked out, so <a href="/accounts/">add one to your account</a>.
            </>
          }
        />
        <a href="/accounts/2fa/" role="button">I have saved them</a>
      </article>
    </Layout>
  );
}

export function TwoFactorOnPage({ ctx, recoveryCodesLeft, errors = {} }: { ctx: ViewContext; recoveryCodesLeft: number; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title={TITLE}>
      <article class="narrow">
        <h1>{TITLE}</h1>
        <p class="lead">On: sign-in asks for a code from your phone after your password.</p>
        <p>
          {recoveryCodesLeft === 1 ? 'One recovery code is' : `${recoveryCodesLeft} recovery codes are`} left unused.
        </p>
        <h2>Turn it off</h2>
        <form method="post" action="/accounts/2fa/disable/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="password" label="Your password" type="password" errors={errors} required autocomplete="current-password" />
          <CodeField errors={errors} label="A code from your app, or a recovery code" />
          <button type="submit" class="secondary">Turn off two-factor sign-in</button>
        </form>
      </article>
    </Layout>
  );
}

export function LoginCodePage({ ctx, errors = {} }: { ctx: ViewContext; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title="Enter your code">
      <article class="narrow">
        <h1>Enter your code</h1>
        <p class="lead">Open your authenticator app and type the code it shows for groupnotes.</p>
        <form method="post" action={LOGIN_CODE_PATH} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <CodeField errors={errors} autofocus />
          <button type="submit">Log in</button>
        </form>
        <p>
          No phone at hand? Type one of your recovery codes instead. <a href="/accounts/login/">Start again</a>
        </p>
      </article>
    </Layout>
  );
}
