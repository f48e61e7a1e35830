import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { VNode } from 'preact';
import type { AuthUser } from '../authentication.js';
import type { FlashMessage } from '../messages.js';
import { renderToHtml } from './html.js';

/** What every page needs to know about the request it answers. */
export interface ViewContext {
  user: AuthUser | null;
  /** The path, for marking the current section in the navigation. */
  path: string;
  csrfToken(): string;
  takeMessages(): FlashMessage[];
}

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a page: JSX rendered to HTML, every interpolated value escaped. */
    render(page: VNode, status?: number): FastifyReply;
  }
}

export function viewContext(request: FastifyRequest): ViewContext {
  // One masked token per page, like Django's {% csrf_token %}: a page with a hundred
  // forms (a list with a toggle per item) must not mask the secret a hundred times.
  let token: string | undefined;
  return {
    user: request.user,
    path: request.url.split('?')[0] ?? '/',
    csrfToken: () => (token ??= request.csrfToken()),
    takeMessages: () => request.takeMessages(),
  };
}

export function renderPage(page: VNode): string {
  return `<!doctype html>${renderToHtml(page)}`;
}

export const renderDecorator = fp(async (app) => {
  app.decorateReply('render', function (page: VNode, status = 200) {
    // As bytes: Fastify would otherwise measure the string's UTF-8 length, then encode it again.
    return this.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(Buffer.from(renderPage(page)));
  });
}, { name: 'render' });
