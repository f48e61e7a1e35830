import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { CrowdNote } from './crowd-seed.js';
import { ROOT } from './lib.js';

// The writing side of the crowd benchmark, in a process of its own (bench/crowd-writer-process.ts):
// sharing the event loop of the load generator, which keeps it busy, would add the generator's
// work to every measured edit. The process stays up between rounds (its chat sockets open and
// idle) and writes only while the app is measured, never while bare node is.

export interface WritersPlan {
  url: string;
  /** Each writer edits its own notes in turn through the edit form. */
  writers: { cookie: string; notes: CrowdNote[] }[];
  editsPerSecond: number;
  /** Members who post to their group's chat in turn. */
  chatters: { cookie: string; groupId: number }[];
  chatPerSecond: number;
  /** The CSRF secret the writers' cookies hold, sent as the form's token. */
  csrf: string;
}

export interface WriteRound {
  seconds: number;
  edits: { sent: number; latencies: number[]; statuses: Record<string, number>; problems: string[] };
  chat: { sent: number; confirmed: number; latencies: number[]; problems: string[] };
}

export type ToWriters = { type: 'setup'; plan: WritersPlan } | { type: 'run'; seconds: number };
export type FromWriters = { type: 'ready' } | { type: 'done'; round: WriteRound } | { type: 'failed'; error: string };

/** How long past a round's end the process may take to answer before it is given up on. */
const ANSWER_MARGIN_MS = 30_000;

export interface Writers {
  /** Edits and chat messages at their rates for `seconds`; resolves when every one is answered. */
  run(seconds: number): Promise<WriteRound>;
  stop(): Promise<void>;
}

function answer(child: ChildProcess, timeoutMs: number): Promise<FromWriters> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error, message?: FromWriters) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message!);
    };
    const onMessage = (message: FromWriters) => (message.type === 'failed' ? done(new Error(`crowd writers: ${message.error}`)) : done(undefined, message));
    const onExit = (code: number | null) => done(new Error(`crowd writers exited with ${code}`));
    const timer = setTimeout(() => done(new Error(`crowd writers did not answer within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Starts the writing process, which connects the chat sockets before it says it is ready. */
export async function startWriters(plan: WritersPlan): Promise<Writers> {
  const child = fork(join(ROOT, 'bench/crowd-writer-process.ts'), [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    const ready = answer(child, ANSWER_MARGIN_MS);
    child.send({ type: 'setup', plan } satisfies ToWriters);
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    async run(seconds) {
      const done = answer(child, seconds * 1000 + ANSWER_MARGIN_MS);
      child.send({ type: 'run', seconds } satisfies ToWriters);
      const message = await done;
      if (message.type !== 'done') throw new Error(`crowd writers answered ${message.type} to run`);
      return message.round;
    },
    stop,
  };
}
