import { CsrfField } from './forms.js';
import { Layout } from './layout.js';
import type { ViewContext } from './render.js';

// Pieces shared by several features: the delete confirmation and dates.

/** GET on a /delete/ path: says what will go and asks for the POST. */
export function DeleteConfirmPage({ ctx, kind, name, action, cancel, consequence }: {
  ctx: ViewContext;
  kind: string;
  name: string;
  action: string;
  cancel: string;
  consequence: string;
}) {
  return (
    <Layout ctx={ctx} title={`Delete ${kind}`}>
      <article class="narrow">
        <h1>Delete this {kind}?</h1>
        <p>
          <strong>{name}</strong>
        </p>
        <p>{consequence}</p>
        <form method="post" action={action}>
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="danger">Delete</button>
            <a href={cancel} role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}

export function Time({ ms }: { ms: number }) {
  const iso = new Date(ms).toISOString();
  return <time datetime={iso}>{iso.replace('T', ' ').slice(0, 16)} UTC</time>;
}
