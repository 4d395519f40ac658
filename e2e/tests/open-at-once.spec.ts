// Navigation at the floor (issue 27 item 4): a record opens from its row at once and is read
// behind it; a row or a sidebar entry the pointer rests on for a moment starts its request, so
// the click finds it under way or done, and nothing is requested twice.
import type { Page, Request } from '@playwright/test';

import type { Fixtures } from '../fixtures.ts';
import {
  createTaggedQueue,
  definitionByHandle,
  expect,
  scriptRequests,
  test,
  withoutLiveEvents,
} from '../fixtures.ts';

/** Every GET the console sends through the BFF: its path, and `?first=N` when it pages. */
function recordGets(page: Page) {
  const paths: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname.startsWith('/api/v1/')) {
      const first = url.searchParams.get('first');
      paths.push(`${decodeURIComponent(url.pathname)}${first ? `?first=${first}` : ''}`);
    }
  });
  return paths;
}

/**
 * Two new tickets ("Printer", "Scanner") under a fresh tag, signed in as the admin, on the list
 * filtered to them: their handles and a locator of a row by handle.
 */
async function twoTaggedRows(
  {
    page,
    login,
    tickets,
    adminApi,
  }: Pick<Fixtures, 'login' | 'tickets' | 'adminApi'> & { page: Page },
  prefix: string,
) {
  const tag = `${prefix} ${Date.now().toString(36)}`;
  const [first = '', second = ''] = await createTaggedQueue(adminApi, tickets, tag, [
    'Printer',
    'Scanner',
  ]);
  await login('admin');
  await page.goto(`${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}`);
  const rowOf = (id: string) => page.locator(`tr[data-row-id="${id}"]`);
  return { tag, first, second, rowOf };
}

test.describe('open at once', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a row the pointer rests on is read once; opening it asks nothing more', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    // The page's clock is ours to stop (it runs as usual until then): see the pass below.
    await page.clock.install();
    const { tag, first, second, rowOf } = await twoTaggedRows(
      { page, login, tickets, adminApi },
      'Intent',
    );
    await expect(rowOf(second)).toBeVisible();
    await page.waitForLoadState('networkidle');
    const gets = recordGets(page);
    const pathOf = (id: string) => `/api/v1/${tickets.recordType}/${tickets.alias}/${id}`;

    // Passing over the first row on the way to the second starts nothing for the first. The page's
    // time stands still during the pass, so a slow machine cannot turn the pass into a rest.
    const box = await rowOf(first).boundingBox();
    const target = await rowOf(second).boundingBox();
    if (!box || !target) throw new Error('rows not laid out');
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.mouse.move(box.x + 200, box.y + box.height / 2);
    await page.mouse.move(target.x + 200, target.y + target.height / 2, { steps: 2 });
    await page.clock.resume();
    await expect.poll(() => gets.filter((p) => p === pathOf(second)).length).toBe(1);
    expect(gets.filter((p) => p === pathOf(first))).toEqual([]);

    await rowOf(second).click();
    const panel = page.getByRole('dialog');
    await expect(panel.getByLabel('Title')).toHaveValue(`Scanner (${tag})`);
    await page.waitForLoadState('networkidle');
    expect(gets.filter((p) => p === pathOf(second))).toHaveLength(1);
  });

  test('a record opened from its row shows at once, then the record read behind it', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    const tag = `Seed ${Date.now().toString(36)}`;
    const [id = ''] = await createTaggedQueue(adminApi, tickets, tag, ['Printer']);
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}`);
    const row = page.locator(`tr[data-row-id="${id}"]`);
    await expect(row).toBeVisible();
    // The record's read is held: the panel must show from the row alone.
    const path = `/api/v1/${tickets.recordType}/${tickets.alias}/${encodeURIComponent(id)}`;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        await released;
        await route.fallback();
      },
    );
    await row.getByRole('link', { name: id }).click();
    const panel = page.getByRole('dialog');
    await expect(panel.getByLabel('Title')).toHaveValue(`Printer (${tag})`);
    await expect(panel.getByTestId('record-seeded')).toBeVisible();
    release();
    await expect(panel.getByTestId('record-seeded')).toHaveCount(0);
    await expect(panel.getByLabel('Title')).toHaveValue(`Printer (${tag})`);
  });

  test("the record panel's code is there before the first record is opened", async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    const tag = `Code ${Date.now().toString(36)}`;
    const [id = ''] = await createTaggedQueue(adminApi, tickets, tag, ['Printer']);
    const scripts = scriptRequests(page);
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}`);
    const row = page.locator(`tr[data-row-id="${id}"]`);
    await expect(row).toBeVisible();
    // The list, left alone, fetches the panel's route chunk (`$id.tsx`) while nothing else runs.
    await expect.poll(() => scripts.some((p) => /\/_id-[\w-]+\.js$/.test(p))).toBe(true);
    await page.waitForLoadState('networkidle');
    const before = scripts.length;
    await row.getByRole('link', { name: id }).click();
    await expect(page.getByRole('dialog').getByLabel('Title')).toHaveValue(`Printer (${tag})`);
    expect(scripts.slice(before)).toEqual([]);
  });

  test('the list stays live beside an open record: another row opens in its place', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    const { tag, first, second, rowOf } = await twoTaggedRows(
      { page, login, tickets, adminApi },
      'Beside',
    );
    await rowOf(first).getByRole('link', { name: first }).click();
    const panel = page.getByRole('dialog');
    await expect(panel.getByLabel('Title')).toHaveValue(`Printer (${tag})`);
    // Not modal (ADR 0033): nothing outside the panel is hidden from assistive technology.
    await expect(panel).not.toHaveAttribute('aria-modal', 'true');
    await expect(page.getByTestId('records-status')).toBeVisible();
    // The row of the open record says so (the panel is beside it, not over it).
    await expect(rowOf(first)).toHaveAttribute('aria-current', 'true');

    // A click on another row, beside the open panel, opens that record in the same panel.
    await rowOf(second).getByRole('link', { name: second }).click();
    await expect(panel.getByLabel('Title')).toHaveValue(`Scanner (${tag})`);
    await expect(page).toHaveURL(new RegExp(`/${encodeURIComponent(second)}(\\?|$)`));
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expect(rowOf(second)).toHaveAttribute('aria-current', 'true');
    await expect(rowOf(first)).not.toHaveAttribute('aria-current');

    // Focus on the list (the row's link), Escape closes the panel and the list stays.
    await expect(rowOf(second).getByRole('link', { name: second })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(rowOf(first)).toBeVisible();
    await expect(rowOf(second)).not.toHaveAttribute('aria-current');
  });

  test('unsaved edits are asked about before another row replaces them', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    const { tag, first, second, rowOf } = await twoTaggedRows(
      { page, login, tickets, adminApi },
      'Unsaved',
    );
    await rowOf(first).getByRole('link', { name: first }).click();
    const panel = page.getByRole('dialog', { name: new RegExp(first) });
    await panel.getByLabel('Title').fill('Printer, half typed');

    await rowOf(second).getByRole('link', { name: second }).click();
    const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expect(ask).toContainText(`Your changes to ${first} are not saved`);
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await expect(ask).toHaveCount(0);
    await expect(panel.getByLabel('Title')).toHaveValue('Printer, half typed');
    await expect(page).toHaveURL(new RegExp(`/${encodeURIComponent(first)}(\\?|$)`));

    // Another tab of the same record is not leaving it: nothing is asked, the edit stays.
    await panel.getByRole('tab', { name: 'Comments' }).click();
    await panel.getByRole('tab', { name: 'Details' }).click();
    await expect(panel.getByLabel('Title')).toHaveValue('Printer, half typed');

    await rowOf(second).getByRole('link', { name: second }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await expect(page.getByRole('dialog').getByLabel('Title')).toHaveValue(`Scanner (${tag})`);
    // Discarded, not saved.
    const stored = await adminApi.getRecord(tickets.recordType, tickets.alias, first);
    expect(stored.record.Title).toBe(`Printer (${tag})`);
  });

  test('a sidebar entry the pointer rests on starts its first rows', async ({
    page,
    login,
    definitions,
  }) => {
    const tasks = definitionByHandle(definitions, 'TSK');
    // Other sessions' saves of tasks would make the list check its first page: a second read.
    await withoutLiveEvents(page);
    await login('admin');
    await page.waitForLoadState('networkidle');
    const gets = recordGets(page);
    // The first page of the list (the Overview's counts ask for one record, `first=1`).
    const listPath = `/api/v1/${tasks.recordType}/${tasks.alias}?first=100`;
    const link = page.getByRole('navigation', { name: 'Records' }).getByRole('link', {
      name: new RegExp(tasks.name),
    });
    await link.hover();
    await expect.poll(() => gets.filter((p) => p === listPath).length).toBe(1);
    await link.click();
    await expect(page.getByTestId('records-status')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(gets.filter((p) => p === listPath)).toHaveLength(1);
  });
});
