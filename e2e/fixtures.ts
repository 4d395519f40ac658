// The suite's `test`: baseURL from the running stack, a `login` fixture with the demo
// credentials, and an `axe` check that fails on any WCAG 2.x A/AA violation.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';

import type { ApiClient, Definition } from '@wsc/api-client';
import { createApiClient, requestToken } from '@wsc/api-client';

import type { DemoCredential, DemoCredentials } from './stack.ts';
import { ROOT } from './stack.ts';

export const SCREENSHOT_DIR = path.join(ROOT, 'e2e/screenshots');

function credentials(): DemoCredentials {
  const raw = process.env.E2E_CREDENTIALS;
  if (!raw)
    throw new Error('E2E_CREDENTIALS is not set: run through playwright.config.ts (globalSetup)');
  return JSON.parse(raw) as DemoCredentials;
}

/**
 * Fills and submits the sign-in form as a real user would (labels, not selectors).
 *
 * @example
 * await signIn(page, creds.admin);
 */
export async function signIn(
  page: Page,
  credential: Pick<DemoCredential, 'clientId' | 'clientSecret'>,
) {
  await page.getByLabel('Client ID').fill(credential.clientId);
  await page.getByLabel('Client secret').fill(credential.clientSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Runs axe on the current page and fails with a readable list of violations.
 *
 * @example
 * await expectNoAxeViolations(page);
 */
export async function expectNoAxeViolations(page: Page, context?: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 5)
        .join('\n    ')}`,
  );
  expect(summary, `axe violations${context ? ` on ${context}` : ''}`).toEqual([]);
}

/**
 * Saves a full-page screenshot for reviewers under e2e/screenshots/ (ignored by git).
 *
 * @example
 * await saveScreenshot(page, 'records-list');
 */
export async function saveScreenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/**
 * A typed client straight to the workspace API (not through the BFF), to arrange data behind the
 * console's back, e.g. a concurrent edit for the 412 spec.
 *
 * @example
 * const api = await directApi(creds.admin);
 */
export async function directApi(credential: DemoCredential): Promise<ApiClient> {
  const apiURL = process.env.E2E_API_URL;
  if (!apiURL) throw new Error('E2E_API_URL is not set');
  const token = await requestToken({
    tokenUrl: `${apiURL}/oauth/token`,
    clientId: credential.clientId,
    clientSecret: credential.clientSecret,
  });
  return createApiClient({ baseUrl: `${apiURL}/v1`, getToken: async () => token.access_token });
}

/** The demo tickets definition (handle SUP), read from the API rather than hard-coded. */
export async function ticketsDefinition(api: ApiClient): Promise<Definition> {
  const { items } = await api.listDefinitions();
  const tickets = items.find((d) => d.handle === 'SUP');
  if (!tickets) throw new Error('The demo workspace has no SUP definition');
  return tickets;
}

interface Fixtures {
  creds: DemoCredentials;
  /** Signs in through the UI (admin unless told otherwise) and waits for the shell. */
  login: (who?: 'admin' | 'agent', startAt?: string) => Promise<void>;
  axe: (context?: string) => Promise<void>;
  /** The admin's direct API client. */
  adminApi: ApiClient;
  /** The tickets definition and its list URL. */
  tickets: Definition & { url: string };
}

export const test = base.extend<Fixtures>({
  // Playwright reads a fixture's dependencies from its destructuring pattern, so `{}` is required.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  // eslint-disable-next-line no-empty-pattern
  creds: async ({}, use) => {
    await use(credentials());
  },
  login: async ({ page, creds }, use) => {
    await use(async (who = 'admin', startAt = '/') => {
      await page.goto(startAt);
      await expect(
        page.getByRole('heading', { name: 'Sign in to Workspace Console' }),
      ).toBeVisible();
      await signIn(page, creds[who]);
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    });
  },
  adminApi: async ({ creds }, use) => {
    await use(await directApi(creds.admin));
  },
  tickets: async ({ adminApi }, use) => {
    const definition = await ticketsDefinition(adminApi);
    await use({ ...definition, url: `/records/${definition.recordType}/${definition.alias}` });
  },
  axe: async ({ page }, use) => {
    await use((context?: string) => expectNoAxeViolations(page, context));
  },
});

export { expect };
