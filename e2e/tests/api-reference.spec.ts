// The workspace API's browsable reference (`/v1/docs`, an extension): Swagger UI, self-hosted, over
// the document generated from the same zod schemas as the handlers, rendered in Chromium under its
// strict CSP with no violation. In the hosted profile, as every extension, it is not there.
import { expect, saveScreenshot, test } from '../fixtures.ts';

test('the API reference renders every operation under a strict CSP (extended), or is absent (hosted)', async ({
  page,
  profile,
}) => {
  const apiURL = process.env.E2E_API_URL ?? '';
  if (profile === 'hosted') {
    // Not mounted: without a token the hosted profile answers 401 before routing, as the service.
    const res = await page.request.get(`${apiURL}/v1/docs`);
    expect([401, 404]).toContain(res.status());
    expect(res.headers()['content-type']).not.toContain('text/html');
    return;
  }
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(apiURL) && !request.url().startsWith('data:'))
      outside.push(request.url());
  });

  const res = await page.goto(`${apiURL}/v1/docs`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: /Records and Workspace API/ })).toBeVisible();
  // Operations from the generated document, grouped by tag.
  const users = page.locator('.opblock-summary-path', { hasText: /^\/v1\/users$/ }).first();
  await expect(users).toBeVisible();
  await expect(
    page.locator('.opblock-summary-path', { hasText: '/v1/{recordType}/{alias}' }).first(),
  ).toBeVisible();
  await users.click();
  await expect(page.getByText('has_previous_page').first()).toBeVisible();
  await saveScreenshot(page, 'api-reference');

  expect(violations).toEqual([]);
  expect(outside).toEqual([]);
});
