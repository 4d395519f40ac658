// The Overview's charts in Chromium, in both profiles: counts by status and severity, records
// created per day over the last 30 days and the oldest open records, per record type. Every count
// must equal the API's `total` for the same filter, and every chart segment must open the records
// list with that filter and that many records. Refunds are the steady subject (no other spec
// writes them); tickets change under other specs, so their status and severity bars are compared
// after a reload until the two agree, and their created-per-day points only on past days.
import type { Locator, Page } from '@playwright/test';

import type { ApiClient, Definition, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { definitionByHandle, expect, saveScreenshot, test, totalOf } from '../fixtures.ts';

/** A definition's card on the Overview. */
function card(page: Page, definition: Definition): Locator {
  return page.locator(`[data-testid="definition-overview"][data-alias="${definition.alias}"]`);
}

/** The bars of a card once every count has arrived: filter -> count. */
async function barCounts(section: Locator): Promise<Map<string, number>> {
  const bars = section.getByTestId('chart-bar');
  await expect(bars.first()).toBeVisible();
  await expect(section.locator('[data-testid="chart-bar"]:not([data-count])')).toHaveCount(0);
  const counts = new Map<string, number>();
  for (const bar of await bars.all()) {
    const filter = await bar.getAttribute('data-filter');
    const count = await bar.getAttribute('data-count');
    if (filter === null || count === null) throw new Error('a bar without filter or count');
    counts.set(filter, Number(count));
  }
  return counts;
}

/** What the API counts for each of those filters. */
async function apiCounts(
  api: ApiClient,
  definition: Definition,
  filters: Iterable<string>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const filter of filters) {
    const reply = await api.searchRecords(definition.recordType as RecordType, definition.alias, {
      filter,
      first: 1,
    });
    counts.set(filter, totalOf(reply));
  }
  return counts;
}

/** Follows a chart link and checks the list it opens: that filter, that many records. */
async function expectListOf(page: Page, link: Locator, definition: Definition) {
  const filter = await link.getAttribute('data-filter');
  const count = Number(await link.getAttribute('data-count'));
  expect(filter).not.toBeNull();
  await link.click();
  await expect(page).toHaveURL(
    new RegExp(`/records/${definition.recordType}/${definition.alias}\\?`),
  );
  expect(new URL(page.url()).searchParams.get('filter')).toBe(filter);
  await expect(page.getByTestId('active-filter')).toHaveText(filter ?? '');
  await expect(page.getByTestId('records-status')).toContainText(
    `of ${count.toLocaleString('en-US')} ${count === 1 ? 'record' : 'records'}`,
  );
}

test.describe('overview charts', () => {
  // Dozens of counts per record type on a 2-core machine shared with the stack.
  test.describe.configure({ timeout: 120_000 });

  test('counts equal the API totals, and each segment opens its filtered list', async ({
    page,
    login,
    definitions,
    adminApi,
    tickets,
    profile,
    axe,
  }) => {
    const refunds = definitionByHandle(definitions, 'REF');
    await login('admin');
    await expect(page.getByTestId('overview-charts')).toBeVisible();

    // Refunds: by status; no severity picklist, so one chart of bars.
    const refundsCard = card(page, refunds);
    await expect(refundsCard.getByRole('figure', { name: /by status/i })).toBeVisible();
    await expect(refundsCard.getByRole('figure', { name: /by severity/i })).toHaveCount(0);
    const refundBars = await barCounts(refundsCard);
    expect([...refundBars.keys()]).toEqual(
      expect.arrayContaining([
        'Status==Requested',
        'Status==Approved',
        'Status==Rejected',
        'Status==Paid',
      ]),
    );
    expect(refundBars).toEqual(await apiCounts(adminApi, refunds, refundBars.keys()));
    // Open = the statuses that do not end a refund (Rejected and Paid do).
    const openLink = refundsCard.getByTestId('open-count');
    await expect(openLink).toHaveAttribute('data-filter', 'Status=in=(Requested,Approved)');
    const openCount = Number(await openLink.getAttribute('data-count'));
    expect(openCount).toBe(
      (refundBars.get('Status==Requested') ?? 0) + (refundBars.get('Status==Approved') ?? 0),
    );
    expect(
      (await apiCounts(adminApi, refunds, ['Status=in=(Requested,Approved)'])).get(
        'Status=in=(Requested,Approved)',
      ),
    ).toBe(openCount);

    // Tickets: status and severity bars; other specs write tickets meanwhile, so compare fresh
    // reads until a quiet moment lets them agree.
    const ticketsCard = card(page, tickets);
    await expect(ticketsCard.getByRole('figure', { name: /by status/i })).toBeVisible();
    await expect(ticketsCard.getByRole('figure', { name: /by severity/i })).toBeVisible();
    await expect
      .poll(
        async () => {
          await page.reload();
          const shown = await barCounts(card(page, tickets));
          const counted = await apiCounts(adminApi, tickets, shown.keys());
          return [...shown].every(([filter, count]) => counted.get(filter) === count)
            ? shown.size
            : 'differs';
        },
        { timeout: 60_000, intervals: [1_000, 3_000, 5_000] },
      )
      .toBeGreaterThanOrEqual(10);

    // Created per day: 30 points, each its day's count; past days cannot change under us.
    const days = card(page, tickets).getByTestId('chart-day');
    await expect(days).toHaveCount(30);
    const pastDays: { filter: string; count: number }[] = [];
    for (const day of (await days.all()).slice(0, 29)) {
      pastDays.push({
        filter: (await day.getAttribute('data-filter')) ?? '',
        count: Number(await day.getAttribute('data-count')),
      });
    }
    const countedDays = await apiCounts(
      adminApi,
      tickets,
      pastDays.map((d) => d.filter),
    );
    for (const day of pastDays) expect(countedDays.get(day.filter)).toBe(day.count);
    expect(pastDays.some((day) => day.count > 0)).toBe(true);
    await expect(card(page, tickets).getByRole('link', { name: /: [\d,]+ created$/ })).toHaveCount(
      30,
    );

    // Oldest open: five open tickets, oldest first, each opening its record.
    const oldest = card(page, tickets).getByTestId('oldest-open');
    await expect(oldest).toHaveCount(5);
    if (profile === 'hosted') {
      await expect(card(page, tickets)).toContainText('the open records were read and sorted here');
    }
    const oldestLinks = card(page, tickets).getByTestId('oldest-open').getByRole('link');
    await expect(oldestLinks).toHaveCount(5);

    await axe('overview charts');
    await saveScreenshot(page, 'overview-charts');

    // The table fallback shows the same counts, linked the same way.
    const toggle = refundsCard.getByRole('button', { name: 'Show as table' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    const table = refundsCard.getByRole('table', { name: /Refunds by Status/i });
    await expect(table).toBeVisible();
    for (const [filter, count] of refundBars) {
      await expect(
        refundsCard.locator(`[data-testid="table-count"][data-filter="${filter}"]`),
      ).toHaveText(new RegExp(`^${count.toLocaleString('en-GB')}`));
    }
    await axe('overview as tables');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');

    // A status bar opens the list with its filter and exactly its count.
    const requested = refundsCard.locator(
      '[data-testid="chart-bar"][data-filter="Status==Requested"]',
    );
    await expectListOf(page, requested, refunds);

    // The open count opens the open records.
    await page.goBack();
    await expectListOf(page, card(page, refunds).getByTestId('open-count'), refunds);

    // A day's point opens the list of the records created that day.
    await page.goBack();
    const busyDay = card(page, tickets)
      .locator('[data-testid="chart-day"]:not([data-count="0"])')
      .first();
    await expectListOf(page, busyDay, tickets);

    // The oldest open record opens in its panel, and it is open.
    await page.goBack();
    const first = card(page, tickets).getByTestId('oldest-open').getByRole('link').first();
    const handle = (await first.locator('.font-mono').textContent()) ?? '';
    await first.click();
    await expect(page.getByRole('dialog')).toContainText(handle);
    const { record } = await adminApi.getRecord(
      tickets.recordType as RecordType,
      tickets.alias,
      handle,
    );
    expect(recordHandle(record, tickets)).toBe(handle);
    expect(['Resolved', 'Closed']).not.toContain(record['Status']);
  });

  test('record types the service cannot list are named, not charted', async ({
    page,
    login,
    definitions,
    profile,
  }) => {
    const customers = definitionByHandle(definitions, 'CUS');
    await login('admin');
    await expect(page.getByTestId('overview-charts')).toBeVisible();
    if (profile === 'extended') {
      // No status or severity picklist: only the created-per-day line.
      const customersCard = card(page, customers);
      await expect(customersCard.getByTestId('chart-day')).toHaveCount(30);
      await expect(customersCard.getByTestId('chart-bar')).toHaveCount(0);
      await expect(page.getByTestId('overview-unlisted')).toHaveCount(0);
    } else {
      await expect(card(page, customers)).toHaveCount(0);
      await expect(page.getByTestId('overview-unlisted')).toContainText(
        `No charts for ${customers.name}: this service cannot list its records`,
      );
    }
  });
});
