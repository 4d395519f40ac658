import { expect, saveScreenshot, sentFilters, test } from '../fixtures.ts';

test.describe('filter builder', () => {
  test('build a nested filter, see its RSQL, apply it; the link reproduces builder and results', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
  }) => {
    const sent = sentFilters(page, `/${tickets.recordType}/${tickets.alias}`);
    await login('admin');
    await page.goto(tickets.url);
    await expect(page.getByRole('table')).toBeVisible();
    await page.getByRole('button', { name: 'Filter', exact: false }).first().click();
    const filter = page.getByRole('region', { name: 'Filter' });

    // Status is any of New, Open
    await filter.getByRole('button', { name: 'Condition', exact: true }).click();
    let row = filter.getByRole('group', { name: /^Condition on / }).first();
    await row.getByLabel('Field').selectOption('Status');
    row = filter.getByRole('group', { name: 'Condition on Status' });
    await row.getByLabel('Operator').selectOption({ label: 'is any of' });
    await row.getByText('New', { exact: true }).click();
    await row.getByText('Open', { exact: true }).click();

    // (Severity is Critical OR Priority at least 3)
    await filter.getByRole('button', { name: 'Group', exact: true }).click();
    const nested = filter.getByRole('group', { name: 'Nested any group' });
    await nested.getByRole('button', { name: 'Condition', exact: true }).click();
    await nested
      .getByRole('group', { name: /^Condition on / })
      .first()
      .getByLabel('Field')
      .selectOption('Severity');
    await nested
      .getByRole('group', { name: 'Condition on Severity' })
      .getByLabel('Severity value')
      .selectOption('Critical');
    await nested.getByRole('button', { name: 'Condition', exact: true }).click();
    await nested
      .getByRole('group', { name: /^Condition on / })
      .nth(1)
      .getByLabel('Field')
      .selectOption('Priority');
    const priorityRow = nested.getByRole('group', { name: 'Condition on Priority' });
    await priorityRow.getByLabel('Operator').selectOption({ label: 'at least' });
    await priorityRow.getByLabel('Priority value').fill('3');
    await axe('filter builder');
    await saveScreenshot(page, '06-filter-builder');

    const rsql = 'Status=in=(New,Open);(Severity==Critical,Priority=ge=3)';
    await filter.getByRole('button', { name: /RSQL/ }).click();
    await expect(filter.getByLabel('RSQL filter')).toHaveValue(rsql);
    await filter.getByRole('button', { name: /Builder/ }).click();
    await expect(filter.getByRole('group', { name: /^Condition on / })).toHaveCount(3);
    await filter.getByRole('button', { name: 'Apply filter' }).click();

    await expect(page.getByTestId('active-filter')).toHaveText(rsql);
    // The URL keeps the console's text; the request carries the service's dialect. The published
    // one has no parentheses: the OR group is multiplied out (AND binds tighter than OR).
    await expect
      .poll(() => sent)
      .toContain(
        profile === 'hosted'
          ? 'Status=in=New:Open;Severity==Critical,Status=in=New:Open;Priority=ge=3'
          : rsql,
      );
    // Every row shown matches (other specs edit records concurrently, so the check is on the rows
    // rather than on a total read at another moment).
    const { total } = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
      filter: rsql,
      first: 1,
    });
    expect(total).toBeGreaterThan(0);
    await expect(page.getByTestId('records-status')).toContainText(/loaded of [\d,]+ record/);
    const headers = await page.getByRole('columnheader').allTextContents();
    const statusColumn = headers.findIndex((text) => text.trim() === 'Status') + 1;
    const statuses = (
      await page
        .getByRole('table')
        .locator(`tbody tr td:nth-child(${statusColumn})`)
        .allTextContents()
    ).map((text) => text.trim());
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((text) => text !== 'New' && text !== 'Open')).toEqual([]);

    // A pasted link opens the same results and the same builder.
    const url = page.url();
    const fresh = await page.context().newPage();
    await fresh.goto(url);
    await expect(fresh.getByTestId('active-filter')).toHaveText(rsql);
    await fresh.getByRole('button', { name: 'Filter', exact: false }).first().click();
    const freshFilter = fresh.getByRole('region', { name: 'Filter' });
    await expect(freshFilter.getByRole('group', { name: 'Nested any group' })).toBeVisible();
    await expect(
      freshFilter.getByRole('group', { name: 'Condition on Priority' }).getByLabel('Operator'),
    ).toHaveValue('=ge=');
    await fresh.close();

    // Back returns to the unfiltered list.
    await page.goBack();
    await expect(page.getByTestId('active-filter')).toHaveCount(0);
  });

  test('text mode: invalid RSQL points at the character; valid text applies canonically', async ({
    page,
    login,
    tickets,
    axe,
    profile,
  }) => {
    const sent = sentFilters(page, `/${tickets.recordType}/${tickets.alias}`);
    await login('admin');
    await page.goto(tickets.url);
    await page.getByRole('button', { name: 'Filter', exact: false }).first().click();
    const filter = page.getByRole('region', { name: 'Filter' });
    await filter.getByRole('button', { name: /RSQL/ }).click();
    const text = filter.getByLabel('RSQL filter');
    await text.fill('Status==Open;Severity=zz=High');
    const error = filter.getByRole('alert');
    await expect(error).toContainText('at character 22');
    await expect(filter.getByTestId('rsql-error-mark')).toHaveText('=');
    await expect(filter.getByRole('button', { name: 'Apply filter' })).toBeDisabled();
    await axe('filter text error');
    await saveScreenshot(page, '07-filter-text-error');

    await text.fill(' Severity =in= ( High , Critical ) ');
    await expect(error).toHaveCount(0);
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText('Severity=in=(High,Critical)');
    await expect
      .poll(() => sent)
      .toContain(
        profile === 'hosted' ? 'Severity=in=High:Critical' : 'Severity=in=(High,Critical)',
      );

    // Not-in: `=out=` in the console's text, `!in=` with an `a:b` list in the published dialect.
    // (The panel stays open after Apply, back in builder mode.)
    await filter.getByRole('button', { name: /RSQL/ }).click();
    await filter.getByLabel('RSQL filter').fill('Severity=out=(Low,Medium)');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText('Severity=out=(Low,Medium)');
    await expect
      .poll(() => sent)
      .toContain(profile === 'hosted' ? 'Severity!in=Low:Medium' : 'Severity=out=(Low,Medium)');
    await expect(page.getByTestId('records-status')).toContainText(/loaded/);
    const headers = await page.getByRole('columnheader').allTextContents();
    const severityColumn = headers.findIndex((text) => text.trim() === 'Severity') + 1;
    const severities = (
      await page
        .getByRole('table')
        .locator(`tbody tr td:nth-child(${severityColumn})`)
        .allTextContents()
    ).map((text) => text.trim());
    expect(severities.length).toBeGreaterThan(0);
    expect(severities.filter((text) => text === 'Low' || text === 'Medium')).toEqual([]);
  });

  test('a filter the API rejects is explained in place', async ({ page, login, tickets }) => {
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent('No Such Field==1')}`);
    await expect(page.getByRole('alert')).toContainText('The request was not accepted');
  });
});
