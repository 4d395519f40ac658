// The stack the console benchmarks measure: the production build of apps/web served by the BFF in
// front of a fresh API (demo data, or a store prepared before the API starts), and Chromium.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';

import type { BffProcess, Credentials, FreshApi } from './stack.ts';
import { launchChromium } from './browser.ts';
import { startBff, startFreshApi, WEB_DIST } from './stack.ts';

export type ConsoleStack = {
  fresh: FreshApi;
  bff: BffProcess;
  browser: Browser;
  credentials: Credentials;
};

export type ConsoleStackOptions = {
  /** Writes the API's store before it starts (default: the API seeds the demo itself). */
  prepare?: (dataDir: string) => Promise<void>;
  /** Chromium flags after the usual ones. */
  chromiumArgs?: string[];
};

/** Throws unless `pnpm --filter web build` has produced apps/web/dist. */
export function requireWebBuild(): void {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error('apps/web is not built: run `pnpm --filter web build` first');
}

/**
 * Starts the API (`<name>-api`), the BFF serving the built console (`<name>-bff`) and Chromium,
 * runs `body`, and closes the browser and stops both processes whatever happens.
 *
 * @example
 * const section = await withConsoleStack('console', {}, async ({ bff, browser, credentials }) => { ... });
 */
export async function withConsoleStack<T>(
  name: string,
  options: ConsoleStackOptions,
  body: (stack: ConsoleStack) => Promise<T>,
): Promise<T> {
  requireWebBuild();
  const fresh = await startFreshApi(`${name}-api`, {}, options.prepare);
  try {
    const bff = await startBff(`${name}-bff`, fresh.api.url);
    try {
      const browser = await launchChromium(options.chromiumArgs);
      try {
        return await body({ fresh, bff, browser, credentials: fresh.credentials });
      } finally {
        await browser.close();
      }
    } finally {
      await bff.stop();
    }
  } finally {
    await fresh.stop();
  }
}
