import { z } from 'zod';
import type { ApiOperation } from '../../platform/api/routes.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/context.js';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A schema as compact JSON Schema text, for reading. */
function SchemaBlock({ label, schema, io }: { label: string; schema: z.ZodType | undefined; io: 'input' | 'output' }) {
  if (!schema) return null;
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return (
    <details>
      <summary>{label}</summary>
      <pre class="api-schema">
        <code>{JSON.stringify(json, null, 2)}</code>
      </pre>
    </details>
  );
}

function Operation({ ctx, operation }: { ctx: ViewContext; operation: ApiOperation }) {
  const status = operation.status ?? 200;
  return (
    <article class="api-operation" id={`${operation.method}-${operation.path}`}>
      <h3>
        <code class={`api-method api-${operation.method.toLowerCase()}`}>{operation.method}</code> <code>{operation.path}</code>
      </h3>
      <p lang="en">{operation.summary}</p>
      {operation.aliases?.length ? <p class="muted">{ctx.t('api_docs.aliases', { aliases: operation.aliases.join(', ') })}</p> : null}
      <p class="muted">{ctx.t('api_docs.answers', { statuses: [status, ...(operation.errors ?? []), 400, 401, 429].join(', ') })}</p>
      <SchemaBlock label={ctx.t('api_docs.path_parameters')} schema={operation.params} io="input" />
      <SchemaBlock label={ctx.t('api_docs.query_parameters')} schema={operation.query} io="input" />
      <SchemaBlock label={ctx.t('api_docs.request_body')} schema={operation.body} io="input" />
      <SchemaBlock label={ctx.t('api_docs.response')} schema={operation.response} io="output" />
    </article>
  );
}

/** The reference, grouped by resource, from the same operations as /api/v1/openapi.json. */
export function ApiReferencePage({ ctx, operations }: { ctx: ViewContext; operations: readonly ApiOperation[] }) {
  const tags = [...new Set(operations.map((operation) => operation.tag))].sort();
  const sorted = (tag: string) =>
    operations
      .filter((operation) => operation.tag === tag)
      .sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  return (
    <Layout ctx={ctx} title={ctx.t('api_docs.title')}>
      <h1>{ctx.t('api_docs.title')}</h1>
      <p>
        {ctx.t('api_docs.intro', { prefix: '/api/v1/', header: 'Authorization: Bearer gnp_…' })} <a href="/accounts/tokens/">{ctx.t('api_docs.your_tokens')}</a>.
      </p>
      <p>{ctx.t('api_docs.shapes', { list: '{"results": [...], "next": "<url or null>"}', error: '{"error": {"code", "message", "fields"}}' })}</p>
      <p>{ctx.t('api_docs.etags', { ifNoneMatch: 'If-None-Match', ifMatch: 'If-Match' })}</p>
      <p>
        {ctx.t('api_docs.machine_readable')} <a href="/api/v1/openapi.json"><code>openapi.json</code></a>
      </p>
      <p class="muted">{ctx.t('api_docs.summaries_english')}</p>
      <nav aria-label={ctx.t('api_docs.resources')}>
        <ul class="api-tags">
          {tags.map((tag) => (
            <li key={tag}>
              <a href={`#${tag}`}><code>{tag}</code></a>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} id={tag}>
          <h2><code>{tag}</code></h2>
          {sorted(tag).map((operation) => (
            <Operation key={`${operation.method} ${operation.path}`} ctx={ctx} operation={operation} />
          ))}
        </section>
      ))}
    </Layout>
  );
}
