import { z } from 'zod';
import type { ApiOperation } from '../../platform/api/routes.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';

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

function Operation({ operation }: { operation: ApiOperation }) {
  const status = operation.status ?? 200;
  return (
    <article class="api-operation" id={`${operation.method}-${operation.path}`}>
      <h3>
        <span class={`api-method api-${operation.method.toLowerCase()}`}>{operation.method}</span> <code>{operation.path}</code>
      </h3>
      <p>{operation.summary}</p>
      {operation.aliases?.length ? <p class="muted">Also answers at {operation.aliases.map((alias) => <code key={alias}>{alias} </code>)}(deprecated).</p> : null}
      <p class="muted">
        Answers {status}
        {operation.errors?.length ? `; or ${operation.errors.join(', ')}` : ''}, 400, 401, 429.
      </p>
      <SchemaBlock label="Path parameters" schema={operation.params} io="input" />
      <SchemaBlock label="Query parameters" schema={operation.query} io="input" />
      <SchemaBlock label="Request body" schema={operation.body} io="input" />
      <SchemaBlock label="Response" schema={operation.response} io="output" />
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
    <Layout ctx={ctx} title="API reference">
      <h1>API reference</h1>
      <p>
        Every page of groupnotes has a JSON twin under <code>/api/v1/</code>, with the same permissions. Send a personal access token from{' '}
        <a href="/accounts/tokens/">your tokens</a> as <code>Authorization: Bearer gnp_…</code>. Lists answer{' '}
        <code>{'{"results": [...], "next": "<url or null>"}'}</code>; errors <code>{'{"error": {"code", "message", "fields"}}'}</code>. Objects carry an
        ETag: send it back in <code>If-None-Match</code> (304) or, on a change, <code>If-Match</code> (412 if someone changed it first). The
        machine-readable description is <a href="/api/v1/openapi.json">openapi.json</a> (OpenAPI 3.1).
      </p>
      <nav aria-label="Resources">
        <ul class="api-tags">
          {tags.map((tag) => (
            <li key={tag}>
              <a href={`#${tag}`}>{tag}</a>
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag} id={tag}>
          <h2>{tag}</h2>
          {sorted(tag).map((operation) => (
            <Operation key={`${operation.method} ${operation.path}`} operation={operation} />
          ))}
        </section>
      ))}
    </Layout>
  );
}
