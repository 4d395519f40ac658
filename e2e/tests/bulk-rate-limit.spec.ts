// A 100-record bulk change under the API's DEFAULT rate limit (20 requests/s, burst 100 per
// credential) meets no 429 (DESIGN.md section 7, ADR 0030). Its own stack: the shared one runs
// with the limit off. The API logs every request (LOG_LEVEL=debug), so the count covers every
// upstream answer, including those the BFF's own retries of a read would hide from the browser.
// In the hosted run, Prism between the BFF and the API checks the batched re-read and the
// whole-record writes against the published contract.
import { readFile } from 'node:fs/promises';
import type { Request } from '@playwright/test';

import { createApiClient, requestToken } from '@wsc/api-client';

import { expect, signIn, test } from '../fixtures.ts';
import { useOwnStack } from '../own-stack.ts';
import { runProfile } from '../stack.ts';

const running = useOwnStack(
  {
    name: 'bulk-default-limit',
    profile: runProfile(),
    // The API's defaults, stated: the shared stack turns the limit off.
    rateLimitRps: 20,
    rateLimitBurst: 100,
    apiEnv: { LOG_LEVEL: 'debug' },
  },
  180_000,
);

/** Statuses of the requests the API logged (one JSON line per request at debug). */
async function loggedStatuses(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => (JSON.parse(line) as { status?: number }).status ?? 0);
}

test('a 100-record bulk run under the default rate limit gets no 429', async ({
  page,
  profile,
}) => {
  test.setTimeout(240_000);
  const { baseURL, apiURL, credentials, apiLog } = running();
  // The records, made by the agent (a bucket of its own) straight at the API.
  const tag = `Bulk limit ${Date.now().toString(36)}`;
  const { access_token: token } = await requestToken({
    tokenUrl: `${apiURL}/oauth/token`,
    clientId: credentials.agent.clientId,
    clientSecret: credentials.agent.clientSecret,
    style: profile === 'hosted' ? 'json' : 'form',
  });
  const agentApi = createApiClient({
    baseUrl: `${apiURL}/v1`,
    getToken: async () => token,
    profile,
  });
  for (let i = 0; i < 100; i++) {
    await agentApi.createRecord('apps', 'support-tickets', {
      Title: `Limited bulk ${i + 1}`,
      Status: 'Open',
      Severity: 'Low',
      Customer: tag,
    });
  }

  await page.goto(`${baseURL}/sign-in`);
  await signIn(page, credentials.admin);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const before = (await loggedStatuses(apiLog)).length;
  await page.goto(
    `${baseURL}/records/apps/support-tickets?filter=${encodeURIComponent(`Customer=='${tag}'`)}`,
  );
  await expect(page.getByTestId('records-status')).toContainText('100');
  await page
    .getByRole('checkbox', { name: /^Select (?!all)/ })
    .first()
    .check();
  await page.getByRole('button', { name: 'Select all 100 matching this filter' }).click();
  await page.getByRole('button', { name: 'Change fields…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change 100 records' });
  await dialog.getByLabel('Field 1').selectOption('Severity');
  await dialog.getByLabel('New Severity').selectOption('High');
  await dialog.getByRole('button', { name: 'Preview changes' }).click();
  await expect(dialog.getByTestId('bulk-preview')).toContainText('100 records will change');
  // The list's own reads (its filter names the tag) while the run writes: each write comes back
  // as news of a change, which would make the list behind the dialog read its page again.
  let listReads = 0;
  const countListReads = (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/support-tickets') && url.searchParams.get('filter')?.includes(tag))
      listReads += 1;
  };
  page.on('request', countListReads);
  await dialog.getByRole('button', { name: 'Apply to 100 records' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toHaveText('100 changed.', {
    timeout: 120_000,
  });
  page.off('request', countListReads);
  // The run holds them: the list reads its page once the dialog is done.
  expect(listReads).toBe(0);

  // Every upstream answer since sign-in, the list, the preview and the run: none was a 429.
  const statuses = (await loggedStatuses(apiLog)).slice(before);
  expect(statuses.length).toBeGreaterThanOrEqual(101);
  expect(statuses.filter((status) => status === 429)).toEqual([]);
  const changed = await agentApi.searchRecords('apps', 'support-tickets', {
    filter: `Customer=='${tag}';Severity==High`,
    first: 100,
  });
  expect(changed.items).toHaveLength(100);
});
