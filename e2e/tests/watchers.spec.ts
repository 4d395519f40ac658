import { expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

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
    const ticket = {
      id: handleOf(
        await adminApi.createRecord('apps', tickets.alias, {
          Title: `Watchers ${tag}`,
          Status: 'New',
        }),
        tickets,
      ),
    };
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

  test('a group among the watchers is listed read-only, saying why', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    // The demo's Support Tier 2 group watches the newest critical tickets (in both profiles): the
    // published contract lists group targets, but watchers are added and removed by email only.
    const { items } = await adminApi.searchRecords(tickets.recordType, tickets.alias, {
      filter: 'Severity==Critical',
      first: 1000,
    });
    let watched: { id: string; group: string } | undefined;
    for (const { data } of items.reverse()) {
      const id = handleOf(data, tickets);
      const { items: watchers } = await adminApi.listWatchers('apps', tickets.alias, id);
      const group = watchers.find((w) => w.target.type === 'Group');
      if (group) {
        watched = { id, group: group.target.name };
        break;
      }
    }
    if (!watched) throw new Error('no record watched by a group');

    await login('admin');
    await page.goto(`${tickets.url}/${watched.id}?tab=watchers`);
    const row = page
      .getByRole('dialog')
      .getByRole('list', { name: 'Watchers' })
      .getByTestId('watcher-row')
      .filter({ hasText: watched.group });
    await expect(row).toContainText('Group · its members are notified');
    await expect(row.getByText('Read-only')).toHaveAttribute(
      'title',
      'The API adds and removes watchers by email only; change this one in Elementum',
    );
    await expect(row.getByRole('button')).toHaveCount(0);
    await axe('watchers tab with a group');
    await saveScreenshot(page, 'watchers-group');
  });
});
