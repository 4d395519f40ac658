import type { Page } from '@playwright/test';

import type { ApiClient, Group, User } from '@wsc/api-client';

import { expect, saveScreenshot, test, totalOf } from '../fixtures.ts';

/** People of this spec's own, so that membership changes touch nobody else's data. */
async function createPeople(api: ApiClient, count: number): Promise<User[]> {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const people: User[] = [];
  for (let i = 0; i < count; i += 1) {
    people.push(
      await api.createUser({
        email: `member${i}.${stamp}@e2e.example`,
        firstName: `Member${i}`,
        lastName: `Grp${stamp}${i}`,
      }),
    );
  }
  return people;
}

async function groupNamed(api: ApiClient, name: string): Promise<Group> {
  const { items } = await api.listGroups({ first: 100 });
  const group = items.find((g) => g.name === name);
  if (!group) throw new Error(`no group ${name}`);
  return group;
}

async function pickPerson(page: Page, user: User) {
  const picker = page.getByRole('combobox', { name: 'Add members' });
  await picker.fill(user.lastName);
  await expect(page.getByRole('option', { name: new RegExp(user.email) })).toBeVisible();
  // The results settle after the last keystroke (the popup is aria-busy until then).
  await expect(page.locator('[data-slot="user-picker-popup"]')).toHaveAttribute(
    'aria-busy',
    'false',
  );
  await picker.press('Enter');
  await expect(
    page
      .getByRole('list', { name: 'People to add' })
      .getByText(`${user.firstName} ${user.lastName}`),
  ).toBeVisible();
}

test.describe('groups', () => {
  test('list and group page: flags, domains, paged members', async ({
    page,
    login,
    adminApi,
    axe,
  }) => {
    const { items } = await adminApi.listGroups({ first: 100 });
    await login('admin');
    await page
      .getByRole('navigation', { name: 'Directory' })
      .getByRole('link', { name: 'Groups' })
      .click();
    const table = page.getByRole('table', { name: 'Groups' });
    for (const group of items) {
      await expect(table.getByRole('link', { name: group.name, exact: true })).toBeVisible();
    }
    await expect(page.getByTestId('groups-status')).toHaveText(`${items.length} groups`);
    await axe('groups list');
    await saveScreenshot(page, '30-groups-list');

    const tier1 = await groupNamed(adminApi, 'Support Tier 1');
    const members = totalOf(await adminApi.listGroupMembers(tier1.id, { first: 1 }));
    await table.getByRole('link', { name: 'Support Tier 1', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Support Tier 1' })).toBeVisible();
    const flags = page.getByRole('list', { name: 'Flags' });
    await expect(flags).toContainText(tier1.assignable ? 'Assignable' : 'Not assignable');
    await expect(flags).toContainText(tier1.dynamic ? 'Dynamic' : 'Not dynamic');
    await expect(page.getByText('Domains: example.com')).toBeVisible();
    await expect(page.getByTestId('members-total')).toHaveText(new RegExp(`^${members} members?$`));
    const rows = page.getByRole('table', { name: 'Members of Support Tier 1' }).getByRole('row');
    // One page of 50 at most, plus the header row.
    await expect(rows).toHaveCount(Math.min(members, 50) + 1);
    await axe('group page');
    await saveScreenshot(page, '31-group-page');
  });

  test('add several members at once, with the result and Undo', async ({
    page,
    login,
    adminApi,
    axe,
  }) => {
    const people = await createPeople(adminApi, 3);
    const group = await groupNamed(adminApi, 'Billing');
    const before = totalOf(await adminApi.listGroupMembers(group.id, { first: 1 }));
    await login('admin', `/groups/${group.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();

    for (const person of people) await pickPerson(page, person);
    await page.getByRole('button', { name: 'Add 3 members' }).click();
    const result = page.getByTestId('membership-result');
    await expect(result).toContainText('Added 3 members');
    await expect(page.getByTestId('members-total')).toHaveText(`${before + 3} members`);
    const table = page.getByRole('table', { name: 'Members of Billing' });
    for (const person of people) {
      await expect(
        table.getByRole('link', { name: `${person.firstName} ${person.lastName}` }),
      ).toBeVisible();
    }
    await axe('group page after adding');
    await saveScreenshot(page, '32-group-added');

    // Adding someone who is already a member says so, and changes nothing.
    const first = people[0];
    if (!first) throw new Error('no people');
    await pickPerson(page, first);
    await page.getByRole('button', { name: 'Add member', exact: true }).click();
    await expect(result).toContainText('Nobody was added (1 already was a member)');

    // Remove with a checkbox; Undo re-adds, and Undo of that removes again.
    await page
      .getByRole('checkbox', { name: `Select ${first.firstName} ${first.lastName}` })
      .check();
    await page.getByRole('button', { name: 'Remove 1 member' }).click();
    await expect(result).toContainText('Removed 1 member');
    await result.getByRole('button', { name: 'Undo' }).click();
    await expect(result).toContainText('Added 1 member');
    await result.getByRole('button', { name: 'Undo' }).click();
    await expect(result).toContainText('Removed 1 member');
    await expect(page.getByTestId('members-total')).toHaveText(`${before + 2} members`);
    const ids = (await adminApi.listGroupMembers(group.id, { first: 1000 })).items.map((u) => u.id);
    expect(ids).not.toContain(first.id);
  });

  test('remove several members at once with the keyboard, then Undo restores them', async ({
    page,
    login,
    adminApi,
  }) => {
    const people = await createPeople(adminApi, 2);
    const group = await groupNamed(adminApi, 'Customer Success');
    await adminApi.addGroupMembers(
      group.id,
      people.map((p) => p.id),
    );
    const before = totalOf(await adminApi.listGroupMembers(group.id, { first: 1 }));
    await login('admin', `/groups/${group.id}`);
    await expect(page.getByTestId('members-total')).toHaveText(`${before} members`);

    for (const person of people) {
      const box = page.getByRole('checkbox', {
        name: `Select ${person.firstName} ${person.lastName}`,
      });
      await box.focus();
      await page.keyboard.press('Space');
      await expect(box).toBeChecked();
    }
    const remove = page.getByRole('button', { name: 'Remove 2 members' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const result = page.getByTestId('membership-result');
    await expect(result).toContainText('Removed 2 members');
    await expect(page.getByTestId('members-total')).toHaveText(`${before - 2} members`);
    let ids = (await adminApi.listGroupMembers(group.id, { first: 1000 })).items.map((u) => u.id);
    expect(ids).not.toContain(people[0]?.id);

    await result.getByRole('button', { name: 'Undo' }).click();
    await expect(result).toContainText('Added 2 members');
    await expect(page.getByTestId('members-total')).toHaveText(`${before} members`);
    ids = (await adminApi.listGroupMembers(group.id, { first: 1000 })).items.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining(people.map((p) => p.id)));

    // Their user page lists the group.
    const person = people[0];
    if (!person) throw new Error('no people');
    await page.getByRole('link', { name: `${person.firstName} ${person.lastName}` }).click();
    await expect(
      page.getByRole('list', { name: 'Member of' }).getByRole('link', { name: 'Customer Success' }),
    ).toBeVisible();
  });
});
