import fp from 'fastify-plugin';
import type { Dialect } from '../../db/database.js';

/**
 * On SQLite, how many page reads a turn of the event loop goes on with before the process looks
 * at its sockets again. A kept page takes a few tenths of a millisecond, one rendered anew about
 * one.
 */
export const SQLITE_READS_PER_TURN = 4;

/**
 * Requests that change something are handled before the page reads that wait in this process.
 * Every socket with data is read in one phase of a turn of the event loop, and on SQLite a
 * request runs to its answer as soon as it is read (better-sqlite3 is synchronous), so an edit
 * read after fifteen page requests waited for their fifteen pages. A GET or HEAD instead waits
 * in a line and goes on in a later phase of the turn (setImmediate), after the writes read in
 * this one. On SQLite at most SQLITE_READS_PER_TURN of them a turn, so that an edit that
 * arrives while the process works through a long line of reads is read, and handled, after a
 * few of them instead of after all (the reads keep their order). On PostgreSQL a read runs only
 * to its first query in that phase, and the session reads asked in one turn go as one statement
 * (chain/session-query.ts): there the turn takes every waiting read. An idle process runs the
 * phase at once: nothing waits longer for it.
 */
export const writesFirst = fp<{ dialect: Dialect }>(async (app, { dialect }) => {
  const readsPerTurn = dialect === 'sqlite' ? SQLITE_READS_PER_TURN : Infinity;
  /** Waiting reads, first come first: no more than the requests read and not yet answered. */
  const line: (() => void)[] = [];
  /** Reads let through to the coming check phase and not yet run. */
  let scheduled = 0;
  const runOne = () => {
    scheduled--;
    const next = line.shift();
    // Scheduled from the check phase, the next one runs in the next turn, after its poll phase.
    if (line.length > scheduled) {
      scheduled++;
      setImmediate(runOne);
    }
    next?.();
  };
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    line.push(done);
    if (scheduled < readsPerTurn) {
      scheduled++;
      setImmediate(runOne);
    }
  });
}, { name: 'writes-first' });
