import { directApi, expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe('comments', () => {
  test('thread oldest first with author and time; Ctrl+Enter posts; markup stays text', async ({
    page,
    login,
    tickets,
    adminApi,
    creds,
    axe,
  }) => {
    // Several full-stack round trips and axe runs on a machine shared with other suites.
    test.setTimeout(90_000);
    const ticket = {
      id: handleOf(
        await adminApi.createRecord('apps', tickets.alias, {
          Title: `Comments ${unique()}`,
          Status: 'New',
        }),
        tickets,
      ),
    };
    const agentApi = await directApi(creds.agent);
    // Extended: JSON comments (an extension); hosted: the published text/plain body.
    await adminApi.addComment('apps', tickets.alias, ticket.id, 'First: looking into it.');
    await agentApi.addComment('apps', tickets.alias, ticket.id, 'Second: customer sent logs.');
    // The agent's name from the user list (`/me` is an extension the hosted service lacks).
    const agent = (await adminApi.listUsers({ filter: `email==${creds.agent.email}` })).items[0];
    if (!agent) throw new Error('no demo agent');

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}`);
    const panel = page.getByRole('dialog');
    await panel.getByRole('tab', { name: 'Comments' }).click();
    await expect(page).toHaveURL(/[?&]tab=comments/);
    const thread = panel.getByRole('list', { name: 'Comment thread' });
    const items = thread.getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText('First: looking into it.');
    await expect(items.nth(1)).toContainText('Second: customer sent logs.');
    await expect(items.nth(1)).toContainText(`${agent.firstName} ${agent.lastName}`);
    await expect(items.nth(0).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await axe('comments tab');

    // Markup in a comment is shown as text and never runs.
    const attack = '<img src=x onerror="window.__xss=1">';
    const composer = panel.getByLabel('Add a comment');
    await composer.fill(attack);
    await composer.press('Control+Enter');
    await expect(items).toHaveCount(3);
    await expect(items.nth(2).getByTestId('comment-text')).toHaveText(attack);
    await expect(composer).toHaveValue('');
    expect(await thread.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    const stored = await adminApi.listComments('apps', tickets.alias, ticket.id);
    expect(stored.items.map((c) => c.contents)).toEqual([
      'First: looking into it.',
      'Second: customer sent logs.',
      attack,
    ]);
    await saveScreenshot(page, 'comments-thread');

    // The tab is in the URL: a reload reopens the record on its comments.
    await page.reload();
    await expect(page.getByRole('dialog').getByRole('tab', { name: 'Comments' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('drafts are kept per record while moving around the console', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    // Several full-stack round trips and axe runs on a machine shared with other suites.
    test.setTimeout(90_000);
    const tag = unique();
    const first = {
      id: handleOf(
        await adminApi.createRecord('apps', tickets.alias, {
          Title: `Draft A ${tag}`,
          Status: 'New',
        }),
        tickets,
      ),
    };
    const second = {
      id: handleOf(
        await adminApi.createRecord('apps', tickets.alias, {
          Title: `Draft B ${tag}`,
          Status: 'New',
        }),
        tickets,
      ),
    };

    await login('admin');
    await page.goto(`${tickets.url}/${first.id}?tab=comments`);
    const panel = page.getByRole('dialog');
    await panel.getByLabel('Add a comment').fill('Half-written reply for A');

    // Another tab of the same record, then another record, then another page entirely.
    await panel.getByRole('tab', { name: 'Details' }).click();
    await panel.getByRole('tab', { name: 'Comments' }).click();
    await expect(panel.getByLabel('Add a comment')).toHaveValue('Half-written reply for A');
    await page.goto(`${tickets.url}/${second.id}?tab=comments`);
    await expect(page.getByRole('dialog').getByLabel('Add a comment')).toHaveValue('');
    await page.getByRole('dialog').getByLabel('Add a comment').fill('Note for B');
    await page.keyboard.press('Escape');
    // Closing the panel drops its tab from the URL; the list keeps its own params.
    await expect(page).toHaveURL(new RegExp(`${tickets.url}$`));
    await page
      .getByRole('link', { name: /Customers/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/records\/elements\/customers/);
    // Back through history (no reload): B's panel, its draft still there.
    await page.goBack();
    await page.goBack();
    await expect(page.getByRole('dialog').getByLabel('Add a comment')).toHaveValue('Note for B');

    await page.goto(`${tickets.url}/${first.id}?tab=comments`);
    await expect(page.getByRole('dialog').getByLabel('Add a comment')).toHaveValue(
      'Half-written reply for A',
    );
    await page.goto(`${tickets.url}/${second.id}?tab=comments`);
    await expect(page.getByRole('dialog').getByLabel('Add a comment')).toHaveValue('Note for B');
    // Sending clears the draft.
    await page.getByRole('dialog').getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(
      page.getByRole('dialog').getByRole('list', { name: 'Comment thread' }),
    ).toContainText('Note for B');
    await page.reload();
    await expect(page.getByRole('dialog').getByLabel('Add a comment')).toHaveValue('');
  });
});
