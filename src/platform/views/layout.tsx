import type { ComponentChildren } from 'preact';
import { assetUrl } from './assets.js';
import { CsrfField } from './forms.js';
import type { ViewContext } from './render.js';

const SECTIONS = [
  { href: '/notes/', label: 'Notes' },
  { href: '/notebooks/', label: 'Notebooks' },
  { href: '/tags/', label: 'Tags' },
  { href: '/todo/', label: 'To-do' },
  { href: '/shopping/', label: 'Shopping' },
  { href: '/groups/', label: 'Groups' },
];

function Navigation({ ctx }: { ctx: ViewContext }) {
  const user = ctx.user;
  return (
    <nav class="site-nav" aria-label="Main">
      <ul>
        <li>
          <a href={user ? '/notes/' : '/accounts/login/'} class="brand">
            groupnotes
          </a>
        </li>
      </ul>
      {user ? (
        <ul class="sections">
          {SECTIONS.map((section) => (
            <li>
              <a href={section.href} aria-current={ctx.path.startsWith(section.href) ? 'page' : undefined}>
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <ul class="account">
        {user ? (
          <>
            <li>
              <a href="/accounts/password_change/" class="username" aria-current={ctx.path.startsWith('/accounts/') ? 'page' : undefined}>
                {user.username}
              </a>
            </li>
            <li>
              <form method="post" action="/accounts/logout/" class="inline">
                <CsrfField ctx={ctx} />
                <button type="submit" class="secondary outline small">Log out</button>
              </form>
            </li>
          </>
        ) : (
          <>
            <li><a href="/accounts/login/">Log in</a></li>
            <li><a href="/register/">Register</a></li>
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
    <section class="messages" aria-label="Messages">
      {messages.map((message) => (
        <p class={`message message-${message.level}`} role={message.level === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      ))}
    </section>
  );
}

export function Layout({ ctx, title, children }: { ctx: ViewContext; title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${title} · groupnotes`}</title>
        <link rel="stylesheet" href={assetUrl('vendor/pico.min.css')} />
        <link rel="stylesheet" href={assetUrl('app.css')} />
        <script src={assetUrl('js/app.js')} defer />
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="container">
          <Navigation ctx={ctx} />
        </header>
        <main id="main" class="container">
          <Messages ctx={ctx} />
          {children}
        </main>
        <footer class="container site-footer">
          <small>groupnotes · your notes, your groups</small>
        </footer>
      </body>
    </html>
  );
}
