// Presence in Chromium, two people at once (the admin "A" and the agent "B", in two browser
// contexts): B's record panel shows A viewing, then A editing within a second of A stepping into
// a field; B's list marks the record A has open; B stepping into the form of the record A edits is
// asked first; B's triage `j` passes over the record A edits and says so (and stops doing that
// when the toggle is off), and its pane and editor warn as the panel does; when A closes the
// record, B's marker goes.
import type { APIRequestContext, Page } from '@playwright/test';

import {
  createTaggedQueue,
  expect,
  expectNoAxeViolations,
  saveScreenshot,
  signedInPerson,
  test,
} from '../fixtures.ts';

type Me = { user: { firstName?: string; lastName?: string; email?: string } };

async function sessionName(request: APIRequestContext): Promise<string> {
  const res = await request.get('/bff/session');
  expect(res.ok()).toBe(true);
  const user = ((await res.json()) as Me).user;
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || (user.email ?? '');
}

const notice = (page: Page) => page.getByTestId('presence-notice');

test.describe('presence', () => {
  test.describe.configure({ timeout: 120_000 });

  test('B sees A live, is warned before editing what A edits, and j skips it', async ({
    page,
    login,
    tickets,
    adminApi,
    browser,
    creds,
  }) => {
    const tag = `Presence ${Date.now().toString(36)}`;
    const ids = await createTaggedQueue(adminApi, tickets, tag, [
      'Fax on fire',
      'Mouse missing',
      'Coffee cold',
    ]);
    const [first, edited, third] = ids as [string, string, string];
    const search = `filter=${encodeURIComponent(`Customer=='${tag}'`)}&sort=Priority`;
    const agent = await signedInPerson(browser, creds.agent);
    try {
      await login('admin');
      const a = await sessionName(page.request);

      // B has the record open; A opens it too: B's panel says A is viewing.
      await agent.page.goto(`${tickets.url}/${edited}?${search}`);
      await expect(agent.page.getByRole('dialog')).toBeVisible();
      await page.goto(`${tickets.url}/${edited}?${search}`);
      const title = page.getByRole('dialog').getByLabel('Title');
      await expect(title).toBeVisible();
      await expect(notice(agent.page)).toHaveText(`${a} is viewing`);
      // B's panel shows nobody's presence but A's (never B's own).
      await expect(notice(page)).toHaveText(/is viewing/);

      // A steps into a field: B sees "editing" within a second.
      await title.click();
      const started = Date.now();
      await expect(notice(agent.page)).toHaveText(`${a} is editing`, { timeout: 1_000 });
      console.log(`presence: B saw A editing ${Date.now() - started} ms after A's click`);
      await saveScreenshot(agent.page, 'presence-record-panel');
      await expectNoAxeViolations(agent.page, 'record panel saying who is editing');

      // B stepping into the form is asked first; "Not now" leaves the form alone.
      await agent.page.getByRole('dialog').getByLabel('Title').click();
      const warning = agent.page.getByRole('dialog', {
        name: `${a} is editing this record. Edit anyway?`,
      });
      await expect(warning).toBeVisible();
      await saveScreenshot(agent.page, 'presence-edit-warning');
      await warning.getByRole('button', { name: 'Not now' }).click();
      await expect(warning).toBeHidden();

      // B's list marks the record A has open, and only that one.
      await agent.page.goto(`${tickets.url}?${search}`);
      await expect(agent.page.getByTestId('records-status')).toContainText('of 3 records');
      const marker = agent.page.getByRole('img', { name: `${a} has this open (editing)` });
      await expect(marker).toHaveCount(1);
      await expect(agent.page.getByRole('row').filter({ has: marker })).toContainText(edited);
      await saveScreenshot(agent.page, 'presence-list-marker');
      await expectNoAxeViolations(agent.page, 'records list with a presence marker');

      // B's triage: j from the first record passes over the one A edits, and says so.
      await agent.page.getByRole('link', { name: 'Triage' }).click();
      const current = agent.page.getByTestId('triage-record-id');
      await expect(current).toHaveText(first);
      const queue = agent.page.getByTestId('triage-list');
      await expect(queue.getByRole('img', { name: `${a} has this open (editing)` })).toHaveCount(1);
      const skip = agent.page.getByRole('switch', { name: 'Skip records others are editing' });
      await expect(skip).toHaveAttribute('aria-checked', 'true');
      await agent.page.keyboard.press('j');
      await expect(current).toHaveText(third);
      await expect(agent.page.getByTestId('triage-status')).toHaveText(
        `Skipped 1 record: ${a} is editing`,
      );
      await saveScreenshot(agent.page, 'presence-triage-skip');
      await expectNoAxeViolations(agent.page, 'triage with the skip switch and a marker');
      // Off: k goes to it like any other (and the choice is remembered).
      await skip.click();
      await expect(skip).toHaveAttribute('aria-checked', 'false');
      await agent.page.keyboard.press('k');
      await expect(current).toHaveText(edited);
      // Triage's pane says so too, and its editor (`e`) asks first, as the panel's form does.
      await expect(notice(agent.page)).toHaveText(`${a} is editing`);
      await agent.page.keyboard.press('e');
      const triageWarning = agent.page.getByRole('dialog', {
        name: `${a} is editing this record. Edit anyway?`,
      });
      await expect(triageWarning).toBeVisible();
      await triageWarning.getByRole('button', { name: 'Not now' }).click();
      await expect(triageWarning).toBeHidden();
      await agent.page.reload();
      await expect(skip).toHaveAttribute('aria-checked', 'false');
      await skip.click();

      // A closes the record: B's marker goes.
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
      await expect(queue.getByRole('img', { name: new RegExp(`^${a} has this open`) })).toHaveCount(
        0,
      );
    } finally {
      await agent.context.close();
    }
  });
});
