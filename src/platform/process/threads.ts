import { Worker, type WorkerOptions } from 'node:worker_threads';

// Threads that run a module of ours (password hashing): the thread's code
// is a TypeScript file like any other, which the compiler checks and the linter reads.

/**
 * Starts a thread on module `name` beside the caller (`callerUrl`: its import.meta.url): the
 * compiled JavaScript in dist/ when the caller runs from there; run from the TypeScript sources
 * (tests, `npm run dev`), the .ts file, through a bootstrap that has tsx load it (ts-thread.mjs).
 */
export function startThread(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const source = new URL(`./${name}.ts`, callerUrl).href;
  return new Worker(new URL('./ts-thread.mjs', import.meta.url), { ...options, argv: [source] });
}
