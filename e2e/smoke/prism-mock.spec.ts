// The console against `prism mock -d` (smoke/global-setup.ts): every reply is random data the
// published contract allows, optional keys left out at random. Whatever comes, each page must
// render its data or its empty state, never an error panel, and nothing may throw in the page.
// Random data is the point, so this runs several times (run-suites.ts) and is never retried.
import type { Page } from '@playwright/test';

import { expect, saveScreenshot, test } from '../fixtures.ts';

/** Waits until the page has stopped loading, then fails listing any alert it shows. */
async function expectNoErrors(page: Page, where: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const alerts = await page.getByRole('alert').allTextContents();
  expect(alerts, `alerts on ${where}`).toEqual([]);
}

test('every page copes with whatever the published contract allows', async ({ page }) => {
  test.setTimeout(120_000);
  const thrown: string[] = [];
  page.on('pageerror', (error) => thrown.push(error.message));

  await page.goto('/sign-in');
  // The hosted service names nobody and no identities file is configured: the email is offered.
  await expect(page.getByLabel(/Your email/)).toBeVisible();
  await page.getByLabel('Client ID').fill('mock-client');
  await page.getByLabel('Client secret').fill('mock-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveText('mock-client');

  // The sidebar: the described workspace, whatever counts the service makes up.
  const sidebar = page.getByRole('navigation', { name: 'Records' });
  for (const name of ['Support Tickets', 'Customers', 'Tasks', 'Refunds']) {
    await expect(sidebar.getByRole('link', { name: new RegExp(name) })).toBeVisible();
  }
  await expectNoErrors(page, 'the overview');
  await saveScreenshot(page, 'overview');

  // A records list: rows (openable or not, as their handles allow) or the empty state.
  await page.goto('/records/apps/support-tickets');
  await expect(page.getByTestId('records-status')).not.toHaveText('Loading records…');
  await expectNoErrors(page, 'the tickets list');
  await saveScreenshot(page, 'records-list');

  // A record panel by its URL, and each of its tabs.
  await page.goto('/records/apps/support-tickets/SUP-1');
  const panel = page.getByRole('dialog');
  await expect(panel).toContainText('SUP-1');
  await expect(panel.getByLabel(/^Title/)).toBeVisible();
  await expectNoErrors(page, 'the record panel');
  await saveScreenshot(page, 'record-panel');
  for (const tab of ['Comments', 'Attachments', 'Watchers', 'Related']) {
    await panel.getByRole('tab', { name: tab }).click();
    await expect(panel.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    await expectNoErrors(page, `the record's ${tab} tab`);
  }
  await page.keyboard.press('Escape');

  // Elements cannot be listed: they open by handle.
  await page.goto('/records/elements/customers');
  await expect(
    page.getByRole('heading', { name: 'Customers cannot be listed here' }),
  ).toBeVisible();
  await page.getByLabel('Handle', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('dialog')).toContainText('CUS-1');
  await expectNoErrors(page, 'a customer');
  await page.keyboard.press('Escape');

  // Triage of the same list.
  await page.goto('/records/apps/support-tickets/triage');
  await expect(page.getByRole('heading', { name: 'Triage', level: 1 })).toBeVisible();
  await expectNoErrors(page, 'triage');

  // Users, and the first one's page.
  await page.goto('/users');
  await expect(page.getByTestId('users-status')).not.toHaveText(/Loading/);
  await expectNoErrors(page, 'the users list');
  await saveScreenshot(page, 'users');
  const person = page.getByRole('table', { name: 'Users' }).getByRole('link').first();
  if ((await person.count()) > 0) {
    await person.click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoErrors(page, 'a user page');
  }

  // Groups, and the first one's page.
  await page.goto('/groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await expectNoErrors(page, 'the groups list');
  await saveScreenshot(page, 'groups');
  const group = page.getByRole('table', { name: 'Groups' }).getByRole('link').first();
  if ((await group.count()) > 0) {
    await group.click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoErrors(page, 'a group page');
  }

  expect(thrown, 'errors thrown in the page').toEqual([]);
});
