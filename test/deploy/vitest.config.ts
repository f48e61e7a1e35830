import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:deploy`: nginx in front of two app processes on PostgreSQL and Redis. Not part of
 * `npm test` (its files are *.deploy.ts): it needs nginx, PostgreSQL and Redis, and takes a while.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/deploy/**/*.deploy.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
