import { CsrfField, Field, FormAlert, type FormErrors, type FormValues } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';

interface FormProps {
  ctx: ViewContext;
  values?: FormValues;
  errors?: FormErrors;
}

export function PasswordResetPage({ ctx, values = {}, errors = {} }: FormProps) {
  return (
    <Layout ctx={ctx} title="Reset your password">
      <article class="narrow">
        <h1>Forgot your password?</h1>
        <p>Enter the email address of your account, and we will mail you a link to choose a new password.</p>
        <form method="post" action="/accounts/password_reset/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="email" label="Email" type="email" value={values.email} errors={errors} required autocomplete="email" autofocus maxLength={254}
            help="An account without an email address cannot be reset this way: ask the person who runs this service." />
          <button type="submit">Send the link</button>
        </form>
        <p>
          Remembered it? <a href="/accounts/login/">Log in</a>.
        </p>
      </article>
    </Layout>
  );
}

export function PasswordResetDonePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title="Check your mail">
      <article class="narrow">
        <h1>Check your mail</h1>
        <p>If an account has that email address, we have sent it a link to choose a new password. It should arrive within a few minutes.</p>
        <p>Nothing came? Check the spam folder, and that you typed the address the account was created with.</p>
        <a href="/accounts/login/" role="button">Back to log in</a>
      </article>
    </Layout>
  );
}

export function SetPasswordPage({ ctx, action, values = {}, errors = {} }: FormProps & { action: string }) {
  return (
    <Layout ctx={ctx} title="Choose a new password">
      <article class="narrow">
        <h1>Choose a new password</h1>
        <p>Setting it logs you out everywhere.</p>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="new_password1" label="New password" type="password" value={errors.new_password2 ? values.new_password1 : undefined} keepPassword errors={errors} required autocomplete="new-password" autofocus
            help="At least 8 characters, not too common, not all digits, not like your username." />
          <Field name="new_password2" label="New password again" type="password" errors={errors} required autocomplete="new-password" />
          <button type="submit">Set password</button>
        </form>
      </article>
    </Layout>
  );
}

export function InvalidResetLinkPage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title="Link no longer valid">
      <article class="narrow">
        <h1>This link no longer works</h1>
        <p>It was used already, is more than three days old, or the password was changed since it was sent.</p>
        <a href="/accounts/password_reset/" role="button">Ask for a new link</a>
      </article>
    </Layout>
  );
}

export function PasswordResetCompletePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title="Password set">
      <article class="narrow">
        <h1>Password set</h1>
        <p>Your new password is set, and every session of yours has ended.</p>
        <a href="/accounts/login/" role="button">Log in</a>
      </article>
    </Layout>
  );
}
