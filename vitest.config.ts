import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    // Tests that need a Redis server (*.redis.test.ts) run when REDIS_URL is set (as in CI's
    // second run), and on their own with `npm run test:redis`.
    exclude: process.env.REDIS_URL ? configDefaults.exclude : [...configDefaults.exclude, '**/*.redis.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file gets its own database (a temp SQLite file or a fresh PostgreSQL database).
    fileParallelism: true,
    // Vitest's default, one worker fewer than the cores, is a single worker on a two-core
    // machine: the files then run one at a time while most of their time is spent waiting on
    // sockets and databases. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
