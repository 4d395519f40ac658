// The user actions the `remote` benchmark times, each as a person does it in the console (keys,
// clicks, by role and label) and each measured with remote-measure.ts. One function per row of
// the table; each returns its samples.
import type { Browser, Page } from 'playwright-core';

import type { Profile, RecordInput } from '@wsc/api-client';
import { createApiClient, requestToken } from '@wsc/api-client';

import type { ActionContext, ActionSample } from './remote-measure.ts';
import type { BulkSample } from './remote-report.ts';
import type { Credential } from './stack.ts';
import { installProbe } from './paint-probe.ts';
import { exactly, measureAction, SETTLE_MS } from './remote-measure.ts';

const LIST = '/records/apps/support-tickets';
const TICKETS_TABLE = 'table[aria-label="Support Tickets records"]';
/** A person's pointer rests on what they are about to click for about this long. */
const HOVER_MS = 100;
/** A person reads a record they opened for a few seconds before changing a field. */
const EDIT_THINK_MS = 2_500;

/** Waits until the records table of a definition shows rows. */
async function rowsShown(page: Page, table = TICKETS_TABLE): Promise<void> {
  await page.locator(`${table} tbody tr[aria-rowindex]`).first().waitFor({ timeout: 60_000 });
}

/** The handles of the rows the tickets list shows, in order. */
async function listedIds(page: Page): Promise<string[]> {
  await rowsShown(page);
  const ids = await page
    .locator(`${TICKETS_TABLE} tbody tr[data-row-id]`)
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-id') ?? ''));
  return ids.filter(Boolean);
}

/** The value of a one-key field group (triage), without its key label. */
async function pressedValue(page: Page, group: string): Promise<string> {
  const text = await page
    .getByRole('group', { name: group })
    .locator('[aria-pressed="true"]')
    .first()
    .textContent();
  return (text ?? '').replace(/^⇧?\d/, '').trim();
}

async function groupValues(page: Page, group: string): Promise<string[]> {
  const texts = await page
    .getByRole('group', { name: group })
    .getByRole('button')
    .allTextContents();
  return texts.map((text) => text.replace(/^⇧?\d/, '').trim());
}

const pressedShown = (group: string, value: string) => ({
  selector: `[role="group"][aria-label="${group}"] [aria-pressed="true"]`,
  pattern: `${exactly(value).slice(1, -1)}$`,
});

async function openTriage(page: Page): Promise<void> {
  await page.goto(`${LIST}/triage`);
  await page.getByTestId('triage-record-id').waitFor({ timeout: 60_000 });
  await page.locator('article [aria-label="Loading"]').waitFor({ state: 'detached' });
}

/**
 * A triage status key (the digit of a value the record does not have) and then `u`, `runs`
 * times on the current record: each from the keydown to the frame showing the value pressed.
 *
 * @example
 * const { key, undo } = await triageKeyAndUndo(ctx);
 */
export async function triageKeyAndUndo(
  ctx: ActionContext,
): Promise<{ key: ActionSample[]; undo: ActionSample[] }> {
  const { page } = ctx;
  await openTriage(page);
  const values = await groupValues(page, 'Status');
  const key: ActionSample[] = [];
  const undo: ActionSample[] = [];
  for (let i = 0; i < ctx.runs; i += 1) {
    const before = await pressedValue(page, 'Status');
    const target = values.filter((value) => value !== before)[i % 2] ?? values[0] ?? '';
    const digit = String(values.indexOf(target) + 1);
    key.push(
      await measureAction(
        ctx,
        { event: 'keydown', key: digit, shown: pressedShown('Status', target) },
        () => page.keyboard.press(digit),
      ),
    );
    undo.push(
      await measureAction(
        ctx,
        { event: 'keydown', key: 'u', shown: pressedShown('Status', before) },
        () => page.keyboard.press('u'),
      ),
    );
  }
  return { key, undo };
}

/**
 * `j` in triage with the neighbours prefetched (400 ms of reading between presses): keydown to
 * the frame showing the next record with its fields loaded.
 *
 * @example
 * const samples = await nextRecord(ctx);
 */
export async function nextRecord(ctx: ActionContext): Promise<ActionSample[]> {
  const { page } = ctx;
  await openTriage(page);
  const samples: ActionSample[] = [];
  for (let i = 0; i < ctx.runs; i += 1) {
    await page.waitForTimeout(400);
    const current = (await page.getByTestId('triage-record-id').textContent()) ?? '';
    samples.push(
      await measureAction(
        ctx,
        {
          event: 'keydown',
          key: 'j',
          shown: {
            selector: '[data-testid="triage-record-id"]',
            notPattern: exactly(current),
            absent: 'article [aria-label="Loading"]',
          },
        },
        () => page.keyboard.press('j'),
      ),
    );
  }
  return samples;
}

/**
 * Saving one field in the record panel: open a listed record from its row, read for a while,
 * pick another Status, click Save; "shown" is the list row showing the new Status, "confirmed"
 * the first frame after the save's answer.
 *
 * @example
 * const samples = await panelSave(ctx);
 */
export async function panelSave(ctx: ActionContext): Promise<ActionSample[]> {
  const { page } = ctx;
  await page.goto(LIST);
  const ids = (await listedIds(page)).slice(0, ctx.runs);
  const samples: ActionSample[] = [];
  for (const id of ids) {
    await page.locator(`${TICKETS_TABLE} tr[data-row-id="${id}"]`).click();
    const dialog = page.getByRole('dialog');
    const status = dialog.getByLabel(/^Status\b/).first();
    await status.waitFor({ timeout: 60_000 });
    await page.waitForTimeout(EDIT_THINK_MS);
    const before = await status.inputValue();
    const target = before === 'Pending' ? 'On Hold' : 'Pending';
    await status.selectOption(target);
    samples.push(
      await measureAction(
        ctx,
        {
          event: 'click',
          shown: {
            selector: `${TICKETS_TABLE} tr[data-row-id="${id}"] td`,
            pattern: exactly(target),
          },
          confirm: true,
        },
        () => dialog.getByRole('button', { name: /^Save/ }).click(),
      ),
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  return samples;
}

/**
 * Opening a record from its list row (a click after the pointer rested on it): click to the
 * frame showing the panel's form, no skeleton left.
 *
 * @example
 * const samples = await recordOpen(ctx);
 */
export async function recordOpen(ctx: ActionContext): Promise<ActionSample[]> {
  const { page } = ctx;
  await page.goto(LIST);
  // Records no earlier action opened: nothing of them is cached.
  const ids = (await listedIds(page)).slice(ctx.runs, ctx.runs * 2);
  const samples: ActionSample[] = [];
  for (const id of ids) {
    const row = page.locator(`${TICKETS_TABLE} tr[data-row-id="${id}"]`);
    await row.hover();
    await page.waitForTimeout(HOVER_MS);
    samples.push(
      await measureAction(
        ctx,
        {
          event: 'click',
          shown: {
            selector: '[role="dialog"]:has(form)',
            pattern: id,
            absent: '[role="dialog"] [data-slot="skeleton"]',
          },
        },
        () => row.click(),
      ),
    );
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
  return samples;
}

/**
 * A sidebar click from the tickets list (freshly loaded, so nothing of the target is cached) to
 * another record type: click to the frame showing its first rows.
 *
 * @example
 * const samples = await sidebarClick(ctx);
 */
export async function sidebarClick(ctx: ActionContext): Promise<ActionSample[]> {
  const { page } = ctx;
  const samples: ActionSample[] = [];
  for (let i = 0; i < ctx.runs; i += 1) {
    await page.goto(LIST);
    await rowsShown(page);
    const entry = page.getByRole('link', { name: /\bTasks\b/ }).first();
    await entry.hover();
    await page.waitForTimeout(HOVER_MS);
    samples.push(
      await measureAction(
        ctx,
        {
          event: 'click',
          shown: { selector: 'table[aria-label="Tasks records"] tbody tr[aria-rowindex]' },
        },
        () => entry.click(),
      ),
    );
  }
  return samples;
}

/**
 * Cold sign-in: a new browser (no cookies, cache or connections) opens the tickets list, is sent
 * to sign-in, signs in; the BFF's upstream connections were closed first (as after a pause).
 * From the click on Sign in to the frame showing the list's first rows; then signs out.
 *
 * @example
 * const samples = await coldSignIn(ctx, browser, bffUrl, credentials.admin);
 */
export async function coldSignIn(
  ctx: Omit<ActionContext, 'page'>,
  browser: Browser,
  bffUrl: string,
  credential: Credential,
): Promise<ActionSample[]> {
  const samples: ActionSample[] = [];
  for (let i = 0; i < ctx.runs; i += 1) {
    const context = await browser.newContext({
      baseURL: bffUrl,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await installProbe(context);
      const page = await context.newPage();
      await page.goto(LIST);
      await page.getByLabel('Client ID').fill(credential.clientId);
      await page.getByLabel('Client secret').fill(credential.clientSecret);
      await ctx.link.quiet(SETTLE_MS);
      ctx.link.dropConnections();
      const sample = await measureAction(
        { page, link: ctx.link },
        { event: 'click', shown: { selector: `${TICKETS_TABLE} tbody tr[aria-rowindex]` } },
        () => page.getByRole('button', { name: 'Sign in' }).click(),
        { timeoutMs: 60_000, settleMs: 0 },
      ).catch(async (error: unknown) => {
        // What the page showed instead of the rows: the first thing to know about a failure.
        const shown = await page
          .locator('body')
          .innerText()
          .catch(() => '(unreadable)');
        throw new Error(
          `cold sign-in: no rows within 60 s; the page showed: ${shown.slice(0, 600)}`,
          {
            cause: error,
          },
        );
      });
      samples.push(sample);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Client ID').waitFor();
    } finally {
      await context.close();
    }
  }
  return samples;
}

/** A run's tag: the bulk records carry it as their Customer. */
export const bulkTag = (profile: Profile) => `Remote bulk ${profile}`;

/**
 * Creates the bulk change's records straight at the API (not through the link): `count` support
 * tickets with Severity Low and the run's tag as Customer.
 *
 * @example
 * await createBulkRecords(api.url, 'extended', credentials.admin, 100);
 */
export async function createBulkRecords(
  apiUrl: string,
  profile: Profile,
  credential: Credential,
  count: number,
): Promise<void> {
  const { access_token: token } = await requestToken({
    tokenUrl: `${apiUrl}/oauth/token`,
    clientId: credential.clientId,
    clientSecret: credential.clientSecret,
    style: profile === 'hosted' ? 'json' : 'form',
  });
  const api = createApiClient({ baseUrl: `${apiUrl}/v1`, getToken: async () => token, profile });
  for (let i = 0; i < count; i += 1) {
    const fields: RecordInput = {
      Title: `Remote bulk item ${i + 1}`,
      Status: 'Open',
      Severity: 'Low',
      Customer: bulkTag(profile),
    };
    await api.createRecord('apps', 'support-tickets', fields);
  }
}

/** The Severity the tagged records hold now: each run sets the other one, so all of them change. */
export type BulkState = { severity: 'Low' | 'High' };

/**
 * The 100-record bulk change: the tagged records listed by filter, all selected, Severity set
 * (High and Low in turn, so every record changes), previewed; after the API's bucket has had
 * time to refill, from the click on Apply to the frame showing the run's summary.
 *
 * @example
 * const samples = await bulkChange(ctx, 'extended', { severity: 'Low' }, 5_500);
 */
export async function bulkChange(
  ctx: ActionContext,
  profile: Profile,
  state: BulkState,
  refillMs: number,
): Promise<BulkSample[]> {
  const { page } = ctx;
  const samples: BulkSample[] = [];
  const filter = `Customer=='${bulkTag(profile)}'`;
  await page.goto(`${LIST}?filter=${encodeURIComponent(filter)}`);
  for (let i = 0; i < ctx.runs; i += 1) {
    await rowsShown(page);
    const target = state.severity === 'Low' ? 'High' : 'Low';
    await page
      .getByRole('checkbox', { name: /^Select (?!all)/ })
      .first()
      .check();
    await page.getByRole('button', { name: /^Select all .* matching/ }).click();
    await page.getByRole('button', { name: /^Change fields/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Change .* records/ });
    await dialog.getByLabel('Field 1').selectOption('Severity');
    await dialog.getByLabel('New Severity').selectOption(target);
    await dialog.getByRole('button', { name: /^Preview/ }).click();
    const apply = dialog.getByRole('button', { name: /^Apply to .* records/ });
    await apply.waitFor({ timeout: 60_000 });
    const sample = await measureAction(
      ctx,
      {
        event: 'click',
        shown: {
          selector: '[role="dialog"] [role="status"]',
          pattern: '^[\\d,]+ changed(, [\\d,]+ failed)?\\.$',
        },
      },
      () => apply.click(),
      { timeoutMs: 180_000, settleMs: refillMs },
    );
    const summary =
      (await dialog
        .getByRole('status')
        .filter({ hasText: / changed/ })
        .first()
        .textContent()) ?? '';
    samples.push({ ...sample, summary });
    state.severity = target;
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  return samples;
}
