// Bulk changes in Chromium, by keyboard: check rows, "select all N matching this filter", set a
// field, preview how many will really change, run with progress, see per-record results, and
// retry what failed. A 429 (Retry-After) and a 500 are injected for two records' PUTs to see the
// back-off and the failure path; everything else goes to the real stack. In the hosted profile
// (no ETag) each save reads the record again first; the injected errors are in that service's
// plain `{message}` form.
import { auditField, expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

test.describe('bulk changes', () => {
  test.describe.configure({ timeout: 90_000 });

  test('select all matching, preview, run with progress, retry failed', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
  }) => {
    // Records no other spec touches: a customer name unique to this run.
    const tag = `Bulk ${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const record = await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: `Bulk item ${i + 1} (${tag})`,
        Status: 'Open',
        Severity: i === 0 ? 'High' : 'Low',
        Customer: tag,
      });
      ids.push(handleOf(record, tickets));
    }
    const [alreadyHigh, limited, broken] = ids;

    // One PUT answers 429 with Retry-After once; another fails with 500 until released.
    const errorBody = (status: number, title: string) =>
      profile === 'hosted'
        ? { contentType: 'application/json', body: JSON.stringify({ message: title }) }
        : {
            contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'about:blank', title, status }),
          };
    let limitedOnce = false;
    let breakIt = true;
    await page.route('**/api/v1/**', async (route) => {
      const request = route.request();
      const url = request.url();
      if (request.method() === 'PUT' && url.endsWith(`/${limited}`) && !limitedOnce) {
        limitedOnce = true;
        return route.fulfill({
          status: 429,
          headers: { 'retry-after': '1' },
          ...errorBody(429, 'Too Many Requests'),
        });
      }
      if (request.method() === 'PUT' && url.endsWith(`/${broken}`) && breakIt) {
        return route.fulfill({ status: 500, ...errorBody(500, 'Internal Server Error') });
      }
      return route.continue();
    });

    const filter = `Customer=='${tag}'`;
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(filter)}`);
    await expect(page.getByTestId('records-status')).toContainText('of 5 records');

    // Check two rows with the keyboard, then widen to everything matching.
    for (const id of [ids[3], ids[4]]) {
      await page.getByRole('checkbox', { name: `Select ${id}` }).focus();
      await page.keyboard.press('Space');
    }
    await expect(page.getByTestId('bulk-selected')).toHaveText('2 selected');
    await axe('records with a selection');
    await page.getByRole('button', { name: 'Select all 5 matching this filter' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('bulk-selected')).toHaveText('All 5 matching records selected');

    await page.getByRole('button', { name: 'Change fields…' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Change 5 records' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Field 1').selectOption('Severity');
    await dialog.getByLabel('New Severity').selectOption('High');
    await axe('bulk change dialog');
    await dialog.getByRole('button', { name: 'Preview changes' }).focus();
    await page.keyboard.press('Enter');

    // Preview: the one already High is skipped.
    await expect(dialog.getByTestId('bulk-preview')).toContainText(
      '4 records will change; 1 already has these values.',
    );
    await dialog.getByRole('button', { name: 'Apply to 4 records' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('progressbar', { name: 'Bulk change progress' })).toBeVisible();

    await expect(dialog.getByTestId('bulk-summary')).toHaveText('3 changed, 1 failed.', {
      timeout: 20_000,
    });
    const results = dialog.getByRole('list', { name: 'Results per record' });
    await expect(results.getByRole('listitem')).toHaveCount(4);
    await expect(results.getByRole('listitem').first()).toContainText(`${broken}Failed:`);
    expect(limitedOnce).toBe(true);
    await axe('bulk results');
    await saveScreenshot(page, 'bulk-results');

    // Release the failure and retry only what failed.
    breakIt = false;
    await dialog.getByRole('button', { name: 'Retry failed (1)' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('bulk-summary')).toHaveText('4 changed.');
    await expect(results.getByText('Failed:')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Done' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('bulk-selected')).toHaveCount(0);

    for (const id of ids) {
      const { record } = await adminApi.getRecord(tickets.recordType, tickets.alias, id);
      expect(record.Severity, id).toBe('High');
    }
    // The one that already had the value was never written.
    const untouched = await adminApi.getRecord(
      tickets.recordType,
      tickets.alias,
      alreadyHigh ?? '',
    );
    expect(untouched.record[auditField(tickets, 'updated')]).toBe(
      untouched.record[auditField(tickets, 'created')],
    );
  });
});
