import { CsrfField, FormAlert } from '../../platform/views/forms.js';
import { ReauthFields } from '../accounts/index.js';
import { type FormErrors } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';

export function ImportPage({ ctx, errors = {}, maxMegabytes }: { ctx: ViewContext; errors?: FormErrors; maxMegabytes: number }) {
  return (
    <Layout ctx={ctx} title={ctx.t('import.heading')}>
      <article class="narrow">
        <h1>{ctx.t('import.heading')}</h1>
        <p>
          {ctx.t('import.intro_before')} <a href="/accounts/export/">{ctx.t('import.intro_link')}</a> {ctx.t('import.intro_markdown')}{' '}
          (<code>title</code>, <code>tags</code>, <code>notebook</code>, <code>created</code>) {ctx.t('import.intro_front_matter')}
        </p>
        <p>{ctx.t('import.nothing_replaced', { max: maxMegabytes })}</p>
        {/* The token comes first: the server reads it before the upload. */}
        <form method="post" action="/accounts/import/" enctype="multipart/form-data">
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <label for="id_file">{ctx.t('import.file')}</label>
          <input type="file" id="id_file" name="file" accept=".zip,application/zip" required />
          <button type="submit">{ctx.t('import.submit')}</button>
        </form>
        <p>
          <a href="/accounts/">{ctx.t('import.back')}</a>
        </p>
      </article>
    </Layout>
  );
}

/** `withCode`: two-factor sign-in is on, so the form asks for a code as well as the password. */
export function DeleteAccountPage({ ctx, errors = {}, withCode }: { ctx: ViewContext; errors?: FormErrors; withCode: boolean }) {
  return (
    <Layout ctx={ctx} title={ctx.t('delete_account.title')}>
      <article class="narrow">
        <h1>{ctx.t('delete_account.heading')}</h1>
        <p>{ctx.t('delete_account.intro')}</p>
        <ul>
          <li>{ctx.t('delete_account.notes')}</li>
          <li>{ctx.t('delete_account.lists')}</li>
          <li>{ctx.t('delete_account.chat')}</li>
          <li>{ctx.t('delete_account.sessions')}</li>
        </ul>
        <p>
          {ctx.t('delete_account.groups')} <a href="/accounts/export/">{ctx.t('delete_account.export_link')}</a> {ctx.t('delete_account.export_after')}
        </p>
        <form method="post" action="/accounts/delete/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <ReauthFields ctx={ctx} errors={errors} withCode={withCode} label={ctx.t('delete_account.password')} required />
          <div class="actions">
            <button type="submit" class="danger">{ctx.t('delete_account.submit')}</button>
            <a href="/accounts/" role="button" class="secondary outline">{ctx.t('note_form.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
