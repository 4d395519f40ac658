// Optimistic writes (ADR 0028) in Chromium, both profiles: a triage key paints the new value
// before its write returns, marked "Saving…" on the field and the queue item; a write the route
// holds and then refuses rolls back that record alone and says why on the status line, while a
// write to another record meanwhile is stored; the user stays where they are. Leaving the page
// while a write is on its way asks first.
import type { Page, Route } from '@playwright/test';

import type { Definition } from '@wsc/api-client';

import { createTaggedQueue, expect, saveScreenshot, test } from '../fixtures.ts';

const currentId = (page: Page) => page.getByTestId('triage-record-id');
const statusLine = (page: Page) => page.getByTestId('triage-status');
const queueItem = (page: Page, id: string) => page.locator(`li[data-row-id="${id}"]`);
const statusGroup = (page: Page) => page.getByRole('group', { name: 'Status' });

/** The record's PUTs wait here until the test lets them go: concurrency without timing. */
function holdPuts(page: Page, definition: Definition, id: string) {
  const held: Route[] = [];
  const path = `/api/v1/${definition.recordType}/${definition.alias}/${encodeURIComponent(id)}`;
  const ready = page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== 'PUT') return route.fallback();
      held.push(route);
    },
  );
  return { held, ready };
}

/** The values of the tickets' Status picklist (keys 1..9 set them). */
function statusValues(definition: Definition): string[] {
  const values = definition.fields.find((f) => f.name === 'Status')?.values;
  if (!values || values.length < 3) throw new Error('the tickets have no Status picklist');
  return values;
}

async function openTriage(page: Page, url: string, tag: string, first: string) {
  const filter = `Customer=='${tag}'`;
  await page.goto(`${url}?filter=${encodeURIComponent(filter)}`);
  await expect(page.getByTestId('records-status')).toContainText('of 2 records');
  await page.getByRole('link', { name: 'Triage' }).click();
  await expect(currentId(page)).toHaveText(first);
  await expect(statusGroup(page)).toBeVisible();
}

test.describe('optimistic writes', () => {
  // Held writes, two records and an axe run: beside three CPU hogs one test passed 90 s (in axe).
  test.describe.configure({ timeout: 150_000 });

  test('a triage key paints before its write returns', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    const tag = `Paint ${Date.now().toString(36)}`;
    const [id = ''] = await createTaggedQueue(adminApi, tickets, tag, ['Printer', 'Scanner']);
    const [, second = ''] = statusValues(tickets);
    const hold = holdPuts(page, tickets, id);
    await hold.ready;
    await login('admin');
    await openTriage(page, tickets.url, tag, id);

    await page.keyboard.press('2');
    // Shown while the request is still held (it is released a second later, below).
    await expect(statusGroup(page).getByRole('button', { pressed: true })).toContainText(second);
    await expect(statusGroup(page).getByRole('status')).toHaveText('Saving…');
    await expect(queueItem(page, id)).toContainText(second);
    await expect(queueItem(page, id)).toContainText('Saving…');
    await expect.poll(() => hold.held.length).toBe(1);
    expect((await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record.Status).toBe(
      'New',
    );

    // Leaving the page now would abort the write: the browser asks first, and staying keeps it.
    const asked = page.waitForEvent('dialog');
    const leaving = page.evaluate(() => window.location.reload()).catch(() => undefined);
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await leaving;
    await expect(statusGroup(page).getByRole('status')).toHaveText('Saving…');

    await page.waitForTimeout(1_000);
    await hold.held[0]?.fallback();
    await expect(statusLine(page)).toHaveText(`${id}: Status → ${second}. Press u to undo.`);
    await expect(statusGroup(page).getByRole('status')).toBeEmpty();
    await expect(queueItem(page, id)).not.toContainText('Saving…');
    expect((await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record.Status).toBe(
      second,
    );
  });

  test('a refused write rolls back that record alone and says why; another record’s is stored', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const tag = `Refuse ${Date.now().toString(36)}`;
    const [first = '', other = ''] = await createTaggedQueue(adminApi, tickets, tag, [
      'Printer',
      'Scanner',
    ]);
    const values = statusValues(tickets);
    const [, second = '', third = ''] = values;
    const hold = holdPuts(page, tickets, first);
    await hold.ready;
    await login('admin');
    await openTriage(page, tickets.url, tag, first);

    // The first record's write is held on the wire; its new status shows at once, pending.
    await page.keyboard.press('2');
    await expect(statusGroup(page).getByRole('status')).toHaveText('Saving…');
    await expect(queueItem(page, first)).toContainText(second);
    await expect.poll(() => hold.held.length).toBe(1);
    await axe('triage with a write pending');
    await saveScreenshot(page, 'optimistic-pending');

    // Meanwhile, on the next record, a write goes through.
    await page.keyboard.press('j');
    await expect(currentId(page)).toHaveText(other);
    await page.keyboard.press('3');
    await expect(statusLine(page)).toHaveText(`${other}: Status → ${third}. Press u to undo.`);
    await expect(queueItem(page, first)).toContainText('Saving…');

    // The held write is refused: that record alone goes back, and the status line says why.
    await hold.held[0]?.fulfill({
      status: 422,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Unprocessable Content',
        status: 422,
        detail: 'Status cannot change while the customer is on hold',
      }),
    });
    await expect(statusLine(page)).toHaveText(
      `${first}: Status → ${second} not saved, rolled back. Some values were not accepted (Status cannot change while the customer is on hold).`,
    );
    await expect(queueItem(page, first)).toContainText('New');
    await expect(queueItem(page, first)).not.toContainText('Saving…');
    await expect(queueItem(page, other)).toContainText(third);
    // The user's place is kept: the second record, still current and focused on the queue.
    await expect(currentId(page)).toHaveText(other);
    await expect(page).toHaveURL(new RegExp(`id=${other}`));
    await axe('triage after a rollback');
    await saveScreenshot(page, 'optimistic-rollback');

    const stored = async (id: string) =>
      (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record.Status;
    expect(await stored(first)).toBe('New');
    expect(await stored(other)).toBe(third);
  });

  test('the record panel saves at once, marked Saving…; a refusal rolls back and keeps my value', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const tag = `Panel ${Date.now().toString(36)}`;
    const [id = ''] = await createTaggedQueue(adminApi, tickets, tag, ['Printer']);
    const hold = holdPuts(page, tickets, id);
    await hold.ready;
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}`);
    const row = page.locator(`tr[data-row-id="${id}"]`);
    await expect(row).toContainText('Printer');
    await row.getByRole('link', { name: id }).click();
    const panel = page.getByRole('dialog');
    await expect(panel.getByLabel('Priority')).toHaveValue('1');

    await panel.getByLabel('Priority').fill('3');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    const priority = panel.locator('[data-field="Priority"]');
    await expect(priority.getByRole('status')).toHaveText('Saving…');
    await expect(panel.getByText('Unsaved changes')).toHaveCount(0);
    await expect.poll(() => hold.held.length).toBe(1);
    await axe('record panel with a save pending');
    await saveScreenshot(page, 'optimistic-panel-pending');

    await hold.held[0]?.fulfill({
      status: 403,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        detail: 'Only the team lead may change the priority of this ticket.',
      }),
    });
    await expect(panel.getByRole('alert')).toContainText('Only the team lead may change');
    await expect(priority.getByRole('status')).toBeEmpty();
    // My value stays in the form, unsaved; the record is back as stored.
    await expect(panel.getByLabel('Priority')).toHaveValue('3');
    await expect(panel.getByText('Unsaved changes')).toBeVisible();
    await axe('record panel after a refused save');
    await saveScreenshot(page, 'optimistic-panel-refused');
    expect((await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record.Priority).toBe(
      '1',
    );
  });
});
