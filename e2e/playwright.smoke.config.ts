// The smoke against `prism mock -d` (smoke/): the same browser settings as the suite, its own
// stack (Prism mock + BFF, no workspace API).
import { defineConfig } from '@playwright/test';

import suite from './playwright.config.ts';

export default defineConfig({
  ...suite,
  testDir: './smoke',
  globalSetup: './smoke/global-setup.ts',
  outputDir: './test-results/artifacts-smoke',
});
