import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ServeProcess {
  /** host:port it listens on. */
  address: string;
  child: ChildProcess;
  /** What it has written to stdout so far. */
  output(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/** `groupnotes serve` as a process of its own on a free port, once it answers; `env` on top of this process's. */
export async function spawnServe(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`http://${address}/healthz`);
      return { address, child, output: () => output, stop };
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        await stop();
        throw new Error('groupnotes serve did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
