import { CsrfField, Field, FormAlert } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';

interface FormProps {
  ctx: ViewContext;
  values?: FormValues;
  errors?: FormErrors;
}

export function PasswordResetPage({ ctx, values = {}, errors = {} }: FormProps) {
  return (
    <Layout ctx={ctx} title={ctx.t('reset.title')}>
      <article class="narrow">
        <h1>{ctx.t('reset.heading')}</h1>
        <p>{ctx.t('reset.lead')}</p>
        <form method="post" action="/accounts/password_reset/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="email" label={ctx.t('reset.email')} type="email" value={values.email} errors={errors} required autocomplete="email" autofocus maxLength={254}
            help={ctx.t('reset.email_help')} />
          <button type="submit">{ctx.t('reset.submit')}</button>
        </form>
        <p>
          {ctx.t('reset.remembered')} <a href="/accounts/login/">{ctx.t('reset.log_in')}</a>.
        </p>
      </article>
    </Layout>
  );
}

export function PasswordResetDonePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title={ctx.t('reset_done.title')}>
      <article class="narrow">
        <h1>{ctx.t('reset_done.title')}</h1>
        <p>{ctx.t('reset_done.sent')}</p>
        <p>{ctx.t('reset_done.nothing_came')}</p>
        <a href="/accounts/login/" role="button">{ctx.t('reset_done.back')}</a>
      </article>
    </Layout>
  );
}

export function SetPasswordPage({ ctx, action, values = {}, errors = {} }: FormProps & { action: string }) {
  return (
    <Layout ctx={ctx} title={ctx.t('set_password.title')}>
      <article class="narrow">
        <h1>{ctx.t('set_password.title')}</h1>
        <p>{ctx.t('set_password.lead')}</p>
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="new_password1" label={ctx.t('password_change.new')} type="password" value={errors.new_password2 ? values.new_password1 : undefined} keepPassword errors={errors} required autocomplete="new-password" autofocus
            help={ctx.t('password.rules')} />
          <Field name="new_password2" label={ctx.t('password_change.new_again')} type="password" errors={errors} required autocomplete="new-password" />
          <button type="submit">{ctx.t('set_password.submit')}</button>
        </form>
      </article>
    </Layout>
  );
}

export function InvalidResetLinkPage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title={ctx.t('reset_invalid.title')}>
      <article class="narrow">
        <h1>{ctx.t('reset_invalid.heading')}</h1>
        <p>{ctx.t('reset_invalid.body')}</p>
        <a href="/accounts/password_reset/" role="button">{ctx.t('reset_invalid.again')}</a>
      </article>
    </Layout>
  );
}

export function PasswordResetCompletePage({ ctx }: { ctx: ViewContext }) {
  return (
    <Layout ctx={ctx} title={ctx.t('reset_complete.title')}>
      <article class="narrow">
        <h1>{ctx.t('reset_complete.title')}</h1>
        <p>{ctx.t('reset_complete.body')}</p>
        <a href="/accounts/login/" role="button">{ctx.t('reset_complete.log_in')}</a>
      </article>
    </Layout>
  );
}
