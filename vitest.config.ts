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
  },
});
