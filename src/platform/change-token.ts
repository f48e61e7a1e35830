import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    changeTokenRead: string | null;
    /**
     * The database's change token (DatabaseHandle.changeToken) as it was when this request first
     * asked, or null where reads are never kept (PostgreSQL, or PAGE_CACHE_MB=0). The session
     * layer asks first, before any query of the request: what this request reads afterwards is at
     * least as new as the token, so it may be kept under it (the session, the page).
     */
    changeToken(): string | null;
  }
}

/** One read of the change token per request, shared by the session and the page cache. */
export const changeTokenDecorator = fp<{ read: (() => string) | null }>(async (app, { read }) => {
  app.decorateRequest('changeTokenRead', null);
  app.decorateRequest('changeToken', function (this: FastifyRequest) {
    if (read === null) return null;
    return (this.changeTokenRead ??= read());
  });
}, { name: 'change-token' });
