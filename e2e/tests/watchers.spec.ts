import { expect, saveScreenshot, test } from '../fixtures.ts';

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe('watchers', () => {
  test('add by searching people (name and email, inactive not offered), list, remove', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    // Several full-stack round trips and axe runs on a machine shared with other suites.
    test.setTimeout(90_000);
    const tag = unique();
    const ticket = await adminApi.createRecord('apps', tickets.alias, {
      Title: `Watchers ${tag}`,
      Status: 'New',
    });
    // A distinctive surname so the search finds exactly these two people.
    const surname = `Watchley${tag}`;
    const active = await adminApi.createUser({
      email: `ada.${tag}@helpdesk.example`,
      firstName: 'Ada',
      lastName: surname,
    });
    const inactive = await adminApi.createUser({
      email: `bob.${tag}@helpdesk.example`,
      firstName: 'Bob',
      lastName: surname,
    });
    await adminApi.deactivateUser(inactive.id);

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=watchers`);
    const panel = page.getByRole('dialog');
    await expect(panel.getByText('Nobody is watching this record yet.')).toBeVisible();
    await axe('watchers tab, empty');

    const picker = panel.getByRole('combobox', { name: 'Add a watcher' });
    await picker.fill(surname);
    const option = page.getByRole('option', { name: new RegExp(active.email) });
    await expect(option).toContainText(`Ada ${surname}`);
    await expect(page.getByRole('option')).toHaveCount(1);
    await expect(page.getByRole('option', { name: new RegExp(inactive.email) })).toHaveCount(0);
    await saveScreenshot(page, 'watchers-picker');
    await picker.press('Enter');

    const list = panel.getByRole('list', { name: 'Watchers' });
    const row = list.getByRole('listitem').filter({ hasText: active.email });
    await expect(row).toContainText(`Ada ${surname}`);
    await expect(picker).toHaveValue('');
    await expect
      .poll(async () =>
        (await adminApi.listWatchers('apps', tickets.alias, ticket.id)).items.map(
          (w) => w.target.email,
        ),
      )
      .toEqual([active.email]);
    await axe('watchers tab, with a watcher');

    await row.getByRole('button', { name: `Remove Ada ${surname} from watchers` }).click();
    await expect(row).toHaveCount(0);
    await expect(panel.getByText('Nobody is watching this record yet.')).toBeVisible();
    await expect
      .poll(async () => (await adminApi.listWatchers('apps', tickets.alias, ticket.id)).total)
      .toBe(0);
  });
});
