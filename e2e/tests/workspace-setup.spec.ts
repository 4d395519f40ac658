// The Workspace setup page. Against our API the definitions come from the API itself, so the page
// only says so. Against the hosted service an administrator describes record types there: this
// spec starts a second hosted BFF (same Prism, same identities file) whose workspace file leaves
// the demo's tasks out, then samples a wrong alias (a plain 404), samples `tasks/tasks`, corrects
// a proposed field type, saves, finds Tasks in the sidebar and its records openable, and removes
// it again. A MEMBER of the identities file may read the description but not change it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DefinitionListSchema } from '@wsc/api-client';

import type { Bff } from '../stack.ts';
import { expect, saveScreenshot, signIn, test } from '../fixtures.ts';
import { runProfile, startBff } from '../stack.ts';

let bff: Bff | undefined;
let dir: string | undefined;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  if (runProfile() !== 'hosted') return;
  test.setTimeout(90_000);
  const file = process.env.E2E_WORKSPACE_FILE;
  if (!file) throw new Error('E2E_WORKSPACE_FILE is not set');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-e2e-setup-'));
  const described = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    definitions: { recordType: string }[];
  };
  const withoutTasks = path.join(dir, 'workspace-without-tasks.json');
  fs.writeFileSync(
    withoutTasks,
    JSON.stringify({ definitions: described.definitions.filter((d) => d.recordType !== 'tasks') }),
  );
  bff = await startBff({
    name: 'setup-hosted',
    upstreamURL: process.env.E2E_UPSTREAM_URL ?? '',
    profile: 'hosted',
    dataDir: path.join(dir, 'bff'),
    workspaceFile: withoutTasks,
    identitiesFile: process.env.E2E_IDENTITIES_FILE,
  });
});

test.afterAll(async () => {
  await bff?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('record types: described by the API (extended), or sampled, corrected and saved here (hosted)', async ({
  page,
  browser,
  login,
  creds,
  profile,
  axe,
}) => {
  if (profile === 'extended') {
    // Our API describes its own record types: no sidebar link, and the page says so.
    await login('admin');
    const directory = page.getByRole('navigation', { name: 'Directory' });
    await expect(directory.getByRole('link', { name: 'Workspace setup' })).toHaveCount(0);
    await page.goto('/workspace');
    await expect(page.getByRole('heading', { level: 1, name: 'Workspace setup' })).toBeVisible();
    await expect(page.getByTestId('workspace-upstream')).toContainText(
      'There is nothing to set up here.',
    );
    await expect(page.getByRole('region', { name: 'Add a record type' })).toHaveCount(0);
    return;
  }
  const setup = bff;
  if (!setup) throw new Error('the setup BFF did not start');
  await page.goto(`${setup.baseURL}/sign-in`);
  await signIn(page, creds.admin);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const sidebar = page.getByRole('navigation', { name: 'Records' });
  await expect(sidebar.getByRole('link', { name: /Support Tickets/ })).toBeVisible();
  await expect(sidebar.getByRole('link', { name: /^TS Tasks/ })).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Directory' })
    .getByRole('link', { name: 'Workspace setup' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Workspace setup' })).toBeVisible();
  const entries = page.getByTestId('workspace-entry');
  await expect(entries).toHaveCount(3);
  await expect(entries.filter({ hasText: 'Refunds' })).toContainText(
    'none: records can be listed but not opened',
  );
  await expect(entries.filter({ hasText: 'Customers' })).toContainText(
    'Not offered by the service: records open by handle',
  );
  await axe('workspace setup');
  await saveScreenshot(page, 'workspace-setup');

  // A wrong alias: the service's 404, said plainly under the form.
  const form = page.getByRole('region', { name: 'Add a record type' });
  await form.getByLabel('Record type').selectOption('tasks');
  await form.getByLabel('Alias').fill('no-such-tasks');
  await form.getByRole('button', { name: 'Sample records' }).click();
  await expect(form.getByRole('alert')).toContainText('Not found');
  await expect(form.getByRole('alert')).toContainText('No tasks with alias no-such-tasks');

  // The real one: a proposal from sampled records, with notes on the guesses.
  await form.getByLabel('Alias').fill('tasks');
  await form.getByRole('button', { name: 'Sample records' }).click();
  const editor = page.getByRole('region', { name: 'Add Tasks' });
  await expect(editor).toBeVisible();
  await expect(editor).toContainText(/Proposed from 100 records of [\d,]+\./);
  await expect(editor.getByRole('region', { name: 'Notes from sampling' })).toBeVisible();
  await expect(editor.getByLabel('Handle field')).toHaveValue(/.+/);
  await expect(editor.getByLabel('Handle', { exact: true })).toHaveValue('TSK');
  // The guesses: Title is the title although template titles repeat, and the audit fields are
  // proposed read-only (the service sets them). Correct one: the estimate is a decimal of hours.
  await expect(editor.getByLabel('Title field').locator('option:checked')).toHaveText('Title');
  for (const name of ['Created on', 'Created by', 'Updated on', 'Updated by']) {
    const field = editor.getByRole('group', { name: `Field ${name}` });
    await expect(field.getByLabel('Read-only')).toBeChecked();
    await expect(field.getByLabel('Required')).not.toBeChecked();
  }
  const estimate = editor.getByRole('group', { name: 'Field Estimate Hours' });
  await expect(estimate.getByLabel('Type')).toHaveValue('NUMBER');
  await estimate.getByLabel('Type').selectOption('DECIMAL');
  await axe('workspace setup: the proposal');
  await saveScreenshot(page, 'workspace-setup-proposal');
  await editor.getByRole('button', { name: 'Save Tasks' }).click();
  await expect(editor).toHaveCount(0);
  const saved = entries.filter({ hasText: 'tasks/tasks' });
  await expect(saved).toContainText(`Added here by ${creds.admin.email}`);

  // The console uses it at once: the sidebar lists it, and its records open by their handle.
  const tasksLink = sidebar.getByRole('link', { name: /Tasks/ });
  await expect(tasksLink).toBeVisible();
  const definitions = DefinitionListSchema.parse(
    await (await page.request.get(`${setup.baseURL}/bff/definitions`)).json(),
  );
  const tasks = definitions.items.find((d) => d.recordType === 'tasks');
  expect(tasks?.fields.find((f) => f.name === 'Estimate Hours')?.type).toBe('DECIMAL');
  await tasksLink.click();
  const first = page.getByRole('table').getByRole('row').nth(1).getByRole('link');
  await expect(first).toHaveText(/^TSK-\d+$/);
  await first.click();
  const panel = page.getByRole('dialog');
  await expect(panel).toContainText(/TSK-\d+/);
  // As described: the title field heads the panel, the audit fields are shown, not edited.
  await expect(panel.getByLabel(/^Title/)).toBeVisible();
  await expect(panel.getByText('Updated on', { exact: true })).toBeVisible();
  await expect(panel.getByLabel(/^Updated on/)).toHaveCount(0);
  await page.keyboard.press('Escape');

  // A member of the identities file may read the description, not change it.
  const other = await browser.newContext({ timezoneId: 'Europe/Paris', locale: 'en-GB' });
  const agent = await other.newPage();
  await agent.goto(`${setup.baseURL}/sign-in`);
  await signIn(agent, creds.agent);
  await expect(agent.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await agent.goto(`${setup.baseURL}/workspace`);
  await expect(agent.getByTestId('workspace-read-only')).toContainText(
    'You can read this description but not change it.',
  );
  await expect(agent.getByRole('region', { name: 'Add a record type' })).toHaveCount(0);
  await expect(agent.getByRole('button', { name: 'Remove Tasks' })).toHaveCount(0);
  await other.close();

  // Remove it again: the sidebar forgets it.
  await page
    .getByRole('navigation', { name: 'Directory' })
    .getByRole('link', { name: 'Workspace setup' })
    .click();
  await page.getByRole('button', { name: 'Remove Tasks' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Tasks?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(entries).toHaveCount(3);
  await expect(sidebar.getByRole('link', { name: /Tasks/ })).toHaveCount(0);
});
