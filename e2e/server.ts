import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/net.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningApp {
  baseUrl: string;
  stop(): Promise<void>;
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
 * file and a free loopback port. Cheap password hashes keep registration fast.
 */
export async function startApp(): Promise<RunningApp> {
  // public/vendor/ is generated (npm run build); a fresh checkout would serve pages unstyled.
  const copied = spawnSync(process.execPath, ['scripts/copy-assets.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`copying the vendor assets failed:\n${copied.stderr}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'groupnotes-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dataDir, 'e2e.sqlite3')}`,
      SECRET_KEY: 'e2e-secret-key-0123456789abcdefghijklmnopqrstuvwxyz',
      PBKDF2_ITERATIONS: '1000',
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
