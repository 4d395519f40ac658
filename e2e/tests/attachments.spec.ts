import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';

import type { ApiClient, Definition } from '@wsc/api-client';
import { MAX_UPLOAD_BYTES } from '@wsc/api-client';

import { expect, handleOf, saveScreenshot, test } from '../fixtures.ts';

const unique = () => Math.random().toString(36).slice(2, 8);

/** Deterministic pseudo-random bytes (xorshift32), so a failure can be reproduced byte for byte. */
function deterministicBytes(size: number, seed: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return Buffer.from(words.buffer, 0, size);
}

const tempDirs: string[] = [];

/** A temp folder for generated files, removed after the test whether it passed or not. */
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-e2e-attachments-'));
  tempDirs.push(dir);
  return dir;
}

test.afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A ticket of this test's own; resolves its handle (`id` or the hosted `Ticket ID`). */
async function newTicket(adminApi: ApiClient, tickets: Definition, title: string) {
  const record = await adminApi.createRecord('apps', tickets.alias, {
    Title: title,
    Status: 'New',
  });
  return { id: handleOf(record, tickets) };
}

/** Chromium's network throttling (DevTools protocol): slows uploads so progress can be watched. */
async function throttleUploads(page: Page, bytesPerSecond: number | null) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  });
}

test.describe('attachments', () => {
  test('a 50 MB file goes up through the BFF and comes back byte for byte', async ({
    page,
    login,
    tickets,
    adminApi,
    creds,
    axe,
    profile,
  }) => {
    test.setTimeout(120_000);
    const ticket = await newTicket(adminApi, tickets, `Attachments ${unique()}`);
    const dir = tempDir();
    const bigPath = path.join(dir, 'capture-50mb.bin');
    const big = deterministicBytes(50 * 1024 * 1024 + 123, 42);
    fs.writeFileSync(bigPath, big);
    const expected = createHash('sha256').update(big).digest('hex');
    const notesPath = path.join(dir, 'notes.txt');
    fs.writeFileSync(notesPath, 'Customer says the printer jams on page 2.\n');

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=attachments`);
    const panel = page.getByRole('dialog');
    await expect(panel.getByText('No files or links yet.')).toBeVisible();
    await axe('attachments tab, empty');

    // Several files at once through the file chooser.
    const chooser = page.waitForEvent('filechooser');
    await panel.getByRole('button', { name: 'Choose files' }).click();
    await (await chooser).setFiles([bigPath, notesPath]);
    const uploads = panel.getByRole('list', { name: 'Uploads to this record' });
    await expect(uploads.getByTestId('upload-row')).toHaveCount(2);
    await expect(uploads.locator('[data-status="done"]')).toHaveCount(2, { timeout: 90_000 });

    const list = panel.getByRole('list', { name: 'Attachments' });
    const bigRow = list.getByTestId('attachment-row').filter({ hasText: 'capture-50mb.bin' });
    await expect(bigRow).toContainText('50 MB');
    await expect(bigRow).toContainText('Binary file');
    // Who uploaded it is an extension of our API; the hosted attachment does not say.
    if (profile === 'extended') await expect(bigRow).toContainText(creds.admin.email);
    else await expect(bigRow).not.toContainText(creds.admin.email);
    const notesRow = list.getByTestId('attachment-row').filter({ hasText: 'notes.txt' });
    await expect(notesRow).toContainText('Text');
    await axe('attachments tab, with files');
    await saveScreenshot(page, 'attachments-uploaded');

    // Download through the UI (the BFF's /api/v1/... content URL) and compare the bytes.
    const download = page.waitForEvent('download');
    await bigRow.getByRole('button', { name: 'Download capture-50mb.bin' }).click();
    const file = await (await download).path();
    const actual = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    expect(actual).toBe(expected);
    const stored = await adminApi.listAttachments('apps', tickets.alias, ticket.id);
    const storedBig = stored.find((a) => a.name === 'capture-50mb.bin');
    // `sha256` is an extension; the hosted attachment has its size only.
    if (profile === 'extended') expect(storedBig?.sha256).toBe(expected);
    else {
      expect(storedBig?.size).toBe(big.length);
      expect(storedBig?.sha256).toBeUndefined();
    }
  });

  test('upload manager: 3 at once, progress and speed, cancel, retry; the tray follows navigation', async ({
    page,
    login,
    tickets,
    adminApi,
  }) => {
    test.setTimeout(120_000);
    const ticket = await newTicket(adminApi, tickets, `Upload manager ${unique()}`);
    const dir = tempDir();
    const files = [1, 2, 3, 4, 5].map((n) => {
      const file = path.join(dir, `part-${n}.bin`);
      fs.writeFileSync(file, deterministicBytes(3 * 1024 * 1024, n));
      return file;
    });

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=attachments`);
    const panel = page.getByRole('dialog');
    await expect(panel.getByText('No files or links yet.')).toBeVisible();
    await throttleUploads(page, 1024 * 1024);
    await panel.getByTestId('file-input').setInputFiles(files);

    const uploads = panel.getByRole('list', { name: 'Uploads to this record' });
    const row = (n: number) =>
      uploads.getByTestId('upload-row').filter({ hasText: `part-${n}.bin` });
    // At most three run at once; the rest wait in order.
    await expect(uploads.locator('[data-status="uploading"]')).toHaveCount(3);
    await expect(uploads.locator('[data-status="queued"]')).toHaveCount(2);
    await expect(row(4)).toHaveAttribute('data-status', 'queued');
    await expect(row(1).getByRole('progressbar')).toBeVisible();
    await expect(row(1).getByTestId('upload-speed')).toHaveText(/\d+(\.\d)? (KB|MB)\/s/);
    await saveScreenshot(page, 'attachments-upload-manager');

    // Cancel a running one (the next in the queue starts) and a queued one.
    await row(2).getByRole('button', { name: 'Cancel upload of part-2.bin' }).click();
    await expect(row(2)).toHaveAttribute('data-status', 'canceled');
    await expect(row(4)).toHaveAttribute('data-status', 'uploading');
    await row(5).getByRole('button', { name: 'Cancel upload of part-5.bin' }).click();
    await expect(row(5)).toHaveAttribute('data-status', 'canceled');
    // Retry re-queues the canceled upload.
    await row(2).getByRole('button', { name: 'Retry upload of part-2.bin' }).click();
    await expect(row(2)).toHaveAttribute('data-status', /queued|uploading/);

    // Leave the record and the definition: the tray keeps showing the uploads.
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await page
      .getByRole('link', { name: /Customers/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/records\/elements\/customers/);
    const tray = page.getByRole('region', { name: 'Uploads' });
    await expect(tray).toBeVisible();
    await expect(tray.getByTestId('upload-row')).toHaveCount(5);
    await saveScreenshot(page, 'attachments-upload-tray');
    await throttleUploads(page, null);
    await expect(tray.locator('[data-status="done"]')).toHaveCount(4, { timeout: 60_000 });
    await expect(tray.locator('[data-status="canceled"]')).toHaveCount(1);
    await expect(tray.getByRole('heading')).toHaveText('4 of 5 uploaded');

    // The canceled upload left nothing behind on the server.
    const stored = await adminApi.listAttachments('apps', tickets.alias, ticket.id);
    expect(stored.map((a) => a.name).sort()).toEqual([
      'part-1.bin',
      'part-2.bin',
      'part-3.bin',
      'part-4.bin',
    ]);
    await tray.getByRole('button', { name: 'Clear' }).click();
    await expect(tray).toHaveCount(0);
  });

  test('files over 250 MiB are refused before sending; drag and drop adds files', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const ticket = await newTicket(adminApi, tickets, `Too big ${unique()}`);
    const dir = tempDir();
    const hugePath = path.join(dir, 'huge.iso');
    // Sparse: takes no disk, but its size is one byte over the limit.
    fs.closeSync(fs.openSync(hugePath, 'w'));
    fs.truncateSync(hugePath, MAX_UPLOAD_BYTES + 1);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/attachments')) {
        posts.push(request.url());
      }
    });

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=attachments`);
    const panel = page.getByRole('dialog');
    await panel.getByTestId('file-input').setInputFiles(hugePath);
    const uploads = panel.getByRole('list', { name: 'Uploads to this record' });
    const refused = uploads.getByTestId('upload-row').filter({ hasText: 'huge.iso' });
    await expect(refused).toHaveAttribute('data-status', 'refused');
    await expect(refused).toContainText('over the 250 MB limit; not sent');
    await axe('refused upload');

    // Drag and drop: a file dropped on the zone is uploaded like a chosen one.
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      return data;
    });
    const zone = panel.getByTestId('drop-zone');
    await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    const list = panel.getByRole('list', { name: 'Attachments' });
    await expect(
      list.getByTestId('attachment-row').filter({ hasText: 'dropped.txt' }),
    ).toBeVisible();
    expect(posts).toHaveLength(1);
  });

  test('URL links: http(s) only, opened with noopener noreferrer; remove waits for the undo window', async ({
    page,
    login,
    tickets,
    adminApi,
    axe,
  }) => {
    const ticket = await newTicket(adminApi, tickets, `Links ${unique()}`);
    // The API refuses other schemes too, whatever the form does.
    await expect(
      adminApi.addUrlLink('apps', tickets.alias, ticket.id, { url: 'javascript:alert(1)' }),
    ).rejects.toMatchObject({ status: 422 });

    await login('admin');
    await page.goto(`${tickets.url}/${ticket.id}?tab=attachments`);
    const panel = page.getByRole('dialog');
    const form = panel.getByRole('form', { name: 'Add a link' });
    await form.getByLabel('Link URL').fill('javascript:alert(1)');
    await form.getByRole('button', { name: 'Add link' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Only absolute http:// or https:// links are allowed.',
    );
    await expect(form.getByLabel('Link URL')).toHaveAttribute('aria-invalid', 'true');
    await axe('link form error');

    await form.getByLabel('Link URL').fill('https://status.example.com/incidents/42');
    await form.getByLabel('Description').fill('Status page incident');
    await form.getByRole('button', { name: 'Add link' }).click();
    const list = panel.getByRole('list', { name: 'Attachments' });
    const link = list.getByRole('link', { name: /Status page incident/ });
    await expect(link).toHaveAttribute('href', 'https://status.example.com/incidents/42');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(list.getByTestId('attachment-row')).toContainText('Link');

    // Remove, then Undo: nothing was deleted on the server.
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request.url());
    });
    const name = 'https://status.example.com/incidents/42';
    await list.getByRole('button', { name: `Remove ${name}` }).click();
    await expect(link).toHaveCount(0);
    const toast = page
      .getByRole('status', { name: 'Notifications' })
      .locator('[data-slot="toast"]')
      .filter({ hasText: `Removed ${name}` });
    await toast.hover();
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(link).toBeVisible();
    expect(deletes).toEqual([]);
    expect(await adminApi.listAttachments('apps', tickets.alias, ticket.id)).toHaveLength(1);

    // Remove and let it go (dismissing the toast): now the DELETE is sent.
    await list.getByRole('button', { name: `Remove ${name}` }).click();
    await page
      .getByRole('status', { name: 'Notifications' })
      .locator('[data-slot="toast"]')
      .filter({ hasText: `Removed ${name}` })
      .getByRole('button', { name: 'Dismiss notification' })
      .click();
    await expect.poll(() => deletes.length).toBe(1);
    await expect
      .poll(async () => (await adminApi.listAttachments('apps', tickets.alias, ticket.id)).length)
      .toBe(0);
    await expect(panel.getByText('No files or links yet.')).toBeVisible();
  });
});
