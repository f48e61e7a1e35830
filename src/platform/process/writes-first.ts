import fp from 'fastify-plugin';

/**
 * Requests that change something are handled before the page reads that reached this process in
 * the same turn of its event loop. Every socket with data is read in one phase of the turn, and
 * on SQLite a request runs to its answer as soon as it is read (better-sqlite3 is synchronous),
 * so an edit read after fifteen page requests waited for their fifteen pages. A GET or HEAD now
 * goes on in the turn's next phase (setImmediate), after the writes read in this one. An idle
 * process runs that phase at once: nothing waits longer for it.
 */
export const writesFirst = fp(async (app) => {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') setImmediate(done);
    else done();
  });
}, { name: 'writes-first' });
