// Needs its own stack: the API's per-credential limit on (the shared stack runs with it off) and a
// BFF whose sign-in failure counter other specs do not touch.
import { requestToken } from '@wsc/api-client';

import type { Stack } from '../stack.ts';
import { expect, saveScreenshot, signIn, test } from '../fixtures.ts';
import { startStack } from '../stack.ts';

let stack: Stack;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  stack = await startStack({ name: 'rate-limited', rateLimitRps: 1, rateLimitBurst: 5 });
});

test.afterAll(async () => {
  await stack?.stop();
});

test('429 from the API shows the wait time where it happens', async ({ page, axe }) => {
  await page.goto(`${stack.baseURL}/sign-in`);
  await signIn(page, stack.credentials.admin);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const api = (path: string) =>
    page.request.get(`${stack.baseURL}/api/v1${path}`, { headers: { 'X-CSRF': '1' } });
  const { items } = (await (await api('/definitions')).json()) as {
    items: { recordType: string; alias: string }[];
  };
  const first = items[0];
  if (!first) throw new Error('no definitions');
  // Keep the credential's bucket empty while the view loads. The flood goes straight to the API
  // with the same credential (its own token), so its 429s come back in a millisecond and the next
  // request is already waiting when a token refills (1/s); through the BFF it would sit in the
  // BFF's own 1 s retries and leave the refill to the view's request now and then.
  const { access_token: token } = await requestToken({
    tokenUrl: `${stack.apiURL}/oauth/token`,
    clientId: stack.credentials.admin.clientId,
    clientSecret: stack.credentials.admin.clientSecret,
  });
  let flooding = true;
  const floodOne = async () => {
    while (flooding) {
      await page.request
        .get(`${stack.apiURL}/v1/${first.recordType}/${first.alias}?first=1`, {
          headers: { Authorization: `Bearer ${token}` },
        })
        .catch(() => undefined);
    }
  };
  const flood = Promise.all(Array.from({ length: 4 }, floodOne));
  try {
    await page.goto(`${stack.baseURL}/records/${first.recordType}/${first.alias}?sort=Title`);
    await expect(page.getByRole('alert').first()).toContainText(
      /Too many requests — try again in \d+ s/,
      {
        timeout: 20_000,
      },
    );
  } finally {
    flooding = false;
    await flood;
  }
  await axe('429');
  await saveScreenshot(page, '13-rate-limited');
});

test('too many failed sign-ins are rate limited with the wait shown', async ({ page }) => {
  await page.goto(`${stack.baseURL}/sign-in`);
  const alert = page.getByRole('alert');
  for (let i = 0; i < 12; i += 1) {
    await signIn(page, { clientId: stack.credentials.admin.clientId, clientSecret: `wrong-${i}` });
    await expect(alert).toBeVisible();
    if ((await alert.textContent())?.includes('Too many sign-in attempts')) break;
  }
  await expect(alert).toContainText(/Too many sign-in attempts\. Try again in \d+ s\./);
});
