// Relative dates (ADR 0017) in Chromium, with Playwright's clock: a view saved with "last 7 days"
// keeps meaning the last 7 days a week later (the URL and the view keep `{last7d}`, the request
// carries that week's dates), "overdue" is "before now", and a bad relative date in text mode is
// shown at its character. The browser runs in Europe/Paris (playwright.config.ts); the week
// chosen crosses the end of March, so the second request also crosses a month and a DST change.
import type { Page } from '@playwright/test';

import { expect, sentFilters, test } from '../fixtures.ts';

/** Opens the filter panel on the list and adds a condition on Due Date. */
async function addDueDateCondition(page: Page) {
  await page.getByRole('button', { name: 'Filter', exact: false }).first().click();
  const filter = page.getByRole('region', { name: 'Filter' });
  await filter.getByRole('button', { name: 'Condition', exact: true }).click();
  await filter
    .getByRole('group', { name: /^Condition on / })
    .first()
    .getByLabel('Field')
    .selectOption('Due Date');
  return { filter, row: filter.getByRole('group', { name: 'Condition on Due Date' }) };
}

/** Removes this spec's views through the BFF, whatever happened. */
async function removeViews(page: Page, name: string) {
  const res = await page.request.get('/bff/views');
  if (!res.ok()) return;
  const { items } = (await res.json()) as { items: { id: string; name: string }[] };
  for (const view of items.filter((v) => v.name === name)) {
    await page.request.delete(`/bff/views/${view.id}`, { headers: { 'X-CSRF': '1' } });
  }
}

// Wednesdays, 10:00 in Paris: 25 March 2026 (CET) and a week later, 1 April 2026 (CEST).
const SAVED_ON = new Date('2026-03-25T09:00:00.000Z');
const WEEK_LATER = new Date('2026-04-01T08:00:00.000Z');

test.describe('relative dates', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a view saved with "last 7 days" still means the last 7 days a week later', async ({
    page,
    login,
    tickets,
    axe,
  }) => {
    const name = `Due last 7 days ${Date.now().toString(36)}`;
    const sent = sentFilters(page, `/${tickets.recordType}/${tickets.alias}`);
    await page.clock.setFixedTime(SAVED_ON);
    await login('admin');
    try {
      await page.goto(tickets.url);
      await expect(page.getByRole('table')).toBeVisible();
      const { filter, row } = await addDueDateCondition(page);
      await row.getByLabel('Due Date value kind').selectOption({ label: 'Last N days' });
      await expect(row.getByLabel('Due Date value days')).toHaveValue('7');
      // The hint says which days that is today (en-GB: "Thu 19 Mar 2026 – Wed 25 Mar 2026").
      await expect(row.getByTestId('relative-date-hint')).toContainText('19 Mar 2026');
      await expect(row.getByTestId('relative-date-hint')).toContainText('25 Mar 2026');
      await axe('filter builder with a relative date');
      await filter.getByRole('button', { name: /RSQL/ }).click();
      await expect(filter.getByLabel('RSQL filter')).toHaveValue('Due Date=={last7d}');
      await filter.getByRole('button', { name: 'Apply filter' }).click();

      await expect(page.getByTestId('active-filter')).toHaveText('Due Date=={last7d}');
      expect(new URL(page.url()).searchParams.get('filter')).toBe('Due Date=={last7d}');
      await expect.poll(() => sent).toContain('Due Date=ge=2026-03-19;Due Date=le=2026-03-25');

      // Save it as a view: the view keeps the relative text.
      await page.getByRole('button', { name: 'Save view' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save view' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Name').press('Enter');
      await expect(dialog).toBeHidden();
      const stored = (await (await page.request.get('/bff/views')).json()) as {
        items: { name: string; filter?: string }[];
      };
      expect(stored.items.find((v) => v.name === name)?.filter).toBe('Due Date=={last7d}');

      // A week later, opening the view asks for that week.
      await page.clock.setFixedTime(WEEK_LATER);
      await page.goto('/');
      const sentBefore = sent.length;
      await page.getByRole('navigation', { name: 'Records' }).getByRole('link', { name }).click();
      await expect(page.getByTestId('active-filter')).toHaveText('Due Date=={last7d}');
      expect(new URL(page.url()).searchParams.get('filter')).toBe('Due Date=={last7d}');
      // (The Overview's counts go to the same path, and may finish after the view's request.)
      await expect
        .poll(() => sent.slice(sentBefore))
        .toContain('Due Date=ge=2026-03-26;Due Date=le=2026-04-01');
      await page.getByRole('button', { name: 'Filter', exact: false }).first().click();
      const reopened = page
        .getByRole('region', { name: 'Filter' })
        .getByRole('group', { name: 'Condition on Due Date' });
      await expect(reopened.getByLabel('Due Date value kind')).toHaveValue('lastDays');
      await expect(reopened.getByLabel('Due Date value days')).toHaveValue('7');
      await expect(reopened.getByTestId('relative-date-hint')).toContainText('1 Apr 2026');
    } finally {
      await removeViews(page, name);
    }
  });

  test('overdue is before now; a bad relative date in text mode is shown at its character', async ({
    page,
    login,
    tickets,
    axe,
  }) => {
    const sent = sentFilters(page, `/${tickets.recordType}/${tickets.alias}`);
    await page.clock.setFixedTime(SAVED_ON);
    await login('admin');
    await page.goto(tickets.url);
    await expect(page.getByRole('table')).toBeVisible();
    const { filter, row } = await addDueDateCondition(page);
    await row.getByLabel('Due Date value kind').selectOption({ label: 'Overdue (before now)' });
    await expect(row.getByLabel('Operator')).toHaveValue('=lt=');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText('Due Date=lt={now}');
    await expect.poll(() => sent).toContain('Due Date=lt=2026-03-25');

    // Text mode (the panel stays open after applying): a unit that does not exist is marked
    // where it stands.
    await filter.getByRole('button', { name: /RSQL/ }).click();
    const text = filter.getByLabel('RSQL filter');
    await text.fill('Due Date=ge={today-3x}');
    const alert = filter.getByRole('alert');
    await expect(alert).toContainText("Expected a unit ('d', 'w')");
    await expect(alert).toContainText('(at character 21)');
    await expect(alert.getByTestId('rsql-error-mark')).toHaveText('x');
    await expect(text).toHaveAttribute('aria-invalid', 'true');
    await expect(filter.getByRole('button', { name: 'Apply filter' })).toBeDisabled();
    await axe('relative date error in text mode');

    // Fixed, it applies, and the builder reads it as "3 days ago".
    await text.fill('Due Date=ge={today-3d}');
    await expect(alert).toBeHidden();
    await filter.getByRole('button', { name: /Builder/ }).click();
    await expect(row.getByLabel('Due Date value kind')).toHaveValue('daysAgo');
    await expect(row.getByLabel('Due Date value days')).toHaveValue('3');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText('Due Date=ge={today-3d}');
    await expect.poll(() => sent).toContain('Due Date=ge=2026-03-22');
  });
});
