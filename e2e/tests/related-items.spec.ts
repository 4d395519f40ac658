import { definitionByHandle, expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

// Each test relates records it creates itself, so other specs' data never changes its view.
const unique = () => Math.random().toString(36).slice(2, 8);

test.describe('related items', () => {
  test('list with type, alias and title; add by search; remove with undo; open on click', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    definitions,
    profile,
  }) => {
    // Several full-stack round trips and axe runs on a machine shared with other suites.
    test.setTimeout(90_000);
    const tag = unique();
    const ticket = {
      id: handleOf(
        await adminApi.createRecord('apps', tickets.alias, {
          Title: `Related source ${tag}`,
          Status: 'New',
        }),
        tickets,
      ),
    };
    const customer = {
      id: handleOf(
        await adminApi.createRecord('elements', 'customers', {
          Name: `Relco ${tag}`,
          Plan: 'Business',
        }),
        definitionByHandle(definitions, 'CUS'),
      ),
    };
    const task = {
      id: handleOf(
        await adminApi.createRecord('tasks', 'tasks', {
          Title: `Replace toner ${tag}`,
          Status: 'To Do',
        }),
        definitionByHandle(definitions, 'TSK'),
      ),
    };
    await adminApi.addRelated('apps', tickets.alias, ticket.id, {
      id: customer.id,
      alias: 'customers',
    });

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=related`);
    const panel = page.getByRole('dialog');
    await expect(panel.getByRole('tab', { name: 'Related' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const list = panel.getByRole('list', { name: 'Related items' });
    const customerRow = list.getByRole('listitem').filter({ hasText: customer.id });
    await expect(customerRow).toContainText(`Relco ${tag}`);
    await expect(customerRow).toContainText('Customers · element · customers');
    await axe('related items tab');

    // Add: pick the definition, search its title field (RSQL Title=lki=term), relate.
    await panel.getByRole('button', { name: 'Add related item' }).click();
    await panel.getByLabel('Record type').selectOption({ label: 'Tasks (TSK)' });
    await panel.getByLabel('Search by title or id').fill(`toner ${tag}`);
    const matches = panel.getByRole('list', { name: 'Matching records' });
    await expect(matches.getByRole('listitem')).toHaveCount(1);
    await axe('related items picker');
    await saveScreenshot(page, 'related-items-picker');
    await matches.getByRole('button', { name: `Relate ${task.id}` }).click();
    await expect(list.getByRole('listitem').filter({ hasText: task.id })).toContainText(
      `Replace toner ${tag}`,
    );
    await expect(matches.getByRole('button', { name: `${task.id} is related` })).toBeDisabled();
    // Symmetric: the task lists the ticket too.
    const fromTask = await adminApi.listRelated('tasks', 'tasks', task.id);
    expect(fromTask.items.map((i) => i.id)).toEqual([ticket.id]);
    if (profile === 'extended') {
      // An exact id also finds the record.
      await panel.getByLabel('Record type').selectOption({ label: 'Customers (CUS)' });
      await panel.getByLabel('Search by title or id').fill(customer.id);
      await expect(
        matches.getByRole('button', { name: `${customer.id} is related` }),
      ).toBeVisible();
    } else {
      // The hosted service cannot list elements, so customers cannot be searched to relate.
      await expect(
        panel.getByLabel('Record type').getByRole('option', { name: 'Customers (CUS)' }),
      ).toHaveCount(0);
    }
    await panel.getByRole('button', { name: 'Done adding' }).click();

    // Remove with undo: the relation comes back.
    await list.getByRole('button', { name: `Remove relation to ${customer.id}` }).click();
    await expect(customerRow).toHaveCount(0);
    const toast = page
      .getByRole('status', { name: 'Notifications' })
      .locator('[data-slot="toast"]')
      .filter({ hasText: `Removed the relation to ${customer.id}` });
    await expect(toast).toBeVisible();
    // Hovering pauses the 6 s countdown (WCAG 2.2.1), so a slow axe run cannot let it expire.
    await toast.hover();
    await axe('undo toast');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(customerRow).toContainText(`Relco ${tag}`);
    await expect
      .poll(async () =>
        (await adminApi.listRelated('apps', tickets.alias, ticket.id)).items
          .map((i) => i.id)
          .sort(),
      )
      .toEqual([customer.id, task.id].sort());

    // Remove without undo: gone for good.
    await list.getByRole('button', { name: `Remove relation to ${task.id}` }).click();
    await expect(list.getByRole('listitem').filter({ hasText: task.id })).toHaveCount(0);
    await expect
      .poll(async () =>
        (await adminApi.listRelated('apps', tickets.alias, ticket.id)).items.map((i) => i.id),
      )
      .toEqual([customer.id]);

    // Open on click: the related record opens in its own definition's view.
    await list.getByRole('link', { name: new RegExp(customer.id) }).click();
    await expect(page).toHaveURL(new RegExp(`/records/elements/customers/${customer.id}`));
    await expect(page.getByRole('dialog')).toContainText(`Relco ${tag}`);
  });
});
