// DESIGN.md budget: console first load (gzip JS for sign-in + shell) <= 180 KB. Measured on the
// real build: every script the browser fetches from the sign-in page to the signed-in shell.
import os from 'node:os';
import { gzipSync } from 'node:zlib';

import { expect, signIn, test } from '../fixtures.ts';

const BUDGET_BYTES = 180 * 1024;

test('first load JS for sign-in + shell stays within 180 KB gzip', async ({
  page,
  creds,
}, testInfo) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => undefined);
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
  });
  await page.goto('/sign-in');
  await signIn(page, creds.admin);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const total = [...scripts.values()].reduce((sum, n) => sum + n, 0);
  const report = `first-load JS: ${(total / 1024).toFixed(1)} KB gzip in ${scripts.size} files`;
  testInfo.annotations.push({ type: 'budget', description: report });
  console.log(report);
  // Largest first: what to look at when the budget is missed.
  const files = [...scripts].sort((a, b) => b[1] - a[1]);
  console.log(files.map(([file, n]) => `  ${(n / 1024).toFixed(1)} KB  ${file}`).join('\n'));
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});

// DESIGN.md budget: records table, 1,000 rows: first render <= 150 ms, scrolling without long tasks.
test('a 1,000-row table re-renders within 150 ms and scrolls without long tasks', async ({
  page,
  login,
  tickets,
}, testInfo) => {
  await login('admin');
  await page.goto(tickets.url);
  const status = page.getByTestId('records-status');
  await expect(status).toContainText(/^100 loaded/);
  // Pages grow (100, 300, 600): 1,000 rows after two clicks.
  for (const loaded of [400, 1000]) {
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(status).toContainText(new RegExp(`^${loaded.toLocaleString('en-GB')} loaded`));
  }

  // A client-side change that re-renders the whole 1,000-row table: showing one more column.
  await page.getByRole('button', { name: 'Columns' }).click();
  const renderMs = await page.evaluate(async () => {
    const item = Array.from(document.querySelectorAll('[role="menuitemcheckbox"]')).find(
      (el) => el.getAttribute('aria-checked') === 'false',
    );
    if (!(item instanceof HTMLElement)) throw new Error('no hidden column to show');
    const before = document.querySelectorAll('thead th').length;
    const start = performance.now();
    item.click();
    while (document.querySelectorAll('thead th').length === before) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return performance.now() - start;
  });
  await page.keyboard.press('Escape');

  const longTasks = await page.evaluate(async () => {
    const scroller = document.querySelector('[data-testid="records-scroll"]');
    if (!(scroller instanceof HTMLElement)) throw new Error('no scroller');
    const tasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    // A fast wheel/trackpad fling: 300 px per frame through the loaded rows.
    const end = scroller.scrollHeight - scroller.clientHeight;
    for (let top = 0; top <= end; top += 300) {
      scroller.scrollTop = top;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    return tasks;
  });
  // Timings mean nothing on a machine whose cores are already busy (the API, the BFF and other
  // suites share it): then the figures are reported but the budget is not enforced.
  const load = (os.loadavg()[0] ?? 0) / os.cpus().length;
  const report = `1,000-row table: re-render ${renderMs.toFixed(0)} ms; long tasks while scrolling: ${longTasks.length} (${longTasks.map((t) => t.toFixed(0)).join(', ')} ms); load/core ${load.toFixed(1)}`;
  testInfo.annotations.push({ type: 'budget', description: report });
  console.log(report);
  if (load > 1) {
    testInfo.annotations.push({ type: 'budget', description: 'not enforced: machine under load' });
    return;
  }
  expect(renderMs).toBeLessThanOrEqual(150);
  expect(longTasks).toEqual([]);
});
