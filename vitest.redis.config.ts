import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** The tests that need Redis (REDIS_URL, default redis://127.0.0.1:6379): `npm run test:redis`. */
export default defineConfig({
  test: {
    ...base.test,
    include: ['src/**/*.redis.test.ts', 'test/**/*.redis.test.ts'],
    exclude: configDefaults.exclude,
  },
});
