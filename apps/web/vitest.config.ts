import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';

// Component tests run without the router plugin: they render features directly, not route files.
export default defineConfig({
  // The console's zod, as the build ships it (ADR 0032): zod is inlined so the plugin applies.
  plugins: [react(), zodWithoutJsonSchema()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    server: { deps: { inline: ['zod'] } },
    css: false,
    // `npm test` shares 2 cores with other CPU-heavy jobs (the tw-merge pair check alone is
    // seconds of CPU); no test here measures time.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A zone with DST and a non-zero offset, so date-time conversions are actually exercised.
    env: { TZ: 'Europe/Paris' },
  },
});
