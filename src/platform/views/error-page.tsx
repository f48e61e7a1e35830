import { STATUS_TITLES } from '../../errors.js';
import { Layout } from './layout.js';
import type { ViewContext } from './context.js';

export function ErrorPage({ ctx, status, message, detail }: { ctx: ViewContext; status: number; message: string; detail?: string | undefined }) {
  const title = ctx.t(STATUS_TITLES[status] ?? 'error.title');
  return (
    <Layout ctx={ctx} title={title}>
      <article class="error-page">
        <header>
          <h1>
            <span class="status-code">{status}</span> {title}
          </h1>
        </header>
        <p>{message}</p>
        {detail ? <pre class="error-detail">{detail}</pre> : null}
        <footer>
          <a href="/" role="button" class="secondary">{ctx.t('error.go_home')}</a>
        </footer>
      </article>
    </Layout>
  );
}
