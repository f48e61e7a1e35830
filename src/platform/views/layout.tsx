import { say } from '../i18n/index.js';
import type { ComponentChildren } from 'preact';
import { assetUrl } from './assets.js';
import { COUNT_CAP, countBadge, countLabelForms, type NavigationEntry } from '../navigation.js';
import { localeOf } from '../time-zones.js';
import { CsrfField } from './forms.js';
import type { ViewContext } from './context.js';

/** The mark beside the name: a folded note. Decorative, so hidden from screen readers. */
function BrandMark() {
  return (
    <svg class="brand-mark" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <path class="brand-mark-sheet" d="M5 3h13l5 5v17H5z" />
      <path class="brand-mark-fold" d="M18 3v5h5" />
      <path class="brand-mark-lines" d="M9 13h10M9 17h10M9 21h6" />
    </svg>
  );
}

/** How many, for the accessible name: "3 unread chat messages", "more than 99 …" past COUNT_CAP. */
function countWords(ctx: ViewContext, entry: NavigationEntry): string {
  const words = ctx.t(entry.link.count!.counted, { count: Math.min(entry.count, COUNT_CAP - 1) });
  return entry.count >= COUNT_CAP ? ctx.t('count.more_than', { what: words }) : words;
}

/** Worked out once per language and link (a hundred messages formatted), kept by the page's translator. */
const labelForms = new WeakMap<ViewContext['t'], Map<NavigationEntry['link'], Record<string, string>>>();

/**
 * A counted link's words for each plural form (countLabelForms), for the live count
 * (public/js/notifications.js is told new counts over the bell's socket and writes them so).
 */
function liveCountLabels(ctx: ViewContext, link: NavigationEntry['link']): Record<string, string> {
  let byLink = labelForms.get(ctx.t);
  if (!byLink) labelForms.set(ctx.t, (byLink = new Map()));
  let forms = byLink.get(link);
  if (!forms) {
    forms = countLabelForms((count) => countWords(ctx, { link, count }), new Intl.PluralRules(localeOf(ctx.language)));
    byLink.set(link, forms);
  }
  return forms;
}

/** A link of the navigation: drawn by its feature (the bell), or plain, with its count beside it if it has one. */
function NavigationLinkItem({ ctx, entry }: { ctx: ViewContext; entry: NavigationEntry }) {
  const { link, count } = entry;
  if (link.render) return link.render(ctx, count);
  if (!link.count) return <a href={link.href} aria-current={current(ctx, link.href)}>{ctx.t(link.label)}</a>;
  return (
    <a href={link.href} class="nav-count-link" aria-current={link.current?.test(ctx.path) ? 'page' : undefined} data-count-href={link.href} {...liveCountLabels(ctx, link)}>
      {ctx.t(link.label)}
      {count > 0 ? (
        <>
          <span class="nav-count" aria-hidden="true">{countBadge(count)}</span>
          <span class="visually-hidden">, {countWords(ctx, entry)}</span>
        </>
      ) : null}
    </a>
  );
}

/** A section is current on the pages under it, unless a counted link claims the page (the chat's). */
function current(ctx: ViewContext, href: string): 'page' | undefined {
  if (ctx.navigation.some((entry) => entry.link.current?.test(ctx.path))) return undefined;
  return ctx.path.startsWith(href) ? 'page' : undefined;
}

/**
 * Brand and account on the first row, sections below them on phones and beside them on wide
 * screens: the rows wrap with CSS alone, so the menu needs no script and never scrolls sideways.
 */
export function Navigation({ ctx }: { ctx: ViewContext }) {
  const user = ctx.user;
  return (
    <nav class="site-nav" aria-label={ctx.t('nav.main')}>
      <a href={user ? '/notes/' : '/accounts/login/'} class="brand">
        <BrandMark />
        <span>groupnotes</span>
      </a>
      {user ? (
        <ul class="sections">
          {ctx.navigation.filter((entry) => entry.link.place !== 'account').map((entry) => (
            <li>
              <NavigationLinkItem ctx={ctx} entry={entry} />
            </li>
          ))}
        </ul>
      ) : null}
      <ul class="account">
        {user ? (
          <>
            {ctx.navigation.filter((entry) => entry.link.place === 'account').map((entry) => (
              <li>
                <NavigationLinkItem ctx={ctx} entry={entry} />
              </li>
            ))}
            <li>
              <a href="/accounts/" class="username" aria-current={current(ctx, '/accounts/')}>
                <span class="visually-hidden">{ctx.t('nav.account_of')}</span>
                {user.username}
              </a>
            </li>
            <li>
              <form method="post" action="/accounts/logout/" class="inline">
                <CsrfField ctx={ctx} />
                <button type="submit" class="secondary outline small">{ctx.t('nav.log_out')}</button>
              </form>
            </li>
          </>
        ) : (
          <>
            <li><a href="/accounts/login/" aria-current={current(ctx, '/accounts/login/')}>{ctx.t('nav.log_in')}</a></li>
            <li><a href="/register/" aria-current={current(ctx, '/register/')}>{ctx.t('nav.register')}</a></li>
          </>
        )}
      </ul>
    </nav>
  );
}

function Messages({ ctx }: { ctx: ViewContext }) {
  const messages = ctx.takeMessages();
  if (messages.length === 0) return null;
  return (
    <section class="messages" aria-label={ctx.t('layout.messages')}>
      {messages.map((message) => (
        <p class={`message message-${message.level}`} role={message.level === 'error' ? 'alert' : 'status'}>
          {say(message.text)}
        </p>
      ))}
    </section>
  );
}

export function Layout({ ctx, title, children }: { ctx: ViewContext; title: string; children: ComponentChildren }) {
  return (
    <html lang={ctx.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{ctx.t('layout.title', { title })}</title>
        <link rel="icon" href={assetUrl('favicon.svg')} type="image/svg+xml" />
        <link rel="stylesheet" href={assetUrl('vendor/pico.min.css')} />
        <link rel="stylesheet" href={assetUrl('app.css')} />
        <script src={assetUrl('js/app.js')} defer />
        {ctx.navigation.map(({ link }) => (link.script ? <script src={assetUrl(link.script)} defer /> : null))}
        {ctx.user ? <script src={assetUrl('js/confirm.js')} defer /> : null}
      </head>
      {/* The reader's zone, for times the scripts write (chat.js): as the server writes the page's. */}
      <body data-locale={localeOf(ctx.language)} data-time-zone={ctx.user?.timezone}>
        <a class="skip-link" href="#main">{ctx.t('layout.skip')}</a>
        <header class="site-header">
          <div class="container">
            <Navigation ctx={ctx} />
          </div>
        </header>
        <main id="main" class="container" tabindex={-1}>
          <Messages ctx={ctx} />
          {children}
        </main>
        <footer class="site-footer">
          <div class="container">
            <small>{ctx.t('layout.footer')}</small>
          </div>
        </footer>
      </body>
    </html>
  );
}
