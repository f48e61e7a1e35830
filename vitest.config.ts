import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    // Tests that need a Redis server run with `npm run test:redis` (vitest.redis.config.ts).
    exclude: [...configDefaults.exclude, '**/*.redis.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file gets its own database (a temp SQLite file or a fresh PostgreSQL database).
    fileParallelism: true,
  },
});
