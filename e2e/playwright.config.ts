import { defineConfig, devices } from '@playwright/test';

// The suite runs once per profile (E2E_PROFILE=extended | hosted; run-suites.ts runs both): the
// stack global-setup.ts starts differs, the specs are the same.
// Debian's Chromium (never `playwright install`); override with CHROMIUM_PATH.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const profile = process.env.E2E_PROFILE ?? 'extended';

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  outputDir: `./test-results/artifacts-${profile}`,
  fullyParallel: false,
  // A 2-core machine shared with the API and the BFF under test.
  workers: 2,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: Boolean(process.env.CI),
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // The stack's address is only known after globalSetup: fixtures.ts sets baseURL from the env.
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    timezoneId: 'Europe/Paris',
    locale: 'en-GB',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
