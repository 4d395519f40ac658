// The live queue and the stale-save diff in Chromium, two people at once (ADR 0025): the admin
// (A) creates and changes tickets, in their console or through the API, while the agent (B) has
// the same list open in a second browser context. Changes made outside the console are found by
// B's poll of the first page every 20 s (B's clock is Playwright's fake clock, fast-forwarded past
// one interval instead of waiting); changes made in A's console reach B at once through the BFF's
// live events (ADR 0023). A new record appears behind a "1 new" banner and merges in without
// moving the row under B's eyes; a changed field is updated in place with no banner; B's save
// over A's change opens the diff dialog. The list is sorted by Title: by the server in the
// extended profile, in the browser in the hosted one.
import type { Locator, Page } from '@playwright/test';

import {
  expect,
  expectNoAxeViolations,
  handleOf,
  saveScreenshot,
  signedInPerson,
  test,
} from '../fixtures.ts';

/** The list's poll interval (LIVE_POLL_INTERVAL_MS), and a little more. */
const PAST_ONE_POLL = 21_000;

/** Opens a record's panel, changes its fields and saves, waiting for the PUT to succeed. */
async function editInPanel(page: Page, url: string, values: Record<string, string>) {
  await page.goto(url);
  const panel = page.getByRole('dialog');
  for (const [label, value] of Object.entries(values)) {
    const field = panel.getByLabel(new RegExp(`^${label}`));
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PUT' && response.url().includes('/api/v1/'),
  );
  await panel.getByRole('button', { name: 'Save changes' }).click();
  expect((await saved).status()).toBe(200);
  await expect(panel.getByText('Unsaved changes')).toHaveCount(0);
}

/** How far a paused clock moves per step while waiting for live news, in ms of its time. */
const STEP_MS = 250;

/**
 * Moves a page's paused clock in steps of {@link STEP_MS} until `assertion` holds, and answers how
 * far it moved. Each failed look waits half a second of real time, so a slow machine spends real
 * time, not the page's: the page's clock moves only by the steps, whatever the load.
 */
async function advanceUntil(page: Page, assertion: () => Promise<void>): Promise<number> {
  for (let moved = 0; ; moved += STEP_MS) {
    try {
      await assertion();
      return moved;
    } catch (error) {
      if (moved >= PAST_ONE_POLL) throw error;
    }
    await page.clock.runFor(STEP_MS);
  }
}

/** The on-screen top of a row, in CSS pixels. */
async function topOf(row: Locator): Promise<number> {
  const box = await row.boundingBox();
  if (!box) throw new Error('the row is not on screen');
  return box.y;
}

test.describe('live queue', () => {
  // Two people, two sign-ins, several saves on a shared 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test('B sees A’s new record behind a banner, A’s change in place, and a diff on a stale save', async ({
    page,
    login,
    tickets,
    adminApi,
    browser,
    creds,
  }) => {
    const stamp = Date.now().toString(36);
    const tag = `lq-${stamp}`;
    const title = (n: number) => `Live ${stamp} ${String(n).padStart(2, '0')}`;
    // 30 tickets of this test's own, titled 10..39: more than B's table shows at once.
    const ids = new Map<number, string>();
    const numbers = Array.from({ length: 30 }, (_, i) => i + 10);
    await Promise.all(
      numbers.map(async (n) => {
        const record = await adminApi.createRecord(tickets.recordType, tickets.alias, {
          Title: title(n),
          Status: 'New',
          Customer: tag,
        });
        ids.set(n, handleOf(record, tickets));
      }),
    );
    const listUrl = `${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}&sort=Title`;

    // A, the admin, is signed in (A's console edits come later).
    await login('admin');

    // B, the agent, opens the list with a clock the test can move.
    const b = await signedInPerson(browser, creds.agent, { fakeClock: true });
    try {
      await b.page.goto(listUrl);
      const status = b.page.getByTestId('records-status');
      await expect(status).toContainText(/^30 loaded/);
      const rowOf = (n: number) => b.page.getByRole('row').filter({ hasText: title(n) });
      await expect(rowOf(10)).toBeVisible();

      // B scrolls a few rows down and points at one.
      await b.page.getByTestId('records-scroll').evaluate((el) => {
        el.scrollTop = 5 * 37;
      });
      const watched = rowOf(18);
      await watched.hover();
      const before = await topOf(watched);

      // A ticket is created outside the console (an integration, the API itself): no live event
      // tells B's console, the poll of the first page finds it. It sorts first in B's list.
      await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: title(0),
        Status: 'New',
        Customer: tag,
      });

      // Nothing moves in B's list until the poll: then a banner, and still nothing moves.
      const banner = b.page.getByRole('button', { name: /^1 new record/ });
      await expect(banner).toHaveCount(0);
      await b.page.clock.fastForward(PAST_ONE_POLL);
      await expect(banner).toBeVisible();
      await expect(banner).toHaveText('1 new');
      await expect(b.page.getByTestId('live-queue-banner')).toHaveAttribute('aria-live', 'polite');
      await expect(status).toContainText(/^30 loaded/);
      expect(Math.abs((await topOf(watched)) - before)).toBeLessThanOrEqual(1);
      await saveScreenshot(b.page, 'live-queue-banner');
      await expectNoAxeViolations(b.page, 'records list with the live-queue banner');

      // Merging (from the keyboard, the pointer still on the row) keeps that row where it is.
      await banner.focus();
      await b.page.keyboard.press('Enter');
      await expect(status).toContainText(/^31 loaded/);
      await expect(banner).toHaveCount(0);
      expect(Math.abs((await topOf(watched)) - before)).toBeLessThanOrEqual(1);
      // The new record is in its sorted place, first, above what B is looking at.
      await b.page.getByTestId('records-scroll').evaluate((el) => {
        el.scrollTop = 0;
      });
      await expect(b.page.locator('tbody tr[aria-rowindex="2"]')).toContainText(title(0));
      await expect(b.page.locator('tbody tr[aria-rowindex="3"]')).toContainText(title(10));

      // A changes a field of a ticket B holds: after the poll, the new value in place, no banner.
      const changed = rowOf(12);
      const place = await changed.getAttribute('aria-rowindex');
      await expect(changed).not.toContainText('Pending');
      await editInPanel(page, `${tickets.url}/${ids.get(12)}`, { Status: 'Pending' });
      await b.page.clock.fastForward(PAST_ONE_POLL);
      await expect(changed).toContainText('Pending');
      await expect(changed).toHaveAttribute('aria-rowindex', place ?? '');
      await expect(b.page.getByRole('button', { name: /new record/ })).toHaveCount(0);
      await expect(status).toContainText(/^31 loaded/);

      // A moves a ticket out of B's filter: B keeps the row until a reload, marked as gone.
      await adminApi.updateRecord(tickets.recordType, tickets.alias, ids.get(20) ?? '', {
        Customer: `${tag}-elsewhere`,
      });
      await b.page.clock.fastForward(PAST_ONE_POLL);
      await expect(rowOf(20)).toHaveAttribute('data-departed', 'true');
      await expect(rowOf(20)).toContainText('no longer in this view');
      await expect(rowOf(19)).not.toHaveAttribute('data-departed');
      await expect(status).toContainText(/^31 loaded/);

      // B opens a ticket; A changes its title meanwhile; B's save shows the difference.
      const stale = ids.get(15) ?? '';
      await rowOf(15).getByRole('link', { name: stale }).click();
      const panel = b.page.getByRole('dialog', { name: new RegExp(`^${stale}`) });
      const titleField = panel.getByLabel(/^Title/);
      await expect(titleField).toHaveValue(title(15));
      await editInPanel(page, `${tickets.url}/${stale}`, { Title: `${title(15)} (A)` });
      // B may still hold A's "editing" presence when it steps into the field (the update that
      // A is only viewing again can arrive after A's save; CI saw it), and is then asked "Alex is
      // editing this record. Edit anyway?" (presence.spec.ts covers that dialog): B edits anyway
      // whenever it shows, and types again if the question took the focus before the text.
      await b.page.addLocatorHandler(
        b.page.getByRole('dialog', { name: /is editing this record/ }),
        (guard) => guard.getByRole('button', { name: 'Edit anyway' }).click(),
      );
      await expect(async () => {
        await titleField.fill(`${title(15)} (B)`);
        await expect(titleField).toHaveValue(`${title(15)} (B)`, { timeout: 1_000 });
      }).toPass();
      await panel.getByRole('button', { name: 'Save changes' }).click();
      const conflict = b.page.getByRole('dialog', { name: 'Someone else changed this record' });
      await expect(conflict).toBeVisible();
      const rows = conflict.getByTestId('conflict-fields').getByRole('row');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toHaveText(
        new RegExp(`^Title\\s*${title(15)}\\s*${title(15)} \\(A\\)\\s*${title(15)} \\(B\\)$`),
      );
      await saveScreenshot(b.page, 'live-queue-stale-diff');
      await expectNoAxeViolations(b.page, 'stale-save diff dialog');
      const stored = await adminApi.getRecord(tickets.recordType, tickets.alias, stale);
      expect(stored.record.Title).toBe(`${title(15)} (A)`);
      // "Reload latest version" keeps B's edit on top of A's version.
      await conflict.getByRole('button', { name: 'Reload latest version' }).click();
      await expect(conflict).toHaveCount(0);
      await expect(panel.getByLabel(/^Title/)).toHaveValue(`${title(15)} (B)`);
    } finally {
      await b.context.close();
    }
  });

  test('the triage queue is live too: a new record merges without moving the current one', async ({
    tickets,
    adminApi,
    browser,
    creds,
    profile,
  }) => {
    const stamp = Date.now().toString(36);
    const tag = `lqt-${stamp}`;
    const title = (n: number) => `Queue ${stamp} ${String(n).padStart(2, '0')}`;
    // 20 tickets, titled 10..29: more than the queue shows at once, so it can scroll.
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) =>
        handleOf(
          await adminApi.createRecord(tickets.recordType, tickets.alias, {
            Title: title(i + 10),
            Status: 'New',
            Customer: tag,
          }),
          tickets,
        ),
      ),
    );
    const b = await signedInPerson(browser, creds.agent, { fakeClock: true });
    try {
      await b.page.goto(
        `${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}&sort=Title`,
      );
      await expect(b.page.getByTestId('records-status')).toContainText(/^20 loaded/);
      await b.page.getByRole('link', { name: 'Triage' }).click();
      const position = b.page.getByTestId('triage-position');
      await expect(position).toHaveText('1 of 20');
      await b.page.keyboard.press('j');
      await b.page.keyboard.press('j');
      await expect(position).toHaveText('3 of 20');
      // The third in the queue's order (by Title, or the service's order in the hosted profile).
      const currentId = (await b.page.getByTestId('triage-record-id').textContent()) ?? '';
      const list = b.page.getByTestId('triage-list');
      const current = list.locator(`[data-row-id="${currentId}"]`);
      await current.hover();
      const before = await topOf(current);

      // A creates a ticket: it sorts first by Title (extended) or comes last in the service's
      // order (hosted, which cannot sort).
      await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: title(0),
        Status: 'New',
        Customer: tag,
      });
      await b.page.clock.fastForward(PAST_ONE_POLL);
      const banner = b.page.getByRole('button', { name: /^1 new record/ });
      await expect(banner).toBeVisible();
      await expect(position).toHaveText('3 of 20');
      expect(Math.abs((await topOf(current)) - before)).toBeLessThanOrEqual(1);
      await saveScreenshot(b.page, 'live-queue-triage');
      await banner.focus();
      await b.page.keyboard.press('Enter');
      await expect(position).toHaveText(profile === 'hosted' ? '3 of 21' : '4 of 21');
      await expect(b.page.getByTestId('triage-record-id')).toHaveText(currentId);
      expect(Math.abs((await topOf(current)) - before)).toBeLessThanOrEqual(1);

      // A sets the status of a queued ticket: the queue shows it in place, with no banner.
      const other = list.locator(`[data-row-id="${ids[4]}"]`);
      await expect(other).not.toContainText('Pending');
      await adminApi.updateRecord(tickets.recordType, tickets.alias, ids[4] ?? '', {
        Status: 'Pending',
      });
      await b.page.clock.fastForward(PAST_ONE_POLL);
      await expect(other).toContainText('Pending');
      await expect(b.page.getByRole('button', { name: /new record/ })).toHaveCount(0);
      await expect(position).toHaveText(profile === 'hosted' ? '3 of 21' : '4 of 21');
    } finally {
      await b.context.close();
    }
  });

  test('a change made in a console reaches the others’ lists through the live events, before any poll', async ({
    page,
    login,
    tickets,
    adminApi,
    browser,
    creds,
  }) => {
    const stamp = Date.now().toString(36);
    const tag = `lqe-${stamp}`;
    const title = (n: number) => `Event ${stamp} ${String(n).padStart(2, '0')}`;
    const ids = await Promise.all(
      [10, 11, 12].map(async (n) =>
        handleOf(
          await adminApi.createRecord(tickets.recordType, tickets.alias, {
            Title: title(n),
            Status: 'New',
            Customer: tag,
          }),
          tickets,
        ),
      ),
    );
    // A, the admin, has the second ticket's panel open before B's list is.
    await login('admin');
    await page.goto(`${tickets.url}/${ids[1]}`);
    await expect(page.getByRole('dialog').getByLabel(/^Title/)).toHaveValue(title(11));

    // B, the agent, with their clock paused before their list opens: it moves only by the steps
    // the test takes while it waits for B's screen, in all less than one poll interval (20 s), so
    // anything B sees came through the BFF's live events, however slow the machine is.
    const b = await signedInPerson(browser, creds.agent, { fakeClock: true });
    try {
      const now = await b.page.evaluate(() => Date.now());
      await b.page.clock.pauseAt(now + 1_000);
      await b.page.goto(
        `${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}&sort=Title`,
      );
      const look = { timeout: 500 };
      let moved = await advanceUntil(b.page, () =>
        expect(b.page.getByTestId('records-status')).toContainText(/^3 loaded/, look),
      );
      const row = b.page.getByRole('row').filter({ hasText: title(11) });
      await expect(row).not.toContainText('Pending');

      // A saves a status in the panel: B's row shows it in place.
      await editInPanel(page, `${tickets.url}/${ids[1]}`, { Status: 'Pending' });
      moved += await advanceUntil(b.page, () => expect(row).toContainText('Pending', look));
      // A creates a ticket in the console: B's banner offers it.
      await page.goto(tickets.url);
      await page.getByRole('button', { name: 'New record' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel(/^Title/).fill(title(0));
      await form.getByLabel(/^Status/).selectOption('New');
      await form.getByLabel(/^Customer/).fill(tag);
      const created = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().includes('/api/v1/'),
      );
      await form.getByRole('button', { name: 'Create record' }).click();
      expect((await created).status()).toBe(201);
      moved += await advanceUntil(b.page, () =>
        expect(b.page.getByRole('button', { name: /^1 new record/ })).toBeVisible(look),
      );
      // B's clock moved less than one poll interval since before the list opened: no poll ran.
      expect(moved).toBeLessThan(20_000 - 1_000);
    } finally {
      await b.context.close();
    }
  });
});
