// Saved views in Chromium, by keyboard: save the list's filter/sort as a named view (stored by
// the BFF), see it in the sidebar, refuse a duplicate name, share it as a link that reproduces the
// list for another user, make a view the definition's default, and delete it.
import type { Page } from '@playwright/test';

import { definitionByHandle, expect, saveScreenshot, signIn, test } from '../fixtures.ts';

/** Removes this spec's views through the BFF (the page's session), whatever happened. */
async function deleteViews(page: Page, names: string[]) {
  const res = await page.request.get('/bff/views');
  if (!res.ok()) return;
  const { items } = (await res.json()) as { items: { id: string; name: string }[] };
  for (const view of items.filter((v) => names.includes(v.name))) {
    await page.request.delete(`/bff/views/${view.id}`, { headers: { 'X-CSRF': '1' } });
  }
}

async function saveViewByKeyboard(page: Page, name: string, button = 'Save view') {
  await page.getByRole('button', { name: button }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  return dialog;
}

test.describe('saved views', () => {
  // Several sign-ins and a second browser context on a shared 2-core machine.
  test.describe.configure({ timeout: 90_000 });
  test('save a view, list it in the sidebar, share its link, refuse a duplicate, delete it', async ({
    page,
    login,
    tickets,
    axe,
    browser,
    creds,
  }) => {
    const name = `Pending by priority ${Date.now().toString(36)}`;
    await login('admin');
    try {
      await page.goto(
        `${tickets.url}?filter=${encodeURIComponent('Status==Pending')}&sort=-Priority`,
      );
      await expect(page.getByTestId('records-status')).toContainText('loaded of');

      const dialog = await saveViewByKeyboard(page, name);
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/[?&]view=[0-9a-f-]{36}/);
      const sidebar = page.getByRole('navigation', { name: 'Records' });
      const link = sidebar.getByRole('link', { name });
      await expect(link).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('button', { name: `View: ${name}` })).toBeVisible();
      await axe('records list with a saved view');
      await saveScreenshot(page, 'saved-view');

      // A second view of the same name for this definition: 409, said next to the field.
      const again = await saveViewByKeyboard(page, name, 'Save as new view');
      await expect(again.getByText('You already have a view with this name here.')).toBeVisible();
      await axe('duplicate view name');
      await page.keyboard.press('Escape');
      await expect(again).toBeHidden();

      // Drifting from the view marks it modified; the sidebar link brings it back.
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect(page.getByTestId('view-modified')).toBeVisible();
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('active-filter')).toHaveText('Status==Pending');
      await expect(page.getByTestId('view-modified')).toHaveCount(0);

      // The link reproduces the list for someone else (the agent: no such view of their own).
      const shared = page.url();
      const other = await browser.newContext({
        baseURL: process.env.E2E_BASE_URL,
        timezoneId: 'Europe/Paris',
        locale: 'en-GB',
      });
      const agent = await other.newPage();
      await agent.goto(shared);
      await signIn(agent, creds.agent);
      await expect(agent.getByTestId('active-filter')).toHaveText('Status==Pending');
      await expect(agent.getByRole('columnheader', { name: 'Priority' })).toHaveAttribute(
        'aria-sort',
        'descending',
      );
      await other.close();

      // Delete from the view menu, by keyboard.
      await page.getByRole('button', { name: `View: ${name}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Delete view…' }).focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog', { name: `Delete “${name}”?` });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Delete view' }).focus();
      await page.keyboard.press('Enter');
      await expect(confirm).toBeHidden();
      await expect(link).toHaveCount(0);
      await expect(page).not.toHaveURL(/view=/);
    } finally {
      await deleteViews(page, [name]);
    }
  });

  test('a default view opens when entering its definition', async ({
    page,
    login,
    definitions,
  }) => {
    // Refunds: no other spec browses them as the admin, so an admin default here disturbs nobody.
    // (In the hosted profile refunds have no handle: listed, not openable; views work the same.)
    const refunds = definitionByHandle(definitions, 'REF');
    const url = `/records/${refunds.recordType}/${refunds.alias}`;
    const name = `Requested refunds ${Date.now().toString(36)}`;
    await login('admin');
    try {
      await page.goto(`${url}?filter=${encodeURIComponent('Status==Requested')}`);
      await expect(page.getByTestId('records-status')).toContainText('loaded of');
      await expect(await saveViewByKeyboard(page, name)).toBeHidden();

      await page.getByRole('button', { name: `View: ${name}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Open by default' }).focus();
      await page.keyboard.press('Enter');
      const sidebar = page.getByRole('navigation', { name: 'Records' });
      await expect(sidebar.getByRole('link', { name }).getByLabel('Default view')).toBeVisible();

      // Enter the definition from elsewhere: its default view opens.
      await page.goto('/');
      // The definition's own link comes first (the saved view's name also says "refunds").
      await sidebar.getByRole('link', { name: refunds.name }).first().click();
      await expect(page).toHaveURL(/view=/);
      await expect(page.getByTestId('active-filter')).toHaveText('Status==Requested');
      // Clearing the filter in place stays cleared (no redirect back to the default).
      await page.getByRole('button', { name: 'Clear' }).click();
      await expect(page.getByTestId('active-filter')).toHaveCount(0);
    } finally {
      await deleteViews(page, [name]);
    }
  });
});
