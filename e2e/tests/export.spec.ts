// Export in Chromium: a list's Export writes every matching row, in the list's order and visible
// columns, and the file parses back to what the API returns. The download path (no File System
// Access API: it is removed before the page loads) is read from Playwright's download event; the
// save-dialog path uses a stand-in for `showSaveFilePicker` that keeps what is written. A 429 on
// one page is waited out (Retry-After); Cancel stops the export and saves nothing.
import { readFile } from 'node:fs/promises';

import type { ApiClient, RecordData, User } from '@wsc/api-client';

import { parseCsv } from '../../apps/web/src/testing/parse-csv.ts';
import { definitionByHandle, expect, saveScreenshot, test, totalOf } from '../fixtures.ts';

/** Every page of a cursor-paged list, 1,000 at a time. */
async function everything<T>(
  list: (after: string | undefined) => Promise<{
    items: T[];
    paging: { has_next_page: boolean; end_cursor: string | null };
  }>,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await list(after);
    items.push(...page.items);
    if (!page.paging.has_next_page || !page.paging.end_cursor) return items;
    after = page.paging.end_cursor;
  }
}

/**
 * What the export must write for one API value: dates in ISO 8601 UTC, numbers as they are in a
 * number field, and text a spreadsheet would run as a formula behind an apostrophe.
 */
function expectedCell(value: string | undefined, type: string | undefined): string {
  if (!value) return '';
  if ((type === 'NUMBER' || type === 'DECIMAL') && Number.isFinite(Number(value))) return value;
  let text = value;
  if (type === 'DATE' && /^\d{4}-\d{2}-\d{2}/.test(value)) text = value.slice(0, 10);
  if (type === 'DATETIME' && !Number.isNaN(Date.parse(value))) text = new Date(value).toISOString();
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The field behind a CSV header: `ID` is our API's `id`, date headers end in ` (UTC)`. */
function fieldOfHeader(header: string): string {
  const name = header.replace(/ \(UTC\)$/, '');
  return name === 'ID' ? 'id' : name;
}

/** A CSV file's rows, without the UTF-8 byte order mark. */
function csvRows(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return parseCsv(text.slice(1));
}

test.describe('export', () => {
  test.describe.configure({ timeout: 120_000 });

  test('records: the CSV of the whole list has the API total and parses back to its values', async ({
    page,
    login,
    definitions,
    adminApi,
    profile,
    axe,
  }) => {
    // Refunds: no other spec writes them. The filter holds every refund (amounts are never
    // negative) and keeps the saved-views spec's default view of the plain list out of the way.
    const refunds = definitionByHandle(definitions, 'REF');
    const filter = 'Amount=ge=0';
    // Our API sorts (the export follows the list's sort); the hosted one keeps its own order.
    const sort = profile === 'extended' ? '-Amount' : undefined;
    const all = totalOf(
      await adminApi.searchRecords(refunds.recordType, refunds.alias, { first: 1 }),
    );
    const expected = await everything((after) =>
      adminApi.searchRecords(refunds.recordType, refunds.alias, {
        filter,
        sort,
        first: 1000,
        after,
      }),
    );
    expect(expected.length).toBe(all);

    // The download path: this browser has no save dialog API.
    await page.addInitScript(() => {
      delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    const pageSizes: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith(`/${refunds.alias}`) && url.searchParams.get('first') === '1000')
        pageSizes.push(url.searchParams.get('first') ?? '');
    });
    await login('admin');
    const search = new URLSearchParams({ filter, ...(sort ? { sort } : {}) });
    await page.goto(`/records/${refunds.recordType}/${refunds.alias}?${search}`);
    await expect(page.getByTestId('records-status')).toContainText(`of ${all} records`);
    const visible = (await page.locator('thead th[aria-sort] button').allInnerTexts()).map((text) =>
      text.trim(),
    );

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Export ${refunds.name}` });
    await expect(dialog).toContainText(`${all} rows match`);
    await expect(dialog).toContainText('ISO 8601 in UTC');
    await expect(dialog.getByRole('radio', { name: /CSV/ })).toBeChecked();
    await axe('export dialog');
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^${refunds.alias}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    await expect(dialog.getByTestId('export-result')).toHaveText(
      new RegExp(`Exported ${all} rows as ${refunds.alias}-.*\\.csv`),
    );
    await saveScreenshot(page, 'export-done');
    // One request per 1,000 rows, the largest page the API allows.
    expect(pageSizes).toHaveLength(Math.ceil(all / 1000));

    const [header = [], ...rows] = csvRows(await readFile(await download.path(), 'utf8'));
    // The visible columns, in order; date columns say UTC.
    expect(header.map((h) => h.replace(/ \(UTC\)$/, ''))).toEqual(visible);
    const types = new Map(refunds.fields.map((f) => [f.name, f.type]));
    for (const h of header) {
      const type = types.get(fieldOfHeader(h));
      expect(h.endsWith(' (UTC)')).toBe(type === 'DATE' || type === 'DATETIME');
    }
    expect(rows).toHaveLength(all);
    const fields = header.map(fieldOfHeader);
    const want = expected.map(({ data }: { data: RecordData }) =>
      fields.map((field) => expectedCell(data[field], types.get(field))),
    );
    expect(rows).toEqual(want);
  });

  test('a page answered 429 is waited out, and Cancel stops the export and saves nothing', async ({
    page,
    login,
    tickets,
    profile,
  }) => {
    await page.addInitScript(() => {
      delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    // The export's second page is rate limited once; its third waits until the test lets it go.
    let limited = false;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const exportPages: string[] = [];
    await page.route(`**/api/v1/${tickets.recordType}/${tickets.alias}?*`, async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get('first') !== '1000') return route.continue();
      exportPages.push(url.searchParams.get('after') ?? 'first');
      if (exportPages.length === 2 && !limited) {
        limited = true;
        const body =
          profile === 'hosted'
            ? { contentType: 'application/json', body: JSON.stringify({ message: 'Slow down' }) }
            : {
                contentType: 'application/problem+json',
                body: JSON.stringify({
                  type: 'about:blank',
                  title: 'Too Many Requests',
                  status: 429,
                }),
              };
        return route.fulfill({ status: 429, headers: { 'retry-after': '2' }, ...body });
      }
      if (exportPages.length >= 4) await held;
      return route.continue().catch(() => undefined);
    });
    let downloads = 0;
    page.on('download', () => (downloads += 1));

    await login('admin', tickets.url);
    await expect(page.getByTestId('records-status')).toContainText('loaded');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Export ${tickets.name}` });
    await dialog.getByRole('radio', { name: /Excel/ }).check();
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();

    const progress = dialog.getByTestId('export-progress');
    await expect(progress).toContainText('the service asked to slow down; going on in 2 s');
    await expect(progress).toHaveText(/^2,000 (of [\d,]+ )?rows written$/, { timeout: 15_000 });
    await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    // The second page was asked again after the wait, with the same cursor.
    expect(exportPages[1]).toBe(exportPages[2]);

    await dialog.getByRole('button', { name: 'Cancel export' }).click();
    await expect(dialog.getByTestId('export-result')).toHaveText(
      'Export cancelled; nothing was saved.',
    );
    release();
    await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeEnabled();
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
    // Nothing more was asked after the cancel.
    expect(exportPages).toHaveLength(4);
  });

  test("a group's members, through the browser's save dialog, match the API", async ({
    page,
    login,
    adminApi,
  }) => {
    const group = await quietGroup(adminApi);
    const members = await everything((after) =>
      adminApi.listGroupMembers(group.id, { first: 1000, after }),
    );

    // A stand-in for the save dialog: keeps the file name and every chunk written.
    await page.addInitScript(() => {
      const saved: { name?: string; chunks: number[][]; closed: boolean } = {
        chunks: [],
        closed: false,
      };
      (window as { __saved?: typeof saved }).__saved = saved;
      (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = async (options: {
        suggestedName: string;
      }) => {
        saved.name = options.suggestedName;
        return {
          createWritable: async () => ({
            write: async (chunk: Uint8Array) => void saved.chunks.push(Array.from(chunk)),
            close: async () => void (saved.closed = true),
            abort: async () => undefined,
          }),
        };
      };
    });
    await login('admin', `/groups/${group.id}`);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Export members of ${group.name}` });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(dialog.getByTestId('export-result')).toHaveText(
      new RegExp(`Exported ${members.length} rows? to group-members-.*\\.csv`),
    );
    const saved = await page.evaluate(() => {
      const { name, chunks, closed } = (
        window as unknown as { __saved: { name: string; chunks: number[][]; closed: boolean } }
      ).__saved;
      return { name, closed, text: new TextDecoder().decode(new Uint8Array(chunks.flat())) };
    });
    expect(saved.closed).toBe(true);
    expect(saved.name).toMatch(/^group-members-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = parseCsv(saved.text.replace(/^\uFEFF/, ''));
    expect(header).toEqual(['Name', 'Email', 'Job title', 'Status']);
    expect(rows.map((row) => row[1])).toEqual(members.map((user: User) => user.email));
    expect(rows.map((row) => row[3])).toEqual(
      members.map((user: User) =>
        user.status === 'ACTIVE' ? 'Active' : user.status === 'INACTIVE' ? 'Inactive' : '',
      ),
    );
  });
});

/** A demo group with members that no other spec changes (not Billing, not Customer Success). */
async function quietGroup(api: ApiClient) {
  const { items } = await api.listGroups({ first: 100 });
  for (const group of items) {
    if (group.dynamic || ['Billing', 'Customer Success'].includes(group.name)) continue;
    if (totalOf(await api.listGroupMembers(group.id, { first: 1 })) >= 2) return group;
  }
  throw new Error('no demo group with members to export');
}
