import type { ComponentChildren } from 'preact';
import { CsrfField } from './forms.js';
import { Layout } from './layout.js';
import type { ViewContext } from './context.js';

/**
 * A GET confirmation page for a change that cannot be undone, like DeleteConfirmPage (controls.tsx)
 * but for any action: a heading saying what will happen and the one POST form in <main> (the
 * shape public/js/confirm.js opens in a dialog), with the fields the POST needs.
 */
export function ConfirmPage({ ctx, title, heading, action, button, cancel, fields = {}, children }: {
  ctx: ViewContext;
  title: string;
  heading: string;
  action: string;
  button: string;
  cancel: string;
  /** Hidden fields of the POST: `{ action: 'remove', user_pk: '12' }`. */
  fields?: Record<string, string>;
  children?: ComponentChildren;
}) {
  return (
    <Layout ctx={ctx} title={title}>
      <article class="narrow">
        <h1>{heading}</h1>
        {children}
        <form method="post" action={action}>
          <CsrfField ctx={ctx} />
          {Object.entries(fields).map(([name, value]) => <input type="hidden" name={name} value={value} />)}
          <div class="actions">
            <button type="submit" class="danger">{button}</button>
            <a href={cancel} role="button" class="secondary outline">{ctx.t('confirm.cancel')}</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
