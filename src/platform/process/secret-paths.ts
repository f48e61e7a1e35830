import type { RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Params of the route's path that are secrets (a reset link's token): logs show `[redacted]` in their place. */
    secretParams?: string[];
  }
}

export const REDACTED = '[redacted]';

/** One path segment as it may appear in a log line: it ends at a slash, a query, a quote or a space. */
const SEGMENT = '[^/?#\\s"\\\\]+';

interface SecretPath {
  /** The path up to its first param: a line without it is left alone at the cost of one search. */
  prefix: string;
  pattern: RegExp;
  /** The path's segments: literal text, or a param and whether it is a secret. */
  segments: (string | { secret: boolean })[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The paths that carry a secret, and the one place it is taken out of the log. Every line the
 * logger writes passes through `redact` (pino's streamWrite hook), so the request line, an error's
 * message or stack, or a line a library writes with the URL all show `[redacted]` instead. A path
 * is matched with or without its trailing slash and whether or not the request reached the route
 * (a redirect, a 404 or a 405 on it is logged the same way).
 */
export class SecretPaths {
  private readonly paths = new Map<string, SecretPath>();

  /** Fastify's onRoute hook: takes in each route whose config names secret params. */
  readonly collect = (route: RouteOptions): void => {
    const secretParams = route.config?.secretParams;
    if (secretParams?.length) this.add(route.url, secretParams);
  };

  /** `/accounts/reset/:uidb64/:token/` with `['token']`; a name that is not a param of the path is a mistake, refused at start. */
  add(path: string, secretParams: string[]): void {
    const raw = path.replace(/\/$/, '').split('/');
    const params = raw.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1));
    const unknown = secretParams.filter((name) => !params.includes(name));
    if (unknown.length > 0) throw new Error(`secretParams of ${path} names no param of its path: ${unknown.join(', ')}`);
    const firstParam = raw.findIndex((segment) => segment.startsWith(':'));
    this.paths.set(path, {
      prefix: raw.slice(0, firstParam).join('/') + '/',
      pattern: new RegExp(raw.map((segment) => (segment.startsWith(':') ? `(${SEGMENT})` : escape(segment))).join('/'), 'g'),
      segments: raw.map((segment) => (segment.startsWith(':') ? { secret: secretParams.includes(segment.slice(1)) } : segment)),
    });
  }

  /** The line with every secret segment of a known path replaced by `[redacted]`. */
  redact(line: string): string {
    for (const path of this.paths.values()) {
      if (!line.includes(path.prefix)) continue;
      line = line.replace(path.pattern, (...match: string[]) => {
        const values = match.slice(1);
        let param = 0;
        return path.segments
          .map((segment) => {
            if (typeof segment === 'string') return segment;
            const value = values[param++]!;
            return segment.secret ? REDACTED : value;
          })
          .join('/');
      });
    }
    return line;
  }
}
