import { expect, saveScreenshot, test, totalOf } from '../fixtures.ts';

test.describe('navigation and shell', () => {
  test('sidebar lists definitions by record type with counts; overview links to them', async ({
    page,
    login,
    adminApi,
    definitions: items,
    profile,
    axe,
  }) => {
    // Counts come from the API's `total`. Other workers create tickets meanwhile, so the count
    // shown must lie between the totals read before sign-in and after it is shown.
    const first = items[0];
    if (!first) throw new Error('no definitions');
    const totalNow = async () =>
      totalOf(await adminApi.searchRecords(first.recordType, first.alias, { first: 1 }));
    const before = await totalNow();
    await login('admin');
    const nav = page.getByRole('navigation', { name: 'Records' });
    for (const definition of items) {
      await expect(nav.getByRole('link', { name: new RegExp(definition.name) })).toBeVisible();
    }
    const count = nav
      .getByRole('link', { name: new RegExp(first.name) })
      .getByTestId('definition-count');
    await expect(count).toHaveText(/^[\d,]+ records$/);
    const shown = Number((await count.textContent())?.replace(/\D/g, ''));
    const after = await totalNow();
    expect(shown).toBeGreaterThanOrEqual(before);
    expect(shown).toBeLessThanOrEqual(after);
    await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
    // Elements cannot be listed by the hosted service, so they show no count there.
    const customers = nav.getByRole('link', { name: /Customers/ });
    if (profile === 'hosted')
      await expect(customers.getByTestId('definition-count')).toHaveCount(0);
    else await expect(customers.getByTestId('definition-count')).toHaveText(/^\d/);
    // The Workspace setup page is where the hosted profile's record types are described.
    await expect(
      page
        .getByRole('navigation', { name: 'Directory' })
        .getByRole('link', { name: 'Workspace setup' }),
    ).toHaveCount(profile === 'hosted' ? 1 : 0);
    await axe('overview');
    await saveScreenshot(page, '03-overview');

    await nav.getByRole('link', { name: new RegExp(first.name) }).click();
    await expect(page.getByRole('heading', { level: 1, name: first.name })).toBeVisible();
    await expect(nav.getByRole('link', { name: new RegExp(first.name) })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('dark mode follows the choice, persists across reloads and stays accessible', async ({
    page,
    login,
    tickets,
    axe,
  }) => {
    await login('admin');
    await page.goto(tickets.url);
    await expect(page.getByRole('table')).toBeVisible();
    const theme = page.getByRole('group', { name: 'Theme' });
    await expect(theme.getByRole('button', { name: 'System theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await theme.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(page.getByRole('table')).toBeVisible();
    await axe('records list, dark');
    await saveScreenshot(page, '04-records-dark');
    await expect(theme.getByRole('button', { name: 'Dark theme' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await theme.getByRole('button', { name: 'Light theme' }).click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
  });

  test('an unknown page says so', async ({ page, login, axe }) => {
    await login('admin');
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    await axe('not found');
  });
});
