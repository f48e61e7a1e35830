import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/net.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningApp {
  baseUrl: string;
  /** The server's database, for the command line (`runCli`). */
  databaseUrl: string;
  stop(): Promise<void>;
}

const SECRET_KEY = 'e2e-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';

/** Runs `groupnotes <args>` against the journeys' server's database, as its administrator would. */
export function runCli(databaseUrl: string, args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: databaseUrl, SECRET_KEY, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'warn' },
  });
  if (result.status !== 0) throw new Error(`groupnotes ${args.join(' ')} failed with ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

async function waitUntilServing(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with status ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/accounts/login/`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not answer within 30 s:\n${output()}`);
}

/**
 * The real server as users run it (`groupnotes serve`), in a child process, on a fresh SQLite
 * file and a free loopback port. Cheap password hashes keep registration fast. Mail goes to
 * `smtpUrl` when given, with links built on the server's own address.
 */
export async function startApp(options: { smtpUrl?: string } = {}): Promise<RunningApp> {
  // public/vendor/ is generated (npm run build); a fresh checkout would serve pages unstyled.
  const copied = spawnSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`copying the vendor assets failed:\n${copied.stderr}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'groupnotes-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const databaseUrl = `sqlite:${join(dataDir, 'e2e.sqlite3')}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      PUBLIC_URL: baseUrl,
      ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
      PBKDF2_ITERATIONS: '1000',
      // Each person's browser says where it is (X-Forwarded-For, e2e/browser.ts), as behind a
      // proxy: the per-address throttles then count each person, not the whole suite at once.
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitUntilServing(baseUrl, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    databaseUrl,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
      if (log.trim()) console.log(`server log (warnings and errors):\n${log}`);
    },
  };
}
