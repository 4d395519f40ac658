import { expect, test } from '../fixtures.ts';

// Members (role MEMBER) read users and groups; the console leaves out what they may not do. The
// API's 403 remains the real guard (covered by the workspace API's own tests).
test('a member sees users and groups read-only: no create, deactivate, add or remove', async ({
  page,
  login,
  adminApi,
  axe,
}) => {
  const admin = (await adminApi.listUsers({ filter: 'email==admin@helpdesk.example' })).items[0];
  if (!admin) throw new Error('no demo admin');
  const tier1 = (await adminApi.listGroups({ first: 100 })).items.find(
    (g) => g.name === 'Support Tier 1',
  );
  if (!tier1) throw new Error('no Support Tier 1 group');

  await login('agent');
  await page
    .getByRole('navigation', { name: 'Directory' })
    .getByRole('link', { name: 'Users' })
    .click();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  await expect(page.getByTestId('users-status')).toHaveText(/loaded of \d+ users/);
  await expect(page.getByRole('button', { name: 'Filter' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New user' })).toHaveCount(0);
  await axe('users list as a member');

  await page.goto(`/users/${admin.id}`);
  await expect(
    page.getByRole('heading', { level: 1, name: `${admin.firstName} ${admin.lastName}` }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Records assigned' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);

  await page.goto(`/groups/${tier1.id}`);
  await expect(page.getByRole('table', { name: 'Members of Support Tier 1' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Add members' })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await axe('group page as a member');
});
