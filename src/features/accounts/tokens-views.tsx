import { TOKEN_PREFIX } from '../../platform/api/tokens.js';
import { Time } from '../../platform/views/controls.js';
import { CsrfField, Field, FormAlert, type FormErrors, type FormValues, Select } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';
import type { TokenRow } from './tokens-repository.js';

const SCOPE_CHOICES = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and write' },
];

/** The token just created, in the clear: this answer is the only place it ever appears. */
function NewToken({ token, name }: { token: string; name: string }) {
  return (
    <section class="new-token" aria-labelledby="new-token-title">
      <h2 id="new-token-title">Your new token “{name}”</h2>
      <p>
        <code class="token-value">{token}</code>
      </p>
      <p>
        <strong>Copy it now and keep it somewhere safe: it is shown only this once.</strong> Send it as{' '}
        <code>Authorization: Bearer {TOKEN_PREFIX}…</code> to <a href="/api/v1/docs/">the API</a>. Lost, it cannot be shown again: revoke it and
        make another.
      </p>
    </section>
  );
}

function TokenTable({ ctx, tokens }: { ctx: ViewContext; tokens: TokenRow[] }) {
  if (tokens.length === 0) return <p class="empty">You have no tokens yet.</p>;
  return (
    <div class="table-scroll">
      <table class="stack-on-phone">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Token</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col"><span class="visually-hidden">Revoke</span></th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr>
              <th scope="row">{token.name}</th>
              <td data-label="Token"><code>{TOKEN_PREFIX}{token.hint}…</code></td>
              <td data-label="Scope">{token.scope === 'write' ? 'read and write' : 'read only'}</td>
              <td data-label="Created"><Time ms={token.created_at} /></td>
              <td data-label="Last used">{token.last_used_at === null ? 'never' : <Time ms={token.last_used_at} />}</td>
              <td class="admin-actions">
                <form method="post" action={`/accounts/tokens/${token.id}/delete/`} class="inline">
                  <CsrfField ctx={ctx} />
                  <button type="submit" class="secondary outline" aria-label={`Revoke ${token.name}`}>Revoke</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function TokensPage({ ctx, tokens, created, values = {}, errors = {} }: {
  ctx: ViewContext;
  tokens: TokenRow[];
  created?: { token: string; name: string };
  values?: FormValues;
  errors?: FormErrors;
}) {
  return (
    <Layout ctx={ctx} title="Access tokens">
      <h1>Access tokens</h1>
      <p>
        A personal access token lets a script use <a href="/api/v1/docs/">the JSON API</a> as you, without your password. Revoke one and it stops
        working at once.
      </p>
      {created ? <NewToken {...created} /> : null}
      <TokenTable ctx={ctx} tokens={tokens} />
      <section aria-labelledby="new-token-form">
        <h2 id="new-token-form">New token</h2>
        <form method="post" action="/accounts/tokens/new/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <div class="grid">
            <Field name="name" label="Name" value={values.name} errors={errors} required maxLength={100} help="What it is for, such as “backup script”." />
            <Select name="scope" label="Scope" value={values.scope ?? 'read'} errors={errors} choices={SCOPE_CHOICES}
              help="A read-only token may look at everything you can, and change nothing." />
          </div>
          <button type="submit">Create token</button>
        </form>
      </section>
    </Layout>
  );
}
