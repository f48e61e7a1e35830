import { currencyChoices } from './currencies.js';
import { LANGUAGES } from '../../platform/i18n/index.js';
import { currentZoneName } from '../../platform/time-zones.js';
import { type Choice, CsrfField, Field, FormAlert, Select } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';
import { NoEmailNote } from './views.js';
import { MAIL_CHOICE_PATH } from './mail-choice-views.js';
import { ReauthFields } from './reauth-views.js';
import { timeZoneSelectChoices } from './time-zone-choices.js';

/**
 * A language's name in that language ("English", "Українська"), from Intl rather than the
 * catalogue: a language added as a folder of locales/ names itself with no code.
 */
export function ownName(language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/** The browser's language (no setting), then every language there is a catalogue for. */
function languageChoices(ctx: ViewContext): Choice[] {
  return [{ value: '', label: ctx.t('account.language_browser') }, ...LANGUAGES.map((language) => ({ value: language, label: ownName(language) }))];
}

/** `withCode`: two-factor sign-in is on, so an email change asks for a code besides the password. */
export function AccountPage({ ctx, values, errors = {}, withCode }: { ctx: ViewContext; values: FormValues; errors?: FormErrors; withCode: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('account.title')}>
      <article class="narrow">
        <h1>{ctx.t('account.title')}</h1>
        <NoEmailNote ctx={ctx} then={ctx.t('account.no_email_then')} />
        <form method="post" action="/accounts/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="email" label={ctx.t('field.email_optional')} type="email" value={values.email} errors={errors} autocomplete="email"
            help={ctx.t('field.email_help')} />
          <ReauthFields ctx={ctx} errors={errors} withCode={withCode} help={ctx.t('reauth.password_for_email')} />
          {/* A stored older name (Europe/Kiev) is the same zone as its current one, which is offered. */}
          <Select name="timezone" label={ctx.t('account.timezone')} value={values.timezone && currentZoneName(values.timezone)} errors={errors}
            choices={timeZoneSelectChoices(ctx, values.timezone)} help={ctx.t('account.timezone_help')} />
          <Select name="currency" label={ctx.t('account.currency')} value={values.currency} errors={errors} choices={currencyChoices(ctx)}
            help={ctx.t('account.currency_help')} />
          <Select name="language" label={ctx.t('account.language')} value={values.language} errors={errors} choices={languageChoices(ctx)}
            help={ctx.t('account.language_help')} />
          <button type="submit">{ctx.t('account.save')}</button>
        </form>
        <ul>
          <li><a href={MAIL_CHOICE_PATH}>{ctx.t('account.mail_link')}</a></li>
          <li><a href="/accounts/sessions/">{ctx.t('account.sessions_link')}</a></li>
          <li><a href="/accounts/password_change/">{ctx.t('account.password_link')}</a></li>
          <li><a href="/accounts/2fa/">{ctx.t('two_factor.link')}</a></li>
          <li><a href="/accounts/tokens/">{ctx.t('account.tokens_link')}</a>{ctx.t('account.tokens_hint')}</li>
          <li><a href="/accounts/export/">{ctx.t('account.export_link')}</a>{ctx.t('account.export_hint')}<a href="/accounts/import/">{ctx.t('account.import_link')}</a></li>
          <li><a href="/accounts/delete/">{ctx.t('account.delete_link')}</a></li>
        </ul>
      </article>
    </Layout>
  );
}
