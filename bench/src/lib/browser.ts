// Debian Chromium through playwright-core, as the console benchmarks drive it: the executable, the
// flags every run uses, and signing in to the console the way a person does.
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import type { Credential } from './stack.ts';

/** The flags of every console benchmark's Chromium (no sandbox in the container, no GPU, quiet). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium with {@link CHROMIUM_ARGS} (and any extra flags after them).
 *
 * @example
 * const browser = await launchChromium();
 * try { ... } finally { await browser.close(); }
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Signs in on the console's sign-in page (already open) and waits for the signed-in shell.
 *
 * @example
 * await page.goto('/sign-in');
 * await signIn(page, credentials.admin);
 */
export async function signIn(page: Page, credential: Credential) {
  await page.getByLabel('Client ID').fill(credential.clientId);
  await page.getByLabel('Client secret').fill(credential.clientSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
}
