// The command palette in Chromium, by keyboard: Ctrl+K loads it on demand, then jumps to a record
// by id, to a record type, to a saved view, to a person and a group, and runs a page action.
import type { Page } from '@playwright/test';

import { expect, handleOf, scriptRequests, test } from '../fixtures.ts';

async function openPalette(page: Page) {
  // The shell (and its key listener) must be up, e.g. right after a reload.
  await expect(page.getByRole('button', { name: /Search or jump to/ })).toBeVisible();
  await page.keyboard.press('Control+K');
  const input = page.getByRole('combobox', { name: /Search commands/ });
  await expect(input).toBeFocused();
  return input;
}

test.describe('command palette', () => {
  test.describe.configure({ timeout: 90_000 });

  test('loads on demand and jumps to records, types, views, people, groups and actions', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
    creds,
  }) => {
    const scripts = scriptRequests(page);
    await login('admin');
    await page.waitForLoadState('networkidle');
    expect(scripts.some((url) => url.includes('command-palette'))).toBe(false);

    // A record by id: the handle prefix names the definition.
    const { items } = await adminApi.searchRecords(tickets.recordType, tickets.alias, { first: 1 });
    const recordId = handleOf(items[0]?.data ?? {}, tickets);
    let input = await openPalette(page);
    expect(scripts.some((url) => url.includes('command-palette'))).toBe(true);
    await axe('command palette');
    await input.fill(recordId.toLowerCase());
    await expect(page.getByRole('option', { name: `Open ${recordId}` })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${tickets.url}/${recordId}$`));
    await expect(page.getByRole('dialog')).toContainText(recordId);
    await page.keyboard.press('Escape');

    // A record type. Customers are elements: the hosted service cannot list them, so there the
    // page opens them by handle and offers no triage.
    input = await openPalette(page);
    await page.keyboard.type('customers');
    await expect(page.getByRole('option', { name: /^Customers/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/records\/elements\/customers$/);
    if (profile === 'hosted') {
      await expect(
        page.getByRole('heading', { name: 'Customers cannot be listed here' }),
      ).toBeVisible();
      input = await openPalette(page);
      await page.keyboard.type('enter triage');
      await expect(page.getByRole('option', { name: 'Enter triage' })).toHaveCount(0);
      await page.keyboard.press('Escape');
    }

    // An action of the current page: enter triage (of tasks, which both services can list).
    input = await openPalette(page);
    await page.keyboard.type('tasks');
    await expect(page.getByRole('option', { name: /^Tasks/ })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/records\/tasks\/tasks$/);
    input = await openPalette(page);
    await page.keyboard.type('enter triage');
    await expect(page.getByRole('option', { name: 'Enter triage' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/records\/tasks\/tasks\/triage/);
    await expect(page.getByRole('heading', { name: 'Triage', level: 1 })).toBeVisible();

    // A saved view (made through the BFF), found by name; arrow keys reach it.
    const name = `Palette view ${Date.now().toString(36)}`;
    const created = await page.request.post('/bff/views', {
      headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
      data: {
        name,
        recordType: tickets.recordType,
        alias: tickets.alias,
        filter: 'Severity==Critical',
        sort: '',
        columns: [],
      },
    });
    expect(created.status()).toBe(201);
    const view = (await created.json()) as { id: string };
    try {
      await page.reload();
      input = await openPalette(page);
      await page.keyboard.type(name);
      await expect(page.getByRole('option', { name: new RegExp(name) })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`view=${view.id}`));
      await expect(page.getByTestId('active-filter')).toHaveText('Severity==Critical');
    } finally {
      await page.request.delete(`/bff/views/${view.id}`, { headers: { 'X-CSRF': '1' } });
    }

    // A person (searched on /users) and a group: their pages.
    const agent = (await adminApi.listUsers({ filter: `email==${creds.agent.email}` })).items[0];
    if (!agent) throw new Error('no demo agent');
    input = await openPalette(page);
    await page.keyboard.type(agent.lastName);
    const person = page.getByRole('option', { name: new RegExp(agent.email) });
    await expect(person).toBeVisible();
    while ((await person.getAttribute('aria-selected')) !== 'true') {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/users/${agent.id}$`));

    const group = (await adminApi.listGroups({ first: 100 })).items.find((g) =>
      g.name.includes('Tier 1'),
    );
    if (!group) throw new Error('no Tier 1 group');
    input = await openPalette(page);
    await page.keyboard.type('tier 1');
    const option = page.getByRole('option', { name: group.name });
    await expect(option).toBeVisible();
    while ((await option.getAttribute('aria-selected')) !== 'true') {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/groups/${group.id}$`));

    // Escape closes it; Ctrl+K toggles.
    input = await openPalette(page);
    await page.keyboard.press('Escape');
    await expect(input).toBeHidden();
  });
});
