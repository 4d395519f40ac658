// Who the console says is signed in, for a credential the operator's identities file does not
// name (a second credential of the demo agent, a MEMBER, made with the API's CLI). Our API says
// who it is (`/v1/me`). The hosted service does not: behind a BFF without an identities file the
// person may type an email, shown as unverified and deciding nothing; the role is unknown, so the
// management controls show with a note and the service's own 403 explains a refusal. Behind the
// main hosted BFF (with an identities file that leaves this credential out) only the client id is
// known.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';

import type { Bff, DemoCredential } from '../stack.ts';
import { expect, saveScreenshot, signIn, test } from '../fixtures.ts';
import { runProfile, startBff } from '../stack.ts';

let bff: Bff | undefined;
let bffDir: string | undefined;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  if (runProfile() !== 'hosted') return;
  test.setTimeout(90_000);
  // The same upstream (through the same Prism) and workspace file as the main BFF, no identities.
  bffDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-e2e-no-identities-'));
  bff = await startBff({
    name: 'no-identities-hosted',
    upstreamURL: process.env.E2E_UPSTREAM_URL ?? '',
    profile: 'hosted',
    dataDir: bffDir,
    workspaceFile: process.env.E2E_WORKSPACE_FILE,
  });
});

test.afterAll(async () => {
  await bff?.stop();
  if (bffDir) fs.rmSync(bffDir, { recursive: true, force: true });
});

function unlistedCredential(creds: { unlisted?: DemoCredential }): DemoCredential {
  if (!creds.unlisted) throw new Error('global-setup made no unlisted credential');
  return creds.unlisted;
}

/** The shell's user block: the name, then the line under it. */
const userBlock = (page: Page) => page.getByTestId('signed-in-user').locator('..');

test('a credential nobody configured: named by the service, or by a typed email marked unverified', async ({
  page,
  creds,
  profile,
  axe,
}) => {
  const unlisted = unlistedCredential(creds);
  const emailField = page.getByLabel(/Your email/);
  if (profile === 'extended') {
    // Our API says who the credential belongs to: no email is asked, and the role is known.
    await page.goto('/sign-in');
    await expect(page.getByLabel('Client ID')).toBeVisible();
    await expect(emailField).toHaveCount(0);
    await signIn(page, unlisted);
    await expect(page.getByTestId('signed-in-user')).toHaveText('Sam Rivera');
    await expect(userBlock(page)).toContainText(`${unlisted.email} · member`);
    await page.goto('/users');
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New user' })).toHaveCount(0);
    await expect(page.getByTestId('role-note')).toHaveCount(0);
    return;
  }

  // The main hosted BFF has an identities file: it asks for no email, and knows only the client id.
  await page.goto('/sign-in');
  await expect(page.getByLabel('Client ID')).toBeVisible();
  await expect(emailField).toHaveCount(0);
  await signIn(page, unlisted);
  await expect(page.getByTestId('signed-in-user')).toHaveText(unlisted.clientId);
  await expect(userBlock(page)).toContainText(`client ${unlisted.clientId}`);
  await page.getByRole('button', { name: 'Sign out' }).click();

  // Without an identities file the form offers the optional email.
  const other = bff;
  if (!other) throw new Error('the BFF without identities did not start');
  await page.goto(`${other.baseURL}/sign-in`);
  await expect(emailField).toBeVisible();
  await expect(
    page.getByText('Your email only names you in the console (marked unverified)'),
  ).toBeVisible();
  await axe('sign-in with the optional email');
  await saveScreenshot(page, 'sign-in-email');
  await page.getByLabel('Client ID').fill(unlisted.clientId);
  await page.getByLabel('Client secret').fill(unlisted.clientSecret);
  await emailField.fill(unlisted.email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The name comes from the user list (looked up by the typed email); the role stays unknown.
  await expect(page.getByTestId('signed-in-user')).toHaveText('Sam Rivera');
  await expect(userBlock(page)).toContainText(`${unlisted.email} · unverified`);
  await expect(userBlock(page)).not.toContainText('member');
  await expect(userBlock(page).locator('[title]')).toHaveAttribute(
    'title',
    'You typed this email at sign-in; the service has not confirmed it',
  );
  await saveScreenshot(page, 'unverified-shell');

  // Role unknown: the management controls show, with the note; the service decides.
  await page.goto(`${other.baseURL}/users`);
  const create = page.getByRole('button', { name: 'New user' });
  await expect(create).toHaveAttribute(
    'title',
    'Your role is not known to the console; the service decides whether you may create users',
  );
  await create.click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  const stamp = Date.now().toString(36);
  await dialog.getByLabel('Email').fill(`refused.${stamp}@e2e.example`);
  await dialog.getByLabel('First name').fill('Refused');
  await dialog.getByLabel('Last name').fill(`Member${stamp}`);
  await dialog.getByRole('button', { name: 'Create user' }).click();
  // A MEMBER may not create people: the service's 403, said plainly where it happened.
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText("You don't have access");
  await expect(refusal).toContainText('Only administrators may create users');
  await axe('a 403 from the service');
  await saveScreenshot(page, 'unverified-403');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A group page: the add and remove controls, the note beside them, and the service's 403.
  await page.goto(`${other.baseURL}/groups`);
  await page.getByRole('table', { name: 'Groups' }).getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByTestId('role-note')).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Add members' });
  await picker.fill('Rivera');
  await expect(page.getByRole('option', { name: new RegExp(unlisted.email) })).toBeVisible();
  // The results settle after the last keystroke (the popup is aria-busy until then).
  await expect(page.locator('[data-slot="user-picker-popup"]')).toHaveAttribute(
    'aria-busy',
    'false',
  );
  await picker.press('Enter');
  await expect(page.getByRole('list', { name: 'People to add' })).toContainText('Rivera');
  await page.getByRole('button', { name: 'Add member', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText("You don't have access");
  await expect(page.getByRole('alert')).toContainText(
    'Only administrators may change group membership',
  );
  await expect(page.getByTestId('membership-result')).toHaveCount(0);
  await saveScreenshot(page, 'unverified-group-403');
});
