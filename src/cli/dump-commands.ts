import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import type { Writable } from 'node:stream';
import { writeDump } from '../db/dump/dump.js';
import { DumpError, loadDump } from '../db/dump/load.js';
import { type Command, withDatabase } from './command.js';
import { CliError } from './io.js';

/** A progress line on a terminal, redrawn at most ten times a second; nothing when not a terminal. */
class ProgressLine {
  private shownAt = 0;
  private shown = false;
  private readonly enabled = process.stderr.isTTY === true;

  show(text: string, force = false): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!force && now - this.shownAt < 100) return;
    this.shownAt = now;
    this.shown = true;
    process.stderr.write(`\r${text.slice(0, (process.stderr.columns || 80) - 1).padEnd((process.stderr.columns || 80) - 1)}`);
  }

  end(): void {
    if (this.shown) process.stderr.write('\n');
    this.shown = false;
  }
}

function bar(fraction: number, width = 24): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(fraction * 100)
    .toString()
    .padStart(3)}%`;
}

/** Writes with back-pressure: waits for the stream to drain when its buffer is full. */
function sinkFor(stream: Writable): (text: string) => Promise<void> {
  return async (text) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
}

/** The file's lines, read a chunk at a time: the reader pulls, so memory stays bounded. */
async function* linesOf(path: string, onBytes: (bytes: number) => void): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    const text = rest + decoder.write(chunk as Buffer);
    const lines = text.split('\n');
    rest = lines.pop()!;
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

export const dumpCommands: Record<string, Command> = {
  dumpdata: {
    usage: 'dumpdata [file]',
    summary: 'write all data (not sessions) as one JSON document, to the file or standard output',
    positionals: { min: 0, max: 1 },
    async run({ config, args }) {
      const path = args[0];
      const progress = new ProgressLine();
      await withDatabase(config, async (database) => {
        // Into a file of its own first: a dump that fails half-way never stands in for a whole one.
        const partial = path ? `${path}.partial-${process.pid}` : undefined;
        const out: Writable = partial ? createWriteStream(partial, { flags: 'wx' }) : process.stdout;
        const opened = partial ? once(out, 'open') : Promise.resolve();
        try {
          await opened;
          const result = await writeDump(database.db, database.dialect, sinkFor(out), (table, done, total) =>
            progress.show(`dumping ${table.padEnd(20)} ${bar(total === 0 ? 1 : done / total)} ${done}/${total}`, done === total),
          );
          progress.end();
          if (partial) {
            out.end();
            await once(out, 'finish');
            renameSync(partial, path!);
          }
          (path ? process.stdout : process.stderr).write(`dumped ${result.rows} rows of ${result.tables} tables${path ? ` to ${path}` : ''}\n`);
        } catch (error) {
          progress.end();
          if (partial) {
            out.destroy();
            rmSync(partial, { force: true });
          }
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EEXIST' || code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new CliError(`cannot write ${path}: ${(error as Error).message}`);
          throw error;
        }
      });
    },
  },
  loaddata: {
    usage: 'loaddata <file> [--replace]',
    summary: 'load a dumpdata file into an empty database (--replace: delete all data first)',
    positionals: { min: 1, max: 1 },
    options: { replace: { type: 'boolean' } },
    async run({ config, args, options }) {
      const path = args[0]!;
      let size: number;
      try {
        const stat = statSync(path);
        if (!stat.isFile()) throw new CliError(`cannot read ${path}: not a file`);
        size = stat.size;
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
      }
      const progress = new ProgressLine();
      let read = 0;
      await withDatabase(config, async (database) => {
        try {
          const lines = linesOf(path, (bytes) => {
            read += bytes;
          });
          const result = await loadDump(database.db, database.dialect, lines, {
            replace: options.replace === true,
            progress: (table, rows) => progress.show(`loading ${table.padEnd(20)} ${bar(size === 0 ? 1 : read / size)} ${rows} rows`),
          });
          progress.end();
          console.log(`loaded ${result.rows} rows of ${result.tables} tables from ${path}`);
        } catch (error) {
          progress.end();
          if (error instanceof DumpError) throw new CliError(`${path}: ${error.message}; nothing was loaded`);
          throw error;
        }
      });
    },
  },
};
