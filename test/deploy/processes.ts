import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';

export const REPO = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const SITE_HOST = 'notes.example.com';
export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (logs are written after the answer, or when a connection ends). */
export async function eventually(what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** GET over a fresh connection; resolves with the status, or null when nothing answers. */
export function probe(port: number, path: string, host = SITE_HOST): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

async function waitFor(what: string, ready: () => Promise<boolean>, exited: () => string | null, output: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new Error(`${what} exited before it was ready: ${gone}`);
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms:\n${output().slice(-2000)}`);
}

/** Every process started here, so that a failing run still stops them all. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

abstract class Managed {
  protected child: ChildProcess | null = null;
  /** Everything the process wrote, all runs together. */
  output = '';
  protected exitNote: string | null = null;

  protected launch(command: string, args: string[], env: NodeJS.ProcessEnv): void {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exitNote = null;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.on('error', (error) => {
      running.delete(child);
      this.exitNote = `could not start ${command}: ${error.message}`;
    });
    child.on('exit', (code, signal) => {
      running.delete(child);
      this.exitNote = `code ${code}, signal ${signal}\n${this.output.slice(-2000)}`;
    });
    running.add(child);
    this.child = child;
  }

  /** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. Resolves with the exit code. */
  async stop(graceMs = 15_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

/** One `groupnotes serve` process, as systemd would run it, on a port of its own. */
export class AppInstance extends Managed {
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    super();
  }

  /** Starts `node --import tsx src/cli.ts serve` and waits until /healthz answers 200. */
  async start(): Promise<void> {
    this.launch(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' });
    await waitFor(`app ${this.name}`, async () => (await probe(this.port, '/healthz')) === 200, () => this.exitNote, () => this.output);
  }

  /** Waits for the request-log line of a request already answered (the log is written after the answer). */
  waitForRequest(match: (line: { path: string; status: number; method: string }) => boolean): Promise<void> {
    return eventually(`app ${this.name} to log the request`, () => this.requests().some(match));
  }

  /** The request-log lines (one JSON object per request) this instance wrote. */
  requests(): { path: string; status: number; method: string }[] {
    return this.output
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { path: string; status: number; method: string });
  }
}

/**
 * nginx with a generated main config (its own prefix, pid and logs; in the foreground) that
 * includes deploy/nginx.conf with only the listen port, the upstream ports and the public/
 * path changed.
 */
export class Nginx extends Managed {
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly upstreamPorts: [number, number],
    private readonly dir: string,
  ) {
    super();
  }

  site(): string {
    const original = readFileSync(join(REPO, 'deploy/nginx.conf'), 'utf8');
    // Active (uncommented) lines only: the commented HTTPS block stays as it is.
    const replacements: [RegExp, string][] = [
      [/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${this.port};`],
      [/^(\s*)server 127\.0\.0\.1:8001 /m, `$1server 127.0.0.1:${this.upstreamPorts[0]} `],
      [/^(\s*)server 127\.0\.0\.1:8002 /m, `$1server 127.0.0.1:${this.upstreamPorts[1]} `],
      [/^(\s*)alias \/srv\/groupnotes\/public\/;/m, `$1alias ${REPO}/public/;`],
    ];
    let site = original;
    for (const [pattern, replacement] of replacements) {
      // Exactly one of each: if deploy/nginx.conf changes shape, this test must be told.
      const count = site.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
      if (count !== 1) throw new Error(`deploy/nginx.conf: expected one active line matching ${pattern}, found ${count}`);
      site = site.replace(pattern, replacement);
    }
    return site;
  }

  async start(): Promise<void> {
    const prefix = join(this.dir, `nginx-${this.name}`);
    mkdirSync(prefix, { recursive: true });
    const temp = (kind: string) => `${kind}_temp_path ${join(prefix, kind)};`;
    const mime = existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : 'types { text/css css; application/javascript js; }';
    writeFileSync(join(prefix, 'site.conf'), this.site());
    writeFileSync(
      join(prefix, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(prefix, 'nginx.pid')};`,
        `error_log ${join(prefix, 'error.log')} notice;`,
        'events { worker_connections 1024; }',
        'http {',
        `  ${mime}`,
        '  default_type application/octet-stream;',
        `  access_log ${join(prefix, 'access.log')};`,
        `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
        `  include ${join(prefix, 'site.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    this.launch(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], process.env);
    await waitFor(`nginx ${this.name}`, async () => (await probe(this.port, '/healthz')) !== null, () => this.exitNote, () => this.output);
  }

  errorLog(): string {
    return this.log('error.log');
  }

  accessLog(): string {
    return this.log('access.log');
  }

  private log(name: string): string {
    const file = join(this.dir, `nginx-${this.name}`, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }
}
