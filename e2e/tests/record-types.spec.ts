// What each demo record type offers in each profile. Our API lists every record type, sorts on the
// server and gives every record an `id`. The hosted service cannot list elements (its
// `GET /elements/{alias}` is getElement), cannot sort, and the demo's refunds carry no handle: the
// console says so and offers what still works (open by handle, sort the loaded rows or load them
// all, list records it cannot open).
import {
  definitionByHandle,
  expect,
  handleOf,
  saveScreenshot,
  test,
  totalOf,
} from '../fixtures.ts';

test.describe('record types in each profile', () => {
  test('customers: listed (extended) or opened by handle (hosted)', async ({
    page,
    login,
    adminApi,
    definitions,
    profile,
    axe,
  }) => {
    const customers = definitionByHandle(definitions, 'CUS');
    const url = `/records/${customers.recordType}/${customers.alias}`;
    // Customer 7 of the seed; read behind the console's back, by handle (both profiles can).
    const handle = `${customers.handle}-7`;
    const { record } = await adminApi.getRecord('elements', customers.alias, handle);
    const name = record[customers.titleField ?? 'Name'] ?? '';
    expect(name).not.toBe('');
    await login('admin');
    await page.goto(url);

    if (profile === 'extended') {
      await expect(page.getByRole('heading', { level: 1, name: customers.name })).toBeVisible();
      await expect(page.getByTestId('records-status')).toContainText(/loaded of [\d,]+ records/);
      await page.getByRole('table').getByRole('link', { name: handle, exact: true }).click();
    } else {
      await expect(
        page.getByRole('heading', { name: 'Customers cannot be listed here' }),
      ).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      await axe('customers: open by handle');
      await saveScreenshot(page, 'customers-open-by-handle');
      const input = page.getByLabel('Handle', { exact: true });
      // Another record type's handle is refused before anything is asked.
      await input.fill('SUP-1');
      await page.getByRole('button', { name: 'Open' }).click();
      await expect(page.getByRole('alert')).toHaveText('Customers handles start with CUS-');
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      // No queue to triage either: the page says so instead of failing.
      await page.goto(`${url}/triage`);
      await expect(
        page.getByRole('heading', { name: 'Customers cannot be triaged here' }),
      ).toBeVisible();
      await page.getByRole('link', { name: 'Open by handle' }).click();
      // A bare number is completed with the prefix.
      await input.fill('7');
      await page.getByRole('button', { name: 'Open' }).click();
    }
    await expect(page).toHaveURL(new RegExp(`${url}/${handle}$`));
    const panel = page.getByRole('dialog');
    await expect(panel).toContainText(handle);
    await expect(panel.getByLabel(/^Name/)).toHaveValue(name);

    // An unknown handle is a plain 404 in the panel, in both profiles.
    await page.goto(`${url}/${customers.handle}-999999`);
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText('Not found');
  });

  test('refunds: openable (extended) or listed with the reason they cannot be opened (hosted)', async ({
    page,
    login,
    definitions,
    profile,
    axe,
  }) => {
    const refunds = definitionByHandle(definitions, 'REF');
    // With a filter: the saved-views spec may make a default view of the plain list meanwhile.
    const list = `/records/${refunds.recordType}/${refunds.alias}?filter=${encodeURIComponent('Amount=ge=0')}`;
    await login('admin');
    await page.goto(list);
    const rows = page.getByRole('table').locator('tbody tr[aria-rowindex]');
    await expect(rows.first()).toBeVisible();

    if (profile === 'extended') {
      await expect(rows.first().getByRole('link')).toHaveText(/^REF-\d+$/);
      await expect(page.locator('tr[data-unopenable]')).toHaveCount(0);
    } else {
      const reason =
        'This record type has no handle field in the workspace description, so its records can be listed but not opened.';
      const first = rows.first();
      await expect(first).toHaveAttribute('data-unopenable', 'true');
      await expect(first).toHaveAttribute('title', reason);
      await expect(first).toContainText(`Cannot be opened: ${reason}`);
      await expect(rows.getByRole('link')).toHaveCount(0);
      // No selection checkbox either: a bulk change names records by their handle.
      await expect(rows.getByRole('checkbox')).toHaveCount(0);
      await axe('refunds: not openable');
      await saveScreenshot(page, 'refunds-not-openable');
      const before = page.url();
      await first.click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(page.url()).toBe(before);
    }

    // Triage works a queue of records it can open: in the hosted profile there is none here.
    await page.getByRole('link', { name: 'Triage' }).click();
    await expect(page.getByRole('heading', { name: 'Triage', level: 1 })).toBeVisible();
    if (profile === 'extended') {
      await expect(page.getByTestId('triage-record-id')).toHaveText(/^REF-\d+$/);
      await expect(page.getByTestId('triage-skipped')).toHaveCount(0);
    } else {
      await expect(page.getByTestId('triage-skipped')).toHaveText(
        /^[\d,]+ without a handle left out$/,
      );
      await expect(page.getByRole('heading', { name: 'Nothing to triage' })).toBeVisible();
      await expect(
        page.getByText(/matching records have no handle, so they cannot be opened here/),
      ).toBeVisible();
    }
  });

  test('sorting: on the server (extended) or the loaded rows, then all of them (hosted)', async ({
    page,
    login,
    tickets,
    adminApi,
    profile,
  }) => {
    const filter = 'Severity==Critical';
    const total = totalOf(
      await adminApi.searchRecords(tickets.recordType, tickets.alias, { filter, first: 1 }),
    );
    expect(total, 'more critical tickets than one page').toBeGreaterThan(100);
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(filter)}&sort=-Priority`);
    const status = page.getByTestId('records-status');
    await expect(status).toContainText(/^100 loaded of/);
    const note = page.getByTestId('local-sort-note');
    const table = page.getByRole('table');
    const priorities = async () => {
      const headers = await table.getByRole('columnheader').allTextContents();
      const column = headers.findIndex((text) => text.trim() === 'Priority') + 1;
      const cells = await table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
      return cells.map((text) => (text.trim() === '' ? -Infinity : Number(text.trim())));
    };
    const descending = (values: number[]) =>
      values.every((n, i) => i === 0 || n <= (values[i - 1] ?? Infinity));

    if (profile === 'extended') {
      await expect(note).toHaveCount(0);
      const top = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
        filter,
        sort: '-Priority',
        first: 1,
      });
      await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(
        handleOf(top.items[0]?.data ?? {}, tickets),
      );
      return;
    }
    await expect(note).toContainText('Sorted within the 100 loaded records only');
    await expect.poll(async () => descending(await priorities())).toBe(true);
    // Everything that matches fits under the 5,000 limit: load it all, then the order is exact.
    await note.getByRole('button', { name: /^Load all [\d,]+ and sort$/ }).click();
    await expect(note).toContainText(/^Sorted in the browser: all [\d,]+ records are loaded\.$/, {
      timeout: 30_000,
    });
    await expect(status).toHaveText(/^([\d,]+) loaded of \1 records$/);
    await expect.poll(async () => descending(await priorities())).toBe(true);
    // The most urgent of them all is on top, whatever page it came from.
    const everything = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
      filter,
      first: 1000,
    });
    const highest = Math.max(
      ...everything.items.map((item) => Number(item.data['Priority'] || -Infinity)),
    );
    expect((await priorities())[0]).toBe(highest);
  });
});
