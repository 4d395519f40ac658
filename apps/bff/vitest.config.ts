import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Generous on purpose: `npm test` must pass on a 2-core machine that other CPU-heavy jobs
    // share, where starting a child process, initdb or PostgreSQL can take ten times as long.
    // Nothing here measures time; a hung test still fails, only later.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Files in one worker share modules, so they share the in-memory PGlite store of
    // test/harness.ts (starting PGlite costs seconds). Every test makes its own sessions.
    isolate: false,
  },
});
