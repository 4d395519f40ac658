import { expect, saveScreenshot, test } from '../fixtures.ts';

test.describe('records table', () => {
  test('typed columns, sorting with aria-sort, column chooser, paging; the URL reproduces the view', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const { total } = await adminApi.searchRecords(tickets.recordType, tickets.alias, { first: 1 });
    expect(total, 'the demo seed should have more than one page of tickets').toBeGreaterThan(100);
    await login('admin');
    await page.goto(tickets.url);
    const table = page.getByRole('table');
    await expect(table).toBeVisible();
    await expect(page.getByTestId('records-status')).toHaveText(
      `100 loaded of ${total.toLocaleString('en-GB')} records`,
    );
    await axe('records list');
    await saveScreenshot(page, '05-records-list');

    // Sort: ascending, then descending; aria-sort follows and the URL carries it.
    const priority = page.getByRole('columnheader', { name: 'Priority' });
    await priority.getByRole('button').click();
    await expect(priority).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sort=Priority/);
    await priority.getByRole('button').click();
    await expect(priority).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/sort=-Priority/);
    const expected = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
      first: 1,
      sort: '-Priority',
    });
    const topId = expected.items[0]?.data.id ?? '';
    await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(topId);

    // Column chooser: hide Priority, show Customer.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Priority' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Customer' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'Priority' })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Customer' })).toBeVisible();
    await expect(page).toHaveURL(/cols=/);

    // Load more appends the next cursor page.
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.getByTestId('records-status')).toContainText(/^200 loaded/);

    // Next page moves the view's start cursor into the URL.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/cursor=/);
    // The previous rows stay on screen until the new page arrives: wait for the new view.
    await expect(page.getByTestId('records-status')).toContainText(/^100 loaded/);
    const firstOnPage = await table.getByRole('row').nth(1).getByRole('link').textContent();

    // Reload and a pasted link reproduce it; Back/Forward walk the history of views.
    const url = page.url();
    await page.reload();
    await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(firstOnPage ?? '');
    await expect(page.getByRole('columnheader', { name: 'Customer' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Priority' })).toHaveCount(0);
    const fresh = await page.context().newPage();
    await fresh.goto(url);
    await expect(fresh.getByRole('table').getByRole('row').nth(1).getByRole('link')).toHaveText(
      firstOnPage ?? '',
    );
    await fresh.close();

    await page.goBack();
    await expect(page).not.toHaveURL(/cursor=/);
    await page.goForward();
    await expect(page).toHaveURL(/cursor=/);
  });

  test('row click and Enter open the record at its own URL', async ({ page, login, tickets }) => {
    await login('admin');
    await page.goto(`${tickets.url}?sort=${encodeURIComponent('-Created At')}`);
    const firstLink = page.getByRole('table').getByRole('row').nth(1).getByRole('link');
    const id = (await firstLink.textContent()) ?? '';
    await firstLink.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${tickets.url}/${id}\\?sort=`));
    await expect(page.getByRole('dialog')).toContainText(id);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${tickets.url}\\?sort=`));

    // A click anywhere on the row opens it too.
    await page.getByRole('table').getByRole('row').nth(2).getByRole('cell').nth(1).click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test("dates show in the viewer's time zone", async ({ page, login, tickets, adminApi }) => {
    // The 20th ticket: other specs edit the first ones concurrently.
    const { items } = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
      first: 20,
    });
    const record = items[19]?.data;
    if (!record) throw new Error('no record');
    await login('admin');
    await page.goto(
      `${tickets.url}?filter=${encodeURIComponent(`id==${record.id}`)}&cols=${encodeURIComponent(JSON.stringify(['id', 'Updated At']))}`,
    );
    const cell = page.getByRole('row').nth(1).locator('time');
    const stored = record['Updated At'] ?? '';
    await expect(cell).toHaveAttribute('dateTime', stored);
    // The browser runs in Europe/Paris (playwright.config.ts): the text is local, not UTC.
    const local = new Intl.DateTimeFormat('en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Paris',
    }).format(new Date(stored));
    await expect(cell).toHaveText(local);
  });
});
