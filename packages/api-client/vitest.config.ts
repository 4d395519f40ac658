import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // `npm test` shares 2 cores with other CPU-heavy jobs: no test here measures time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
