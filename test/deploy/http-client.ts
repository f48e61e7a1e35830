import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { SITE_HOST } from './processes.js';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A browser behind a TLS terminator, as nginx sees it: plain HTTP to nginx with
 * `X-Forwarded-Proto: https` (there is no TLS here), Host notes.example.com, cookies kept
 * (including Secure ones, which a browser would only send over HTTPS) and kept-alive connections.
 */
export class ProxyClient {
  readonly cookies = new Map<string, string>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 8 });

  constructor(
    private port: number,
    private readonly proto: 'https' | 'http' = 'https',
  ) {}

  /** The same browser (cookies and all), talking to another nginx from now on. */
  via(port: number): ProxyClient {
    const other = new ProxyClient(port, this.proto);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send('GET', path, undefined, headers);
  }

  /** A form POST with the CSRF token from the cookie and our own Origin, as a browser form sends it. */
  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    const body = new URLSearchParams({ csrfmiddlewaretoken: this.cookies.get('csrftoken') ?? '', ...form }).toString();
    return this.send('POST', path, body, { 'content-type': 'application/x-www-form-urlencoded', origin: `https://${SITE_HOST}`, ...headers });
  }

  async login(username: string, password: string): Promise<Reply> {
    const page = await this.get('/accounts/login/');
    if (page.status !== 200) throw new Error(`login page answered ${page.status}`);
    return this.post('/accounts/login/', { username, password });
  }

  send(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          timeout: 15_000,
          headers: {
            host: SITE_HOST,
            'x-forwarded-proto': this.proto,
            ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
            ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            this.remember(res.headers['set-cookie'] ?? []);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in time`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  private remember(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

export function setCookieLine(reply: Reply, name: string): string {
  const line = (reply.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith(`${name}=`));
  if (!line) throw new Error(`no Set-Cookie for ${name}: ${JSON.stringify(reply.headers['set-cookie'])}`);
  return line;
}
