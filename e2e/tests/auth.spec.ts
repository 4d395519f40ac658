import {
  expect,
  saveScreenshot,
  scriptRequests,
  signIn,
  test,
  withoutLiveEvents,
} from '../fixtures.ts';

test.describe('sign-in and session', () => {
  test('sign-in page is accessible; wrong secret is explained; right one opens the console', async ({
    page,
    creds,
    axe,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    await expect(page.getByRole('heading', { name: 'Sign in to Workspace Console' })).toBeVisible();
    await expect(page.getByLabel('Client ID')).toHaveAttribute('autocomplete', 'username');
    await expect(page.getByLabel('Client secret')).toHaveAttribute(
      'autocomplete',
      'current-password',
    );
    await axe('sign-in');
    await saveScreenshot(page, '01-sign-in');

    await signIn(page, { clientId: creds.admin.clientId, clientSecret: 'not-the-secret' });
    await expect(page.getByRole('alert')).toContainText(
      'The client ID or client secret is not correct',
    );
    await axe('sign-in with error');
    await saveScreenshot(page, '02-sign-in-error');

    await page.getByLabel('Client secret').fill(creds.admin.clientSecret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('region-badge')).toContainText('default');
    await expect(page.getByText(creds.admin.email)).toBeVisible();
  });

  test('the page signing in leads to has its code loaded while the form is filled in', async ({
    page,
    tickets,
    creds,
  }) => {
    const scripts = scriptRequests(page);
    await page.goto(tickets.url);
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    // The records list's route chunk (`$alias.tsx`) arrives before anyone signs in.
    await expect.poll(() => scripts.some((p) => /\/_alias-[\w-]+\.js$/.test(p))).toBe(true);
    await signIn(page, creds.admin);
    await expect(page.getByTestId('records-status')).toBeVisible();
    expect(scripts.filter((p) => /\/_alias-[\w-]+\.js$/.test(p))).toHaveLength(1);
  });

  test('signing in brings the session, the definitions, the saved views and the first rows along, and asks for none of them again', async ({
    page,
    tickets,
    creds,
  }) => {
    // The form asks `/bff/config` (its regions) once it is shown: on a busy machine that request
    // can start after the redirect, so the listening begins once it has been answered.
    const configAnswered = page.waitForResponse((r) => new URL(r.url()).pathname === '/bff/config');
    // Other sessions' saves of tickets would make the list check its first page: not the sign-in's.
    await withoutLiveEvents(page);
    await page.goto(tickets.url);
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    await configAnswered;
    const asked: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/bff/') || url.pathname.startsWith('/api/')) asked.push(url);
    });
    await signIn(page, creds.admin);
    await expect(page.getByTestId('records-status')).toContainText(/loaded/);
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    expect(asked[0]?.pathname).toBe('/bff/login');
    const paths = asked.map((url) => url.pathname);
    expect(paths).not.toContain('/bff/session');
    expect(paths).not.toContain('/bff/definitions');
    // The own views came along too (the shared ones are no part of the first screen).
    expect(paths).not.toContain('/bff/views');
    // The list's first page came with the sign-in (a one-record search for a count may follow).
    const listPath = `/api/v1/${tickets.recordType}/${tickets.alias}`;
    const pages = asked.filter(
      (url) => url.pathname === listPath && url.searchParams.get('first') !== '1',
    );
    expect(pages.map((url) => url.search)).toEqual([]);
  });

  test('signing out ends the session', async ({ page, login }) => {
    await login('admin');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in to Workspace Console' })).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test('an expired session on reload goes to sign-in and back to the exact view', async ({
    page,
    context,
    login,
    tickets,
    creds,
  }) => {
    await login('admin');
    const view = `${tickets.url}?filter=${encodeURIComponent('Status==Open')}&sort=${encodeURIComponent('-Priority')}`;
    await page.goto(view);
    await expect(page.getByTestId('active-filter')).toHaveText('Status==Open');
    const before = page.url();

    await context.clearCookies();
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    await signIn(page, creds.admin);
    await expect(page.getByTestId('active-filter')).toHaveText('Status==Open');
    expect(page.url()).toBe(before);
  });

  test('a 401 from the API mid-session sends the user to sign-in and back', async ({
    page,
    context,
    login,
    tickets,
    creds,
    profile,
  }) => {
    await login('admin');
    await page.goto(tickets.url);
    await expect(page.getByRole('table')).toBeVisible();
    await context.clearCookies();
    // Any API call now answers 401: sorting asks the API for a new page. The hosted service cannot
    // sort, so there the rows are sorted in the browser and the next page is what asks the API.
    await page.getByRole('button', { name: 'Priority' }).click();
    if (profile === 'hosted') {
      await expect(page.getByTestId('local-sort-note')).toBeVisible();
      await page.getByRole('button', { name: 'Load more' }).click();
    }
    await expect(page).toHaveURL(/\/sign-in\?/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Your session expired' }),
    ).toBeVisible();
    await signIn(page, creds.admin);
    await expect(page).toHaveURL(/sort=Priority/);
    await expect(page.getByRole('columnheader', { name: 'Priority' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
  });
});
