import type { ApiClient, User } from '@wsc/api-client';

import { expect, handleOf, saveScreenshot, test, totalOf } from '../fixtures.ts';

/** A person of this spec's own: specs share one stack, so nobody else's data is changed. */
async function createPerson(api: ApiClient, label: string): Promise<User> {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return api.createUser({
    email: `${label}.${stamp}@e2e.example`,
    firstName: 'Quinn',
    lastName: `${label[0]?.toUpperCase()}${label.slice(1)}${stamp}`,
    jobTitle: 'E2E tester',
  });
}

test.describe('users', () => {
  test('list: virtualized, cursor-paged, searched by the box and by the filter builder', async ({
    page,
    login,
    adminApi,
    axe,
  }) => {
    const agent = (await adminApi.listUsers({ filter: 'email==agent@helpdesk.example' })).items[0];
    if (!agent) throw new Error('no demo agent');
    await login('admin');

    // The sidebar's Directory section leads there.
    const directory = page.getByRole('navigation', { name: 'Directory' });
    await directory.getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(directory.getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table).toBeVisible();
    await expect(page.getByTestId('users-status')).toHaveText(/^\d+ loaded of \d+ users$/);
    await expect(table.getByTestId('user-status').first()).toBeVisible();
    await axe('users list');
    await saveScreenshot(page, '20-users-list');

    // The search box: any of email, names, job title; the URL keeps it.
    await page.getByRole('searchbox', { name: 'Search users' }).fill('agent@helpdesk');
    await expect(page).toHaveURL(/q=agent%40helpdesk/);
    await expect(page.getByTestId('users-status')).toHaveText('1 loaded of 1 user');
    const agentLink = table.getByRole('link', { name: `${agent.firstName} ${agent.lastName}` });
    await expect(agentLink).toBeVisible();

    // The same filter builder as the records list, over the user fields: status is a picklist.
    await page.getByRole('button', { name: 'Filter' }).click();
    const builder = page.getByRole('region', { name: 'Filter' });
    await builder.getByRole('button', { name: 'Condition' }).click();
    const row = builder.getByRole('group', { name: /^Condition on / });
    await row.getByLabel('Field').selectOption('status');
    await builder
      .getByRole('group', { name: 'Condition on Status' })
      .getByLabel('Operator')
      .selectOption('==');
    await builder.getByLabel('Status value').selectOption('INACTIVE');
    await axe('users filter builder');
    await builder.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page).toHaveURL(/filter=status%3D%3DINACTIVE/);
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();

    // RSQL text mode (the panel stays open) shows the same filter; ACTIVE brings the agent back.
    await builder.getByRole('button', { name: /RSQL/ }).click();
    const text = page.getByLabel('RSQL filter');
    await expect(text).toHaveValue('status==INACTIVE');
    await text.fill('status==ACTIVE;jobTitle!=null');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText('status==ACTIVE;jobTitle!=null');
    await expect(agentLink).toBeVisible();

    // Back walks the history of views; a reload reproduces the view.
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('active-filter')).toHaveText('status==INACTIVE');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect(page).not.toHaveURL(/filter=/);

    // Keyboard: the user link is reachable and opens the user's page.
    await page.getByRole('searchbox', { name: 'Search users' }).fill(agent.email);
    await expect(page.getByTestId('users-status')).toHaveText('1 loaded of 1 user');
    await page.getByRole('searchbox', { name: 'Search users' }).focus();
    let reached = false;
    for (let i = 0; i < 10 && !reached; i += 1) {
      await page.keyboard.press('Tab');
      reached = await agentLink.evaluate((el) => el === document.activeElement);
    }
    expect(reached, 'the user link is reachable with Tab').toBe(true);
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('heading', { level: 1, name: `${agent.firstName} ${agent.lastName}` }),
    ).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Member of' }).getByRole('link', { name: 'Support Tier 1' }),
    ).toBeVisible();
  });

  test('list pages by cursor: Load more appends the next page', async ({
    page,
    login,
    adminApi,
  }) => {
    // The demo has ~60 people; make sure there are more than one page (100) of them.
    const total = totalOf(await adminApi.listUsers({ first: 1 }));
    for (let i = total; i < 105; i += 1) await createPerson(adminApi, 'filler');
    await login('admin', '/users');
    const status = page.getByTestId('users-status');
    await expect(status).toHaveText(/^100 loaded of \d+ users$/);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(status).not.toHaveText(/^100 loaded/);
    // Virtualized: far fewer rows in the DOM than loaded.
    const rendered = await page.getByRole('table', { name: 'Users' }).getByRole('row').count();
    expect(rendered).toBeLessThan(100);
  });

  test('create: inline 422 for a duplicate email, then the new user page', async ({
    page,
    login,
    axe,
    profile,
  }) => {
    const stamp = Date.now().toString(36);
    await login('admin', '/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await expect(dialog).toBeVisible();

    // Client-side check first: required fields.
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel('Email')).toBeFocused();

    // The API's 422: the email is taken (case-insensitive).
    await dialog.getByLabel('Email').fill('ADMIN@helpdesk.example');
    await dialog.getByLabel('First name').fill('Dana');
    await dialog.getByLabel('Last name').fill(`Dup${stamp}`);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect(dialog.getByText('A user with this email already exists')).toBeVisible();
    // Our API names the field (problem+json `errors`); the hosted service's 422 is one message,
    // shown in the dialog without pinning it to an input.
    if (profile === 'extended') {
      await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    }
    await axe('create user with a 422');
    await saveScreenshot(page, '21-users-create-422');

    await dialog.getByLabel('Email').fill(`dana.${stamp}@e2e.example`);
    await dialog.getByLabel(/^Job title/).fill('Support engineer');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: `Dana Dup${stamp}` })).toBeVisible();
    await expect(page.getByTestId('detail-status')).toHaveText('Active');
    await expect(page.getByText('Not in any group.')).toBeVisible();
  });

  test('deactivate: the confirmation shows their open records, then INACTIVE everywhere', async ({
    page,
    login,
    adminApi,
    tickets,
    axe,
  }) => {
    const person = await createPerson(adminApi, 'leaver');
    const open = {
      id: handleOf(
        await adminApi.createRecord(tickets.recordType, tickets.alias, {
          Title: `Open work of ${person.lastName}`,
          Status: 'Open',
          Assignee: person.email,
        }),
        tickets,
      ),
    };
    await adminApi.createRecord(tickets.recordType, tickets.alias, {
      Title: `Finished work of ${person.lastName}`,
      Status: 'Resolved',
      Assignee: person.email,
    });
    const name = `${person.firstName} ${person.lastName}`;

    await login('admin', `/users/${person.id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    // Records assigned: counted via RSQL on Assignee, open ones listed with links to the panel.
    const ticketsCard = page.getByTestId('assigned-definition').filter({ hasText: tickets.name });
    await expect(ticketsCard.getByTestId('assigned-counts')).toHaveText('1 open · 2 in all');
    await expect(ticketsCard.getByRole('link', { name: open.id })).toBeVisible();
    await axe('user page');
    await saveScreenshot(page, '22-user-page');

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate ${name}?` });
    await expect(dialog.getByTestId('owned-summary')).toHaveText(
      /^1 open record is assigned to them/,
    );
    await expect(dialog.getByRole('link', { name: open.id })).toBeVisible();
    await axe('deactivate confirmation');
    await saveScreenshot(page, '23-user-deactivate');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(dialog).toBeHidden();

    // The page, the list and the people pickers all know at once.
    await expect(page.getByTestId('detail-status')).toHaveText('Inactive');
    await expect(page.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Users' })
      .click();
    await page.getByRole('searchbox', { name: 'Search users' }).fill(person.email);
    const row = page.getByRole('row').filter({ hasText: person.email });
    await expect(row.getByTestId('user-status')).toHaveText('Inactive');
    expect((await adminApi.getUser(person.id)).status).toBe('INACTIVE');

    // The record panel's assignee picker offers active people only.
    await page.goto(`${tickets.url}/${open.id}`);
    const picker = page.getByRole('combobox', { name: 'Assignee' });
    await picker.fill(person.lastName);
    await expect(page.getByRole('status').filter({ hasText: 'No one matches' })).toBeVisible();
    await expect(page.getByRole('listbox', { name: 'People' })).toHaveCount(0);
  });
});
