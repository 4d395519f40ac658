// Needs its own stack: the API's per-credential limit on (the shared stack runs with it off) and a
// BFF whose sign-in failure counter other specs do not touch. In the hosted run that stack has its
// own Prism between the BFF and the API, checked for contract violations at the end.
import { requestToken } from '@wsc/api-client';

import { expect, saveScreenshot, signIn, test } from '../fixtures.ts';
import { useOwnStack } from '../own-stack.ts';
import { runProfile } from '../stack.ts';

const running = useOwnStack({
  name: 'rate-limited',
  profile: runProfile(),
  // One token every 100 s: once the test has emptied the bucket, nothing refills it while the
  // view loads, so the 429 is certain (a faster refill raced the BFF's retries under load).
  rateLimitRps: 0.01,
  rateLimitBurst: 30,
});

test('429 from the API shows the wait time where it happens', async ({ page, axe, profile }) => {
  const { baseURL, apiURL, credentials } = running();
  await page.goto(`${baseURL}/sign-in`);
  await signIn(page, credentials.admin);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const definitions = await page.request.get(`${baseURL}/bff/definitions`, {
    headers: { 'X-CSRF': '1' },
  });
  const { items } = (await definitions.json()) as {
    items: { recordType: string; alias: string; listable?: boolean }[];
  };
  const first = items.find((d) => d.listable !== false);
  if (!first) throw new Error('no definitions');
  // Empty the credential's bucket straight at the API with the same credential (its own token),
  // one request after another until the first 429; at one token per 100 s it stays empty.
  const { access_token: token } = await requestToken({
    tokenUrl: `${apiURL}/oauth/token`,
    clientId: credentials.admin.clientId,
    clientSecret: credentials.admin.clientSecret,
    style: profile === 'hosted' ? 'json' : 'form',
  });
  let drained = false;
  for (let i = 0; i < 100 && !drained; i += 1) {
    const response = await page.request.get(
      `${apiURL}/v1/${first.recordType}/${first.alias}?first=1`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    drained = response.status() === 429;
  }
  expect(drained, 'the bucket of 30 was emptied within 100 requests').toBe(true);
  // Every 429 the browser gets: through the proxy (`/api/v1`) or, extended, from
  // `/bff/definitions`, which asks the API's `/v1/definitions`.
  const limited: { url: string; headers: Record<string, string> }[] = [];
  page.on('response', (response) => {
    if (response.status() === 429)
      limited.push({ url: response.url(), headers: response.headers() });
  });
  await page.goto(`${baseURL}/records/${first.recordType}/${first.alias}?sort=Title`);
  await expect(page.getByRole('alert').first()).toContainText(
    /Too many requests — try again in \d+ s/,
    { timeout: 20_000 },
  );
  // Retry-After in both profiles; the RateLimit headers are an extension of our API, which the
  // proxy passes on.
  expect(limited.length).toBeGreaterThan(0);
  for (const { headers } of limited) expect(headers['retry-after']).toMatch(/^\d+$/);
  const rateLimitHeaders = (headers: Record<string, string>) =>
    Object.keys(headers).filter((name) => name.startsWith('ratelimit'));
  if (profile === 'hosted') {
    expect(limited.flatMap(({ headers }) => rateLimitHeaders(headers))).toEqual([]);
  } else {
    for (const { headers } of limited.filter(({ url }) => url.includes('/api/v1/'))) {
      expect(rateLimitHeaders(headers)).toContain('ratelimit-policy');
    }
  }
  await axe('429');
  await saveScreenshot(page, '13-rate-limited');
});

test('too many failed sign-ins are rate limited with the wait shown', async ({ page }) => {
  const { baseURL, credentials } = running();
  await page.goto(`${baseURL}/sign-in`);
  const alert = page.getByRole('alert');
  for (let i = 0; i < 12; i += 1) {
    await signIn(page, { clientId: credentials.admin.clientId, clientSecret: `wrong-${i}` });
    await expect(alert).toBeVisible();
    if ((await alert.textContent())?.includes('Too many sign-in attempts')) break;
  }
  await expect(alert).toContainText(/Too many sign-in attempts\. Try again in \d+ s\./);
});
