import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { VNode } from 'preact';
import { renderingIn, requestTranslator, type Translator } from '../i18n/index.js';
import { type ViewContext, viewContext } from './context.js';
import { renderToHtml } from './html.js';
import { Navigation } from './layout.js';
import { type LivePart, PageCache, type PageCopy } from './page-cache.js';
import { fillViewerSlots, slotsFor } from './for-viewer.js';
import { pathOf } from '../url.js';

/** What a page of one object is kept under, as its own query or the object's token read it. */
export interface ObjectToken {
  token: string;
  /**
   * The caller gets the page every such caller gets (a note's readers, not its owner): it is kept
   * once for all of them, with only the navigation and their marks (ForViewer) their own.
   */
  shared: boolean;
}

export interface CachedPageOptions {
  /**
   * For a page that shows one object: reads the object's own token (and so checks the caller may
   * see it) in place of the caller's view token, so that the page outlives changes to everything
   * else. Called before `build`, and only while pages are kept; undefined means the object is not
   * there for the caller, and the page is then built (to answer the same way as uncached).
   */
  token?: () => Promise<ObjectToken | undefined>;
}

/**
 * Builds a page for renderCached. A page kept under an object's token (CachedPageOptions.token)
 * is kept only if `keepUnder` is given the token, read in the same statement as the page's data:
 * read before or after, a change between the two would keep old data under a newer token.
 */
export type CachedPageBuild = (ctx: ViewContext, keepUnder: (read: ObjectToken) => void) => Promise<VNode>;

const ignoreToken = () => undefined;

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a page: JSX rendered to HTML, every interpolated value escaped. */
    render(page: VNode, status?: number): FastifyReply;
    /**
     * Sends the page `build` makes, or the same page kept from an earlier request while nothing
     * it shows has changed since: the caller's view token (LoadedSession.viewToken) is what it
     * was. Only for GET pages that read nothing but what moves the view token (the notes pages:
     * see db/migrations/0007_view_versions.ts). `key` names everything else the page depends on:
     * the parsed query, for instance.
     */
    renderCached(key: string, build: CachedPageBuild, options?: CachedPageOptions): Promise<FastifyReply>;
  }
}


/** A page as HTML, its messages (a field's errors) in `t`'s language. */
export function renderPage(page: VNode, t: Translator): string {
  return `<!doctype html>${renderingIn(t, () => renderToHtml(page))}`;
}

function sendPage(reply: FastifyReply, bytes: Buffer, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(bytes);
}

/** Sends a kept page's copy and hands it back once written out, to be sent again. */
function sendCopy(reply: FastifyReply, copy: PageCopy): FastifyReply {
  reply.raw.once('finish', copy.done);
  return sendPage(reply, copy.bytes);
}

export const renderDecorator = fp<{ budgetBytes: number }>(async (app, { budgetBytes }) => {
  const cache = budgetBytes > 0 ? new PageCache(budgetBytes) : null;
  app.decorateReply('render', function (page: VNode, status = 200) {
    // As bytes: Fastify would otherwise measure the string's UTF-8 length, then encode it again.
    return sendPage(this, Buffer.from(renderPage(page, requestTranslator(this.request))), status);
  });
  app.decorateReply('renderCached', async function (this: FastifyReply, key: string, build: CachedPageBuild, options: CachedPageOptions = {}) {
    const request = this.request;
    const messages = request.takeMessages();
    const user = request.user;
    // Pages for nobody in particular (the login form) show nothing from the database.
    let token = user ? request.session?.viewToken : '';
    const translator = requestTranslator(request);
    const context = viewContext(request, translator);
    if (!cache || token === undefined || messages.length > 0) {
      return sendPage(this, Buffer.from(renderPage(await build({ ...context, takeMessages: () => messages }, ignoreToken), translator)));
    }
    // Times are written in the reader's zone: readers of a shared page in two zones get two copies.
    const page = `${context.language}\0${user?.timezone ?? ''}\0${pathOf(request.url)}\0${key}`;
    const ownKey = `${user?.id ?? ''}\0${user?.username ?? ''}\0${page}`;
    // A page kept for every caller who gets it: the caller is named by the navigation and marks alone.
    const sharedKey = `\0shared\0${page}`;
    const csrfToken = () => request.csrfToken();
    const keptContext: ViewContext = { ...context, csrfToken: () => cache.placeholder, takeMessages: () => [] };
    const navigation = () => renderingIn(translator, () => renderToHtml(Navigation({ ctx: keptContext })));
    // Every page's navigation shows counts (the bell's, the chat's) which no view token follows (a chat message
    // moves nineteen members' counts): the navigation is put into kept pages as it is now. A
    // shared page's is the caller's own, all of it (their name too): it is rendered every time.
    const live = (shared: boolean): LivePart | undefined => {
      if (!user) return undefined;
      if (!shared) return { variant: context.navigation.map((entry) => entry.count).join(','), render: navigation };
      const part = navigation();
      return { variant: part, render: () => part };
    };
    let shared = false;
    // An object's token is read only to check a kept page: a page built now is kept under the
    // token its own query read (keepUnder), one round trip instead of two. The token's query also
    // checks that the caller may see the object, and tells whether they get the shared page.
    if (options.token) {
      const read = cache.has(ownKey) || cache.has(sharedKey) ? await options.token() : undefined;
      token = read?.token;
      shared = read?.shared ?? false;
    }
    if (token !== undefined) {
      const kept = cache.get(shared ? sharedKey : ownKey, token, csrfToken, live(shared), user?.id);
      if (kept) return sendCopy(this, kept);
    }
    let readWith = options.token ? undefined : { token: token!, shared: false };
    const built = await build(keptContext, (read) => (readWith = read));
    const html = slotsFor(cache.viewerMarker, () => renderPage(built, translator));
    if (readWith === undefined) return sendPage(this, Buffer.from(fillViewerSlots(html.replaceAll(cache.placeholder, request.csrfToken()), cache.viewerMarker, user?.id)));
    const kept: ObjectToken = readWith;
    return sendCopy(this, cache.put(kept.shared ? sharedKey : ownKey, kept.token, html, csrfToken, live(kept.shared), user?.id));
  });
}, { name: 'render' });
