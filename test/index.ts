// Every test helper, by one import path: `import { buildTestApp, createNote } from '<...>/test/index.js'`.
// Each module below holds one subject; this file only lists them.

export * from './api.js';
export * from './audience.js';
export * from './cluster.js';
export * from './database.js';
export * from './django-dumps.js';
export * from './every-page.js';
export * from './groups-api.js';
export * from './helpers.js';
export * from './language-markers.js';
export * from './list-kinds.js';
export * from './log-capture.js';
export * from './lists.js';
export * from './login-form.js';
export * from './net.js';
export * from './notes-factories.js';
export * from './query-count.js';
export * from './redis-instances.js';
export * from './row-lock.js';
export * from './serve-process.js';
export * from './smtp.js';
export * from './two-factor.js';
export * from './upgrade.js';
export * from './ws.js';
export * from './zips.js';
