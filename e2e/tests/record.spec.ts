import type { Locator, Page } from '@playwright/test';

import { expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

/** Clicks Save and waits for the PUT to succeed and the form to settle (nothing left unsaved). */
async function saveAndWait(page: Page, panel: Locator) {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PUT' && response.url().includes('/api/v1/'),
  );
  await panel.getByRole('button', { name: 'Save changes' }).click();
  expect((await saved).status()).toBe(200);
  await expect(panel.getByText('Unsaved changes')).toHaveCount(0);
}

test.describe('record view and editing', () => {
  test('edit with typed editors and save; 422 shows next to the field', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
  }) => {
    // A ticket of this test's own, so every value set below is a change (also on a second run
    // against the same stack).
    const id = handleOf(
      await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: 'Printer on floor 3 jams on every second page',
        Description: 'Started after the firmware update on Monday.',
        Status: 'Open',
        Severity: 'Low',
        Priority: '4',
        Customer: 'Acme Inc.',
      }),
      tickets,
    );
    await login('admin');
    await page.goto(`${tickets.url}/${id}`);
    const panel = page.getByRole('dialog');
    await expect(panel).toContainText(id);
    await expect(panel.getByLabel('Status')).toBeVisible();
    await axe('record panel');
    await saveScreenshot(page, '08-record-panel');

    // 422: Priority must be a number.
    await panel.getByLabel('Priority').fill('not a number');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    const priority = panel.getByLabel('Priority');
    if (profile === 'extended') {
      await expect(priority).toHaveAttribute('aria-invalid', 'true');
      const describedBy = (await priority.getAttribute('aria-describedby')) ?? '';
      await expect(panel.locator(`[id="${describedBy}"]`)).toBeVisible();
    } else {
      // The hosted service's 422 is one plain message (no per-field problems): shown whole, above
      // the fields, in the service's words naming the field.
      await expect(panel.getByTestId('no-etag-note')).toBeVisible();
      await expect(panel.getByRole('alert').first()).toContainText('Priority');
    }
    await axe('record panel with 422');
    await saveScreenshot(page, '09-record-422');

    // Fix it and change a picklist, a date-time and a person.
    await priority.fill('2');
    await panel.getByLabel('Severity').selectOption('High');
    await panel.getByLabel('Resolved At').fill('2024-07-01T14:30:00');
    const users = await adminApi.listUsers({ first: 5, filter: 'status==ACTIVE' });
    const assignee = users.items[0];
    if (!assignee) throw new Error('no users');
    const picker = panel.getByRole('combobox', { name: 'Assignee' });
    await picker.fill(assignee.lastName);
    await page.getByRole('option', { name: new RegExp(assignee.email) }).click();
    await expect(picker).toHaveValue(assignee.email);
    await saveAndWait(page, panel);

    const { record } = await adminApi.getRecord(tickets.recordType, tickets.alias, id);
    expect(record).toMatchObject({
      Priority: '2',
      Severity: 'High',
      Assignee: assignee.email,
      // 14:30 in Europe/Paris (summer, UTC+2) is 12:30 UTC.
      'Resolved At': '2024-07-01T12:30:00.000Z',
    });
  });

  test('412: a concurrent change is explained; reload keeps my edits on top of the latest', async ({
    page,
    login,
    tickets,
    adminApi,
    profile,
  }) => {
    // A ticket of this test's own: the first ones are edited by other specs at the same time.
    const id = handleOf(
      await adminApi.createRecord(tickets.recordType, tickets.alias, {
        Title: 'Conflict source',
        Status: 'New',
        Customer: 'Original Customer Ltd',
      }),
      tickets,
    );
    await login('admin');
    await page.goto(`${tickets.url}/${id}`);
    const panel = page.getByRole('dialog');
    await expect(panel.getByLabel('Customer')).toBeVisible();

    // Someone else changes the record after it was opened here. With an ETag (our API) any change
    // makes the save a 412. Without one (hosted), the save carries the values opened
    // (X-Base-Values) and the BFF compares the fields being saved with the record as stored (issue
    // 27's save protocol), so the other person changes the same field as we do.
    await adminApi.updateRecord(tickets.recordType, tickets.alias, id, {
      Customer: 'Changed Elsewhere Ltd',
      ...(profile === 'hosted' ? { Title: 'Their title' } : {}),
    });

    await panel.getByLabel('Title').fill('My new title');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    const conflict = page.getByRole('dialog', { name: 'Someone else changed this record' });
    await expect(conflict).toBeVisible();
    // Both profiles name each field (extended: the record read again after its 412; hosted: the
    // BFF's 412 carries it as `latest`): what was opened, what is stored now, and mine; then the
    // other fields that moved meanwhile, which I did not change (ADR 0025).
    const rows = conflict.getByTestId('conflict-fields').getByRole('row');
    const customerRow =
      /^Customer\s*Original Customer Ltd\s*Changed Elsewhere Ltd\s*not changed by you$/;
    if (profile === 'hosted') {
      await expect(panel.getByTestId('no-etag-note')).toBeAttached();
      await expect(rows).toHaveCount(3);
      await expect(rows.nth(1)).toHaveText(
        /^Title\s*Conflict source\s*Their title\s*My new title$/,
      );
      await expect(rows.nth(2)).toHaveText(customerRow);
    } else {
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toHaveText(customerRow);
    }
    await saveScreenshot(page, '10-record-412');
    const stored = (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record;
    expect(stored).toMatchObject({
      Title: profile === 'hosted' ? 'Their title' : 'Conflict source',
    });
    await conflict.getByRole('button', { name: 'Reload latest version' }).click();
    await expect(conflict).toHaveCount(0);
    await expect(panel.getByLabel('Title')).toHaveValue('My new title');
    await expect(panel.getByLabel('Customer')).toHaveValue('Changed Elsewhere Ltd');
    await saveAndWait(page, panel);
    const { record } = await adminApi.getRecord(tickets.recordType, tickets.alias, id);
    expect(record).toMatchObject({ Title: 'My new title', Customer: 'Changed Elsewhere Ltd' });
  });

  test('create a record with required fields marked', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    await login('admin');
    await page.goto(tickets.url);
    await page.getByRole('button', { name: 'New record' }).click();
    await expect(page).toHaveURL(new RegExp(`${tickets.url}/new`));
    const panel = page.getByRole('dialog');
    for (const field of tickets.fields.filter((f) => f.required && !f.readOnly)) {
      await expect(panel.getByLabel(new RegExp(`^${field.name}`)).first()).toHaveAttribute(
        'aria-required',
        'true',
      );
    }
    await axe('create form');
    await saveScreenshot(page, '11-record-create');

    await panel.getByRole('button', { name: 'Create record' }).click();
    await expect(panel.getByLabel(/^Title/)).toHaveAttribute('aria-invalid', 'true');

    await panel.getByLabel(/^Title/).fill('E2E created ticket');
    await panel.getByLabel(/^Status/).selectOption('New');
    await panel.getByLabel(/^Due Date/).fill('2025-03-31');
    await panel.getByRole('button', { name: 'Create record' }).click();
    await expect(page).toHaveURL(new RegExp(`${tickets.url}/${tickets.handle}-\\d+`));
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    const { record } = await adminApi.getRecord(tickets.recordType, tickets.alias, id);
    expect(record).toMatchObject({
      Title: 'E2E created ticket',
      Status: 'New',
      'Due Date': '2025-03-31',
    });
  });
});
