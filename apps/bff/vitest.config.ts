import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files in one worker share modules, so they share the in-memory PGlite store of
    // test/harness.ts (starting PGlite costs seconds). Every test makes its own sessions.
    isolate: false,
  },
});
