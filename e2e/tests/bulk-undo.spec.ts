// Undoing a bulk run in Chromium: a run is undone from its own dialog and restores the previous
// values, while a record edited in between (straight through the API, as another person would:
// before the undo's check, and between the check and the write) is reported as a conflict and
// keeps its new value; a second run is undone after a reload from
// "Recent bulk runs" (the BFF keeps runs for 7 days). In the hosted profile (no ETag) the check
// compares the fields the run wrote; the result is the same.
import type { Page } from '@playwright/test';

import { expect, handleOf, test } from '../fixtures.ts';

test.describe('bulk undo', () => {
  test.describe.configure({ timeout: 90_000 });

  /** Checks the given rows and opens the bulk change dialog, setting one picklist field. */
  async function runBulk(page: Page, ids: string[], field: string, value: string) {
    for (const id of ids) await page.getByRole('checkbox', { name: `Select ${id}` }).check();
    await expect(page.getByTestId('bulk-selected')).toHaveText(`${ids.length} selected`);
    await page.getByRole('button', { name: 'Change fields…' }).click();
    const dialog = page.getByRole('dialog', { name: `Change ${ids.length} records` });
    await dialog.getByLabel('Field 1').selectOption(field);
    await dialog.getByLabel(`New ${field}`).selectOption(value);
    await dialog.getByRole('button', { name: 'Preview changes' }).click();
    await expect(dialog.getByTestId('bulk-preview')).toContainText(
      `${ids.length} records will change.`,
    );
    await expect(dialog).toContainText('can be undone');
    await dialog.getByRole('button', { name: `Apply to ${ids.length} records` }).click();
    await expect(dialog.getByTestId('bulk-summary')).toHaveText(`${ids.length} changed.`, {
      timeout: 20_000,
    });
    return dialog;
  }

  test('undo restores the previous values and leaves a record edited since as a conflict; after a reload too', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const tag = `Undo ${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const record = await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: `Undo item ${i + 1} (${tag})`,
        Status: 'Open',
        Severity: 'Low',
        Customer: tag,
      });
      ids.push(handleOf(record, tickets));
    }
    const [first = '', edited = '', third = ''] = ids;
    const status = async (id: string) =>
      (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record;

    await login('admin');
    const listUrl = `${tickets.url}?filter=${encodeURIComponent(`Customer=='${tag}'`)}`;
    await page.goto(listUrl);
    await expect(page.getByTestId('records-status')).toContainText('of 3 records');

    // Run 1: Status -> Resolved on all three.
    const dialog = await runBulk(page, ids, 'Status', 'Resolved');
    for (const id of ids) expect((await status(id)).Status, id).toBe('Resolved');

    // Someone else changes one of them meanwhile.
    await adminApi.updateRecord(tickets.recordType, tickets.alias, edited, { Status: 'Pending' });

    await dialog.getByRole('button', { name: 'Undo this run' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo bulk change' });
    await expect(undo.getByTestId('undo-preview')).toHaveText(
      '2 records go back to the previous values; 1 record changed by someone else since the run will stay as it is.',
      { timeout: 20_000 },
    );
    await expect(undo.getByRole('list', { name: 'Conflicts' })).toContainText(
      `${edited}Changed by someone else since the run (Status is now "Pending")`,
    );
    await axe('bulk undo preview');
    // And another edit between the check and the restore: the write itself must not overwrite
    // it (If-Match with the checked ETag; hosted: read again and compared before the PUT).
    await adminApi.updateRecord(tickets.recordType, tickets.alias, third, { Status: 'On Hold' });
    await undo.getByRole('button', { name: 'Restore 2 records' }).click();
    await expect(undo.getByTestId('bulk-summary')).toHaveText('1 restored, 2 not restored.', {
      timeout: 20_000,
    });
    const results = undo.getByRole('list', { name: 'Results per record' });
    await expect(results.getByRole('listitem')).toHaveCount(3);
    await expect(results.getByRole('listitem').filter({ hasText: edited })).toContainText(
      'Conflict: Changed by someone else since the run',
    );
    await expect(results.getByRole('listitem').filter({ hasText: third })).toContainText(
      'Conflict: Changed by someone else since the check',
    );
    await expect(results.getByRole('listitem').filter({ hasText: first })).toContainText(
      'Restored',
    );
    await undo.getByRole('button', { name: 'Done' }).click();
    await expect(undo).toBeHidden();

    expect((await status(first)).Status).toBe('Open');
    expect((await status(edited)).Status).toBe('Pending');
    expect((await status(third)).Status).toBe('On Hold');

    // Run 2: Severity -> High on two, then reload: the run is still there to undo.
    const second = await runBulk(page, [first, third], 'Severity', 'High');
    await second.getByRole('button', { name: 'Done' }).click();
    await expect(second).toBeHidden();
    for (const id of [first, third]) expect((await status(id)).Severity, id).toBe('High');

    await page.reload();
    await page.getByRole('button', { name: 'Recent bulk runs' }).click();
    const recent = page.getByRole('dialog', { name: 'Recent bulk runs' });
    const runs = recent.getByRole('list', { name: 'Recent bulk runs' });
    // Both runs are listed (other specs' runs of the same user may be there too: they are told
    // apart by what they set and how many records); the first shows how its undo went.
    const runTwo = runs
      .getByRole('listitem')
      .filter({ hasText: 'Severity → High' })
      .filter({ hasText: '2 records' })
      .first();
    const runOne = runs
      .getByRole('listitem')
      .filter({ hasText: 'Status → Resolved' })
      .filter({ hasText: '3 records' })
      .first();
    await expect(runOne).toContainText('1 restored, 2 conflicts');
    await axe('recent bulk runs');
    await runTwo.getByRole('button', { name: /^Undo Severity → High/ }).click();
    const again = page.getByRole('dialog', { name: 'Undo bulk change' });
    await expect(again.getByTestId('undo-preview')).toHaveText(
      '2 records go back to the previous values.',
      { timeout: 20_000 },
    );
    await again.getByRole('button', { name: 'Restore 2 records' }).click();
    await expect(again.getByTestId('bulk-summary')).toHaveText('2 restored.', { timeout: 20_000 });
    await again.getByRole('button', { name: 'Done' }).click();
    for (const id of [first, third]) expect((await status(id)).Severity, id).toBe('Low');
    // The list shows the restored values once the dialog closes.
    await expect(page.getByRole('row', { name: new RegExp(first) })).toContainText('Low');
  });
});
