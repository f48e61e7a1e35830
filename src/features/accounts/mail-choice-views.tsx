import type { ViewContext } from '../../platform/views/context.js';
import { Checkbox, CsrfField } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import { NoEmailNote } from './views.js';

/** Where the choice is made (mail-choice-routes.ts). */
export const MAIL_CHOICE_PATH = '/accounts/notifications/';

/** Whether the notices that may go by mail are mailed too: one box, in a form of its own. */
export function MailChoicePage({ ctx, mail }: { ctx: ViewContext; mail: boolean }) {
  const email = ctx.user?.email ?? '';
  return (
    <Layout ctx={ctx} title={ctx.t('mail_choice.title')}>
      <article class="narrow">
        <h1>{ctx.t('mail_choice.title')}</h1>
        <NoEmailNote ctx={ctx} then={ctx.t('mail_choice.no_email_then')} />
        <form method="post" action={MAIL_CHOICE_PATH}>
          <CsrfField ctx={ctx} />
          <Checkbox name="mail" label={ctx.t('mail_choice.field')} checked={mail} />
          {email && <p><small>{ctx.t('mail_choice.help', { email })}</small></p>}
          <button type="submit">{ctx.t('mail_choice.save')}</button>
        </form>
        <p><a href="/accounts/">{ctx.t('account.title')}</a></p>
      </article>
    </Layout>
  );
}
