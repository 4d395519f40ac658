// Triage driven by the keyboard in Chromium: j/k, number keys for status and severity, `a` with
// type-ahead, `c` comments, `e` edits (shortcuts stay quiet while typing), `n` saves and moves
// on, `u` undoes, `?` lists the shortcuts, and the next record shows quickly after `j`.
import type { Page } from '@playwright/test';

import { createTaggedQueue, expect, saveScreenshot, test } from '../fixtures.ts';

const currentId = (page: Page) => page.getByTestId('triage-record-id');

test.describe('triage', () => {
  test.describe.configure({ timeout: 90_000 });
  test('works the queue with the keyboard and undoes the last change', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
    profile,
    creds,
  }, testInfo) => {
    const tag = `Triage ${Date.now().toString(36)}`;
    const ids = await createTaggedQueue(adminApi, tickets, tag, [
      'Printer jams',
      'VPN drops',
      'Invoice wrong',
      'Login loop',
    ]);
    const filter = `Customer=='${tag}'`;
    await login('admin');
    await page.goto(`${tickets.url}?filter=${encodeURIComponent(filter)}&sort=Priority`);
    await expect(page.getByTestId('records-status')).toContainText('of 4 records');
    await page.getByRole('link', { name: 'Triage' }).click();

    await expect(page.getByRole('heading', { name: 'Triage', level: 1 })).toBeVisible();
    await expect(currentId(page)).toHaveText(ids[0] ?? '');
    await expect(page.getByTestId('triage-position')).toHaveText('1 of 4');
    await expect(page).toHaveURL(new RegExp(`id=${ids[0]}`));
    // The hosted service cannot sort: the queue keeps its order (sorting a partly loaded queue
    // would make j skip records that arrive later), and says so.
    await expect(page.getByTestId('triage-server-order')).toHaveCount(profile === 'hosted' ? 1 : 0);
    // When and by whom it last changed, from the definition's audit fields (`Updated At` / `By`
    // in our API, `Updated on` / `by` in the hosted description).
    await expect(
      page.getByText(new RegExp(`^Updated .+ by ${creds.admin.email.replace(/\./g, '\\.')}$`)),
    ).toBeVisible();
    await axe('triage');
    await saveScreenshot(page, 'triage');

    // j / k and the arrow keys move through the queue.
    await page.keyboard.press('j');
    await expect(currentId(page)).toHaveText(ids[1] ?? '');
    await page.keyboard.press('ArrowDown');
    await expect(currentId(page)).toHaveText(ids[2] ?? '');
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    await expect(currentId(page)).toHaveText(ids[0] ?? '');

    // Next record shown after `j`, with neighbours prefetched (DESIGN.md: <= 100 ms).
    await page.waitForLoadState('networkidle');
    const elapsed = await page.evaluate(async () => {
      const label = () => document.querySelector('[data-testid="triage-record-id"]')?.textContent;
      const before = label();
      const start = performance.now();
      document.body.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'j', code: 'KeyJ', bubbles: true }),
      );
      while (label() === before) await new Promise((resolve) => requestAnimationFrame(resolve));
      return performance.now() - start;
    });
    testInfo.annotations.push({ type: 'triage-next-ms', description: elapsed.toFixed(1) });
    console.log(`triage: next record shown ${elapsed.toFixed(1)} ms after j`);
    // Generous here (a shared 2-core machine); the 100 ms budget is measured by bench/.
    expect(elapsed).toBeLessThan(300);
    await expect(currentId(page)).toHaveText(ids[1] ?? '');
    const id = ids[1] ?? '';

    // 2 -> second status (Open); Shift+3 -> third severity (High).
    await page.keyboard.press('2');
    await expect(page.getByTestId('triage-status')).toContainText(`${id}: Status → Open`);
    await page.keyboard.press('Shift+Digit3');
    // Shown at once (optimistic, ADR 0028); stored when the status line says so (writes to one
    // record go out in order, so the status is stored by then too).
    await expect(page.getByTestId('triage-status')).toHaveText(
      `${id}: Severity → High. Press u to undo.`,
    );
    await expect(
      page.getByRole('group', { name: 'Severity' }).getByRole('button', { pressed: true }),
    ).toContainText('High');
    const stored = (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record;
    expect(stored).toMatchObject({ Status: 'Open', Severity: 'High' });

    // u undoes the last change (severity), written back with If-Match (hosted: after a re-read).
    await page.keyboard.press('u');
    await expect(page.getByTestId('triage-status')).toContainText('undone');
    await expect
      .poll(
        async () =>
          (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record.Severity,
      )
      .toBe('Low');

    // a: assignee type-ahead; Enter picks the highlighted person.
    const agent = (await adminApi.listUsers({ filter: `email==${creds.agent.email}` })).items[0];
    if (!agent) throw new Error('no demo agent');
    await page.keyboard.press('a');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await page.keyboard.type(agent.lastName);
    // Wait for the results of the whole name (the unfiltered list shows first, then settles).
    await expect(page.locator('[data-slot="user-picker-popup"]')).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await expect(page.getByRole('option', { name: new RegExp(agent.email) })).toBeVisible();
    await axe('triage assignee');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('triage-assignee')).toHaveText(agent.email);

    // c: a comment, posted with Ctrl+Enter.
    await page.keyboard.press('c');
    await expect(page.getByRole('textbox', { name: 'Comment' })).toBeFocused();
    await page.keyboard.type('Called the customer; j and k typed here do nothing else.');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('triage-status')).toContainText(`${id}: comment posted`);
    const comments = await adminApi.listComments(tickets.recordType, tickets.alias, id);
    expect(comments.items.map((c) => c.contents)).toContain(
      'Called the customer; j and k typed here do nothing else.',
    );
    await expect(currentId(page)).toHaveText(id);
    await page.keyboard.press('Escape');

    // e: edit a field; typing "j" goes into the field; n saves and moves to the next record.
    await page.keyboard.press('e');
    const title = page.getByRole('form', { name: 'Edit fields' }).getByLabel('Title');
    await expect(title).toBeFocused();
    await page.keyboard.press('End');
    await page.keyboard.type(' j k');
    await expect(currentId(page)).toHaveText(id);
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    await expect(currentId(page)).toHaveText(ids[2] ?? '');
    // n moved on at once; the save is stored behind it.
    await expect(page.getByTestId('triage-status')).toHaveText(
      new RegExp(`^${id}: Title → .* j k\\. Press u to undo\\.$`),
    );
    await expect
      .poll(async () => (await adminApi.getRecord(tickets.recordType, tickets.alias, id)).record)
      .toMatchObject({ Title: expect.stringMatching(/ j k$/), Assignee: agent.email });

    // ?: every shortcut; keys do nothing while the dialog is open.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    await expect(help.getByRole('row')).toHaveCount(12 + 1); // the header row and one per shortcut
    await axe('triage shortcuts');
    await page.keyboard.press('j');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await expect(currentId(page)).toHaveText(ids[2] ?? '');

    // Exit goes back to the same filtered list.
    await page.getByRole('link', { name: 'Exit triage' }).click();
    await expect(page.getByTestId('active-filter')).toHaveText(filter);
  });
});
