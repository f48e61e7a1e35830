import { TOKEN_PREFIX } from '../../platform/api/tokens.js';
import { Time } from '../../platform/views/controls.js';
import { CsrfField, Field, FormAlert, Select } from '../../platform/views/forms.js';
import { type FormErrors, type FormValues } from '../../platform/forms.js';
import { Layout } from '../../platform/views/layout.js';
import { ConfirmPage } from '../../platform/views/confirm.js';
import type { ViewContext } from '../../platform/views/context.js';
import type { TokenRow } from './tokens-repository.js';
import { ReauthFields } from './reauth-views.js';

const scopeChoices = (ctx: ViewContext) => [
  { value: 'read', label: ctx.t('tokens.choice_read') },
  { value: 'write', label: ctx.t('tokens.choice_write') },
];

/** The token just created, in the clear: this answer is the only place it ever appears. */
function NewToken({ ctx, token, name }: { ctx: ViewContext; token: string; name: string }) {
  return (
    <section class="new-token" aria-labelledby="new-token-title" data-page-url="/accounts/tokens/">
      <h2 id="new-token-title">{ctx.t('tokens.new_title', { name })}</h2>
      <p>
        <code class="token-value">{token}</code>
      </p>
      <p>
        <strong>{ctx.t('tokens.copy_now')}</strong> {ctx.t('tokens.send_as')} <code>Authorization: Bearer {TOKEN_PREFIX}…</code>{' '}
        {ctx.t('tokens.to')} <a href="/api/v1/docs/">{ctx.t('tokens.the_api')}</a>{ctx.t('tokens.lost')}
      </p>
    </section>
  );
}

function TokenTable({ ctx, tokens }: { ctx: ViewContext; tokens: TokenRow[] }) {
  if (tokens.length === 0) return <p class="empty">{ctx.t('tokens.none')}</p>;
  return (
    <div class="table-scroll">
      <table class="stack-on-phone">
        <thead>
          <tr>
            <th scope="col">{ctx.t('tokens.name')}</th>
            <th scope="col">{ctx.t('tokens.token')}</th>
            <th scope="col">{ctx.t('tokens.scope')}</th>
            <th scope="col">{ctx.t('tokens.created')}</th>
            <th scope="col">{ctx.t('tokens.last_used')}</th>
            <th scope="col"><span class="visually-hidden">{ctx.t('tokens.revoke')}</span></th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr>
              <th scope="row">{token.name}</th>
              <td data-label={ctx.t('tokens.token')}><code>{TOKEN_PREFIX}{token.hint}…</code></td>
              <td data-label={ctx.t('tokens.scope')}>{token.scope === 'write' ? ctx.t('tokens.scope_write') : ctx.t('tokens.scope_read')}</td>
              <td data-label={ctx.t('tokens.created')}><Time ms={token.created_at} timeZone={ctx.user?.timezone} /></td>
              <td data-label={ctx.t('tokens.last_used')}>{token.last_used_at === null ? ctx.t('tokens.never') : <Time ms={token.last_used_at} timeZone={ctx.user?.timezone} />}</td>
              <td class="admin-actions">
                <a href={`/accounts/tokens/${token.id}/delete/`} role="button" class="secondary outline" data-confirm aria-label={ctx.t('tokens.revoke_named', { name: token.name })}>
                  {ctx.t('tokens.revoke')}
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TokensPage({ ctx, tokens, created, values = {}, errors = {}, withCode }: {
  ctx: ViewContext;
  /** Two-factor sign-in is on: a new token takes a code besides the password. */
  withCode: boolean;
  tokens: TokenRow[];
  created?: { token: string; name: string };
  values?: FormValues;
  errors?: FormErrors;
}) {
  return (
    <Layout ctx={ctx} title={ctx.t('tokens.title')}>
      <h1>{ctx.t('tokens.title')}</h1>
      <p>
        {ctx.t('tokens.lead_before')} <a href="/api/v1/docs/">{ctx.t('tokens.lead_api')}</a> {ctx.t('tokens.lead_after')}
      </p>
      {created ? <NewToken ctx={ctx} {...created} /> : null}
      <TokenTable ctx={ctx} tokens={tokens} />
      <section aria-labelledby="new-token-form">
        <h2 id="new-token-form">{ctx.t('tokens.new_form')}</h2>
        <form method="post" action="/accounts/tokens/new/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <div class="grid">
            <Field name="name" label={ctx.t('tokens.name')} value={values.name} errors={errors} required maxLength={100} help={ctx.t('tokens.name_help')} />
            <Select name="scope" label={ctx.t('tokens.scope')} value={values.scope ?? 'read'} errors={errors} choices={scopeChoices(ctx)}
              help={ctx.t('tokens.scope_help')} />
          </div>
          <ReauthFields ctx={ctx} errors={errors} withCode={withCode} help={ctx.t('reauth.password_for_tokens')} required />
          <button type="submit">{ctx.t('tokens.submit')}</button>
        </form>
      </section>
    </Layout>
  );
}

/** Asks before a token is revoked: scripts that use it stop at once, and nothing brings it back. */
export function RevokeTokenPage({ ctx, token }: { ctx: ViewContext; token: TokenRow }) {
  return (
    <ConfirmPage
      ctx={ctx}
      title={ctx.t('tokens.revoke_title')}
      heading={ctx.t('tokens.revoke_heading', { name: token.name })}
      action={`/accounts/tokens/${token.id}/delete/`}
      button={ctx.t('tokens.revoke')}
      cancel="/accounts/tokens/"
    >
      <p>
        <code>{TOKEN_PREFIX}{token.hint}…</code> · {token.scope === 'write' ? ctx.t('tokens.scope_write') : ctx.t('tokens.scope_read')}
      </p>
      <p>{ctx.t('tokens.revoke_consequence')}</p>
    </ConfirmPage>
  );
}
