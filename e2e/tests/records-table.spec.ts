import type { Locator } from '@playwright/test';

import { auditField, expect, handleOf, saveScreenshot, test, totalOf } from '../fixtures.ts';

/** The text of one column in the rendered rows. */
async function columnTexts(table: Locator, header: string): Promise<string[]> {
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.trim() === header) + 1;
  const cells = await table.locator(`tbody tr td:nth-child(${index})`).allTextContents();
  return cells.map((text) => text.trim());
}

/** True when the numbers (empty last) never increase. */
function descending(values: string[]): boolean {
  const numbers = values.map((v) => (v === '' ? -Infinity : Number(v)));
  return numbers.every((n, i) => i === 0 || n <= (numbers[i - 1] ?? Infinity));
}

test.describe('records table', () => {
  test('a page load asks for the first page alongside the definitions, not after them', async ({
    page,
    login,
    tickets,
  }) => {
    await login('admin');
    // The definitions take their time (400 ms more): a first page that waited for them would start
    // after they arrive.
    await page.route('**/bff/definitions', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    // A full page load: nothing cached, the session, the definitions and the first page to fetch.
    await page.goto(tickets.url);
    await expect(page.getByTestId('records-status')).toContainText(/^100 loaded/);
    // Resource Timing, in the page's own clock: when the first page's request started, and when
    // the definitions' response had arrived.
    const timing = await page.evaluate((listPath) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const at = (path: string) => entries.find((e) => new URL(e.name).pathname === path);
      return {
        recordsStart: at(listPath)?.startTime,
        definitionsEnd: at('/bff/definitions')?.responseEnd,
      };
    }, `/api/v1/${tickets.recordType}/${tickets.alias}`);
    expect(timing.recordsStart).toBeDefined();
    expect(timing.definitionsEnd).toBeDefined();
    expect(timing.recordsStart ?? Infinity).toBeLessThan(timing.definitionsEnd ?? 0);
  });

  test('typed columns, sorting with aria-sort, column chooser, paging; the URL reproduces the view', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
  }) => {
    const total = totalOf(
      await adminApi.searchRecords(tickets.recordType, tickets.alias, { first: 1 }),
    );
    expect(total, 'the demo seed should have more than one page of tickets').toBeGreaterThan(100);
    await login('admin');
    await page.goto(tickets.url);
    const table = page.getByRole('table');
    await expect(table).toBeVisible();
    // Other specs create tickets meanwhile: at least the total read above.
    await expect(page.getByTestId('records-status')).toHaveText(/^100 loaded of [\d,]+ records$/);
    const shown = (await page.getByTestId('records-status').textContent()) ?? '';
    expect(Number(/of ([\d,]+)/.exec(shown)?.[1]?.replace(/,/g, ''))).toBeGreaterThanOrEqual(total);
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
    if (profile === 'extended') {
      const expected = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
        first: 1,
        sort: '-Priority',
      });
      const topId = handleOf(expected.items[0]?.data ?? {}, tickets);
      await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(topId);
      await expect(page.getByTestId('local-sort-note')).toHaveCount(0);
    } else {
      // The hosted service cannot sort: the loaded rows are sorted in the browser, and it says so.
      const note = page.getByTestId('local-sort-note');
      await expect(note).toContainText(
        'Sorted within the 100 loaded records only: this service cannot sort',
      );
      await expect(note.getByRole('button', { name: /^Load all [\d,]+ and sort$/ })).toBeVisible();
      await expect.poll(async () => descending(await columnTexts(table, 'Priority'))).toBe(true);
      await saveScreenshot(page, '05-records-local-sort');
    }

    // Column chooser: hide Priority, show Customer.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Priority' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Customer' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'Priority' })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Customer' })).toBeVisible();
    await expect(page).toHaveURL(/cols=/);

    // Load more appends the next cursor page, three times the size of the first (growing pages).
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.getByTestId('records-status')).toContainText(/^400 loaded/);

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
    // Newest first: on the server (extended) or within the loaded rows (hosted).
    await page.goto(
      `${tickets.url}?sort=${encodeURIComponent(`-${auditField(tickets, 'created')}`)}`,
    );
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
    // `id` and `Updated At` in our API; `Ticket ID` and `Updated on` in the hosted description.
    const handleField = tickets.handleField ?? 'id';
    const updated = auditField(tickets, 'updated');
    await login('admin');
    await page.goto(
      `${tickets.url}?filter=${encodeURIComponent(`${handleField}==${handleOf(record, tickets)}`)}&cols=${encodeURIComponent(JSON.stringify([handleField, updated]))}`,
    );
    const cell = page.getByRole('row').nth(1).locator('time');
    const stored = record[updated] ?? '';
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
