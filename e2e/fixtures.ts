// The suite's `test`: baseURL from the running stack, the run's `profile` (extended or hosted), a
// `login` fixture with the demo credentials, the definitions as the console reads them (the BFF's
// `/bff/definitions`, in both profiles), a direct API client in the run's profile, and an `axe`
// check that fails on any WCAG 2.x A/AA violation.
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequest, Browser, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect } from '@playwright/test';

import type { ApiClient, Definition, Profile, RecordData } from '@wsc/api-client';
import { createApiClient, DefinitionListSchema, recordHandle, requestToken } from '@wsc/api-client';

import type { DemoCredential, DemoCredentials } from './stack.ts';
import { ROOT, runProfile } from './stack.ts';

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
 * A second person: a browser context of their own (cookies apart), on the suite's base URL, in
 * the time zone and locale the specs read dates in.
 *
 * @example
 * const agent = await newPerson(browser);
 * await agent.page.goto('/');
 */
export async function newPerson(browser: Browser) {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    timezoneId: 'Europe/Paris',
    locale: 'en-GB',
  });
  return { context, page: await context.newPage() };
}

/**
 * A second person, signed in and on the shell. `fakeClock` installs Playwright's clock before the
 * console loads, so its timers (a list's poll) only move when the test moves them.
 *
 * @example
 * const agent = await signedInPerson(browser, creds.agent);
 * await agent.page.goto(tickets.url);
 */
export async function signedInPerson(
  browser: Browser,
  credential: Pick<DemoCredential, 'clientId' | 'clientSecret'>,
  options: { fakeClock?: boolean } = {},
) {
  const person = await newPerson(browser);
  if (options.fakeClock) await person.page.clock.install();
  await person.page.goto('/');
  await signIn(person.page, credential);
  await expect(person.page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return person;
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
 * Saves a screenshot for reviewers under e2e/screenshots/ (ignored by git). The hosted run's
 * files get a `hosted-` prefix and the mock smoke's `mock-`, so the runs do not overwrite each
 * other's.
 *
 * @example
 * await saveScreenshot(page, 'records-list');
 */
export async function saveScreenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const prefix = process.env.E2E_SCREENSHOT_PREFIX ?? (runProfile() === 'hosted' ? 'hosted-' : '');
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${prefix}${name}.png`) });
}

/**
 * A typed client straight to the workspace API (not through the BFF, nor Prism), in the run's
 * profile, to arrange data behind the console's back, e.g. a concurrent edit for the conflict
 * spec. Hosted: the published JSON token request, and only requests inside the contract.
 *
 * @example
 * const api = await directApi(creds.admin);
 */
export async function directApi(
  credential: DemoCredential,
  profile: Profile = runProfile(),
): Promise<ApiClient> {
  const apiURL = process.env.E2E_API_URL;
  if (!apiURL) throw new Error('E2E_API_URL is not set');
  const token = await requestToken({
    tokenUrl: `${apiURL}/oauth/token`,
    clientId: credential.clientId,
    clientSecret: credential.clientSecret,
    style: profile === 'hosted' ? 'json' : 'form',
  });
  return createApiClient({
    baseUrl: `${apiURL}/v1`,
    profile,
    getToken: async () => token.access_token,
  });
}

/**
 * A record's handle (`SUP-42`): `id` in the extended profile, the definition's handle field
 * (`Ticket ID`) in the hosted one. Fails when the record has none.
 *
 * @example
 * const id = handleOf(await adminApi.createRecord('apps', tickets.alias, fields), tickets);
 */
export function handleOf(record: RecordData, definition: Pick<Definition, 'handleField'>): string {
  const handle = recordHandle(record, definition);
  if (!handle) throw new Error(`record without a handle: ${JSON.stringify(record)}`);
  return handle;
}

/**
 * Tickets only one spec filters on (`Customer` is the tag), created in Priority order (1, 2, ...)
 * so the service's own order (creation) and a Priority sort agree; their handles in that order.
 *
 * @example
 * const ids = await createTaggedQueue(adminApi, tickets, tag, ['Printer jams', 'VPN drops']);
 */
export async function createTaggedQueue(
  api: ApiClient,
  definition: Definition,
  tag: string,
  titles: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, title] of titles.entries()) {
    const record = await api.createRecord(definition.recordType as 'apps', definition.alias, {
      Title: `${title} (${tag})`,
      Status: 'New',
      Severity: 'Low',
      Customer: tag,
      Priority: String(i + 1),
    });
    ids.push(handleOf(record, definition));
  }
  return ids;
}

/**
 * The read-only date-time field that says when a record was created or last updated: `Created
 * At` / `Updated At` in our API, `Created on` / `Updated on` in the demo's hosted description.
 *
 * @example
 * record[auditField(tickets, 'updated')];
 */
export function auditField(definition: Definition, which: 'created' | 'updated'): string {
  const field = definition.fields.find(
    (f) => f.readOnly && f.type === 'DATETIME' && new RegExp(`^${which}`, 'i').test(f.name),
  );
  if (!field) throw new Error(`${definition.alias} has no ${which} date-time field`);
  return field.name;
}

/**
 * A list's `total`. The published contract lets a server leave it out (the console then shows
 * what is loaded), but the workspace API sends it in both profiles, and specs count with it.
 *
 * @example
 * const before = totalOf(await adminApi.listGroupMembers(group.id, { first: 1 }));
 */
export function totalOf(list: { total: number | undefined }): number {
  if (list.total === undefined) throw new Error('the list reply has no total');
  return list.total;
}

/** A definition of the demo workspace by its handle prefix (SUP, CUS, TSK, REF). */
export function definitionByHandle(definitions: Definition[], handle: string): Definition {
  const definition = definitions.find((d) => d.handle === handle);
  if (!definition) throw new Error(`The demo workspace has no ${handle} definition`);
  return definition;
}

/**
 * Every `filter` the console sends for a records list (`listPath`, e.g. `/apps/support-tickets`),
 * as the request URL carries it: in the hosted profile the console rewrites filters into the
 * published dialect before they leave, and relative dates leave as dates (ADR 0017).
 */
export function sentFilters(page: Page, listPath: string): string[] {
  const filters: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const filter = url.searchParams.get('filter');
    if (url.pathname === `/api/v1${listPath}` && filter !== null) filters.push(filter);
  });
  return filters;
}

/**
 * The path of every script the page requests from now on (a lazily loaded chunk shows up here
 * when it is fetched, and not when it is already loaded).
 *
 * @example
 * const scripts = scriptRequests(page);
 * expect(scripts.some((p) => p.includes('command-palette'))).toBe(false);
 */
export function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/**
 * Shuts the console's live events stream (`/bff/events`) out of this page. Other specs save
 * records meanwhile (the other worker), and their saves reach every tab showing the definition as
 * `record-changed`, which makes its list check its first page at once (ADR 0025): a spec that
 * counts a list's requests would count those checks too. Call before the page loads.
 *
 * @example
 * await withoutLiveEvents(page);
 */
export async function withoutLiveEvents(page: Page): Promise<void> {
  await page.route('**/bff/events', (route) => route.abort());
}

/** The definitions the admin's console reads: `GET /bff/definitions`, in either profile. */
async function consoleDefinitions(
  request: APIRequest,
  credential: DemoCredential,
): Promise<Definition[]> {
  const context = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  try {
    const headers = { 'X-CSRF': '1' };
    const login = await context.post('/bff/login', {
      headers,
      data: {
        clientId: credential.clientId,
        clientSecret: credential.clientSecret,
        region: 'default',
      },
    });
    if (!login.ok()) throw new Error(`sign-in for the definitions: ${login.status()}`);
    const reply = await context.get('/bff/definitions', { headers });
    if (!reply.ok()) throw new Error(`GET /bff/definitions: ${reply.status()}`);
    const { items } = DefinitionListSchema.parse(await reply.json());
    await context.post('/bff/logout', { headers });
    return items;
  } finally {
    await context.dispose();
  }
}

interface WorkerFixtures {
  /** The run's profile: `extended` (our API) or `hosted` (only the published contract, via Prism). */
  profile: Profile;
  creds: DemoCredentials;
  /** The definitions as the admin's console reads them (`GET /bff/definitions`). */
  definitions: Definition[];
}

export interface Fixtures {
  /** Signs in through the UI (admin unless told otherwise) and waits for the shell. */
  login: (who?: 'admin' | 'agent', startAt?: string) => Promise<void>;
  axe: (context?: string) => Promise<void>;
  /** The admin's direct API client, in the run's profile. */
  adminApi: ApiClient;
  /** The tickets definition (handle SUP) and its list URL. */
  tickets: Definition & { url: string };
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  // Playwright reads a fixture's dependencies from its destructuring pattern, so `{}` is required.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
  profile: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use(runProfile());
    },
    { scope: 'worker' },
  ],
  creds: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use(credentials());
    },
    { scope: 'worker' },
  ],
  definitions: [
    async ({ playwright, creds }, use) => {
      await use(await consoleDefinitions(playwright.request, creds.admin));
    },
    { scope: 'worker' },
  ],
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
  adminApi: async ({ creds, profile }, use) => {
    await use(await directApi(creds.admin, profile));
  },
  tickets: async ({ definitions }, use) => {
    const definition = definitionByHandle(definitions, 'SUP');
    await use({ ...definition, url: `/records/${definition.recordType}/${definition.alias}` });
  },
  axe: async ({ page }, use) => {
    await use((context?: string) => expectNoAxeViolations(page, context));
  },
});

export { expect };
