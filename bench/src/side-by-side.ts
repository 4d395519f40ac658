// Side by side (issue 19, item 5): the console's records table (apps/web's production build,
// served by the BFF in front of a fresh API holding 5,000 support tickets) against a react-admin 5
// list (<List> + <Datagrid>, ra-data-fakerest; bench/react-admin, built by this bench) of the same
// support tickets, 1,000 and 5,000 rows on one page, in one Chromium run: first render, long tasks,
// frames while scrolling, JS heap after a forced GC, DOM nodes, as console / react-admin and the
// ratio console ÷ react-admin.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, CDPSession, Route } from 'playwright-core';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { Figure, Section } from './lib/report.ts';
import type { SeedOutcome } from './seed-records.ts';
import { CHROMIUM, CHROMIUM_ARGS, signIn } from './lib/browser.ts';
import { withConsoleStack } from './lib/console-stack.ts';
import { freePort, ROOT } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { formatMiB, formatMs, percentile } from './lib/stats.ts';
import { seedStore } from './seed-records.ts';

/** Row counts under test, each on one page in both apps. */
const SIZES = [1_000, 5_000];
/** The demo seed: 5,000 records of which 4,000 support tickets (seedStore counts all records). */
const DEMO_RECORDS = 5_000;
const DEMO_TICKETS = 4_000;
const TICKETS = 5_000;
/** Measured page loads per app and size (after one warm-up each), alternating the two apps. */
const RUNS = 3;
const SCROLL_STEP_PX = 300;
const VIEWPORT = { width: 1280, height: 800 };
const RENDER_TIMEOUT_MS = 120_000;

const LIST_URL = '/records/apps/support-tickets';
const RECORDS_API = '/api/v1/apps/support-tickets';
/** The API's (published) largest page. */
const API_PAGE = 1_000;
const RA_DIR = path.join(ROOT, 'bench/react-admin');
const RA_DIST = path.join(RA_DIR, 'dist');

/** The console's default columns for support tickets (defaultColumns in apps/web's columns.ts). */
const COLUMNS: Array<{ source: string; label: string; type: 'text' | 'date' | 'datetime' }> = [
  { source: 'id', label: 'ID', type: 'text' },
  { source: 'Title', label: 'Title', type: 'text' },
  { source: 'Status', label: 'Status', type: 'text' },
  { source: 'Severity', label: 'Severity', type: 'text' },
  { source: 'Priority', label: 'Priority', type: 'text' },
  { source: 'Assignee', label: 'Assignee', type: 'text' },
  { source: 'Due Date', label: 'Due Date', type: 'date' },
  { source: 'Updated At', label: 'Updated At', type: 'datetime' },
];

type App = 'console' | 'react-admin';

type Run = {
  /** Data response end (Resource Timing) -> first animation frame with the rows. */
  renderMs: number;
  /** Navigation start -> the same frame. */
  navMs: number;
  renderLongTasks: number[];
  scrollLongTasks: number[];
  frames: number;
  maxFrameMs: number;
  framesOver16: number;
  framesOver50: number;
  scrollPx: number;
  heap: number;
  domNodes: number;
  /** Data requests the page made by the end of the scroll (records requests; tickets.json). */
  dataRequests: number;
};

// In every page before the app's code: long tasks, and the first animation frame after the page
// holds the rows under test (the console: its status line reads >= N loaded; react-admin: the
// Datagrid's body holds N rows). Then, on request, a scroll through all rows, 300 px per frame.
function instrument(app: App, rows: number): string {
  return `
  window.__sbs = { longTasks: [], renderedAt: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__sbs.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const rowsShown = ${
    app === 'console'
      ? `() => {
    const el = document.querySelector('[data-testid="records-status"]');
    const match = el && /^([0-9.,\\s\\u00a0\\u202f]+) loaded/.exec(el.textContent || '');
    return (match ? Number(match[1].replace(/[^0-9]/g, '')) : 0) >= ${rows}
      && document.querySelector('[data-testid="records-scroll"] tbody tr') !== null;
  }`
      : `() => {
    const body = document.querySelector('.RaDatagrid-tbody');
    return body !== null && body.children.length >= ${rows};
  }`
  };
  const check = () => {
    if (window.__sbs.renderedAt !== null || !rowsShown()) return;
    window.__sbs.renderedAt = -1;
    observer.disconnect();
    requestAnimationFrame(() => { window.__sbs.renderedAt = performance.now(); });
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  window.__sbs.scroll = async (step) => {
    const scroller = ${
      app === 'console'
        ? `document.querySelector('[data-testid="records-scroll"]')`
        : 'document.scrollingElement'
    };
    if (!scroller) throw new Error('no scroller');
    const before = window.__sbs.longTasks.length;
    const end = scroller.scrollHeight - scroller.clientHeight;
    const frames = [];
    let last = performance.now();
    for (let top = step; ; top += step) {
      scroller.scrollTop = Math.min(top, end);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      frames.push(now - last);
      last = now;
      if (top >= end) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    return {
      frames,
      scrollPx: end,
      longTasks: window.__sbs.longTasks.slice(before).map((t) => t.duration),
    };
  };
`;
}

/** The first `rows` support tickets as the console asks for them, fetched through its route. */
async function fetchRows(
  route: Route,
  rows: number,
): Promise<{ total: unknown; items: unknown[] }> {
  const items: unknown[] = [];
  let after: string | null = null;
  let total: unknown;
  while (items.length < rows) {
    const url = new URL(route.request().url());
    url.searchParams.set('first', String(Math.min(API_PAGE, rows - items.length)));
    if (after) url.searchParams.set('after', after);
    const response = await route.fetch({ url: url.toString() });
    if (!response.ok()) throw new Error(`records page: HTTP ${response.status()}`);
    const page = (await response.json()) as {
      total?: unknown;
      items: unknown[];
      paging?: { end_cursor?: string | null; has_next_page?: boolean };
    };
    items.push(...page.items);
    total = page.total;
    after = page.paging?.end_cursor ?? null;
    if (!page.paging?.has_next_page || !after) break;
  }
  if (items.length < rows) throw new Error(`only ${items.length} support tickets, need ${rows}`);
  return { total, items };
}

/** Serves bench/react-admin/dist (index.html for every other path) and `/tickets.json?rows=N`. */
async function serveReactAdmin(
  payloads: Map<number, string>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.json': 'application/json',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/tickets.json') {
      const body = payloads.get(Number(url.searchParams.get('rows')));
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    const file = path.join(RA_DIST, path.normalize(url.pathname));
    const target =
      file.startsWith(RA_DIST) && fs.existsSync(file) && fs.statSync(file).isFile()
        ? file
        : path.join(RA_DIST, 'index.html');
    res.writeHead(200, {
      'content-type': types[path.extname(target)] ?? 'application/octet-stream',
    });
    fs.createReadStream(target).pipe(res);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function settledHeap(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

type Setup = {
  browser: Browser;
  consoleUrl: string;
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
  raUrl: string;
  /** The console's records body per row count, filled on the console's first load. */
  bodies: Map<number, string>;
  payloads: Map<number, string>;
  /** The console's first-page requests (query strings) answered with the rows. */
  firstPages: Set<string>;
};

/** One page load of one app in a fresh context, measured from navigation to the end of a scroll. */
async function measure(setup: Setup, app: App, rows: number): Promise<Run> {
  const context = await setup.browser.newContext({
    viewport: VIEWPORT,
    ...(app === 'console'
      ? { baseURL: setup.consoleUrl, storageState: setup.storageState }
      : { baseURL: setup.raUrl }),
  });
  try {
    await context.addInitScript({ content: instrument(app, rows) });
    if (app === 'console') {
      // The list asks for 100 rows; its first request is answered with the first `rows` support
      // tickets in one body (fetched once through the BFF in pages of 1,000, then from memory),
      // and no further page: the table holds exactly `rows` rows, as react-admin's page does.
      await context.route(`**${RECORDS_API}?*`, async (route) => {
        const url = new URL(route.request().url());
        // Only the list's first page: its other requests (e.g. `first=1`, a cheap total) go on.
        if (url.searchParams.get('first') !== '100' || url.searchParams.has('after'))
          return route.continue();
        setup.firstPages.add(url.search);
        let body = setup.bodies.get(rows);
        if (body === undefined) {
          const { total, items } = await fetchRows(route, rows);
          body = JSON.stringify({
            paging: {
              has_previous_page: false,
              start_cursor: null,
              end_cursor: null,
              has_next_page: false,
            },
            total,
            items,
          });
          setup.bodies.set(rows, body);
          setup.payloads.set(rows, JSON.stringify({ columns: COLUMNS, items }));
        }
        return route.fulfill({
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
          body,
        });
      });
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    await page.goto(app === 'console' ? LIST_URL : `/?rows=${rows}`);
    await page.waitForFunction(
      () =>
        ((window as unknown as { __sbs: { renderedAt: number | null } }).__sbs.renderedAt ?? 0) > 0,
      undefined,
      { timeout: RENDER_TIMEOUT_MS },
    );
    // Data ready: the end of the last response the list needs that ended before the frame (the
    // console: its records page, its definitions and saved views; react-admin: tickets.json).
    const needed =
      app === 'console'
        ? [`${RECORDS_API}?first=100`, '/bff/definitions', '/bff/views']
        : ['/tickets.json?'];
    const render = (await page.evaluate(`(() => {
      const bench = window.__sbs;
      const needed = ${JSON.stringify(needed)};
      const ends = performance.getEntriesByType('resource')
        .filter((e) => needed.some((p) => e.name.includes(p)) && !e.name.includes('after=')
          && e.responseEnd <= bench.renderedAt)
        .map((e) => e.responseEnd);
      const data = performance.getEntriesByType('resource')
        .filter((e) => e.name.includes(needed[0]) && e.responseEnd <= bench.renderedAt);
      const from = data.length > 0 ? Math.max(...ends) : NaN;
      return {
        renderMs: bench.renderedAt - from,
        navMs: bench.renderedAt,
        renderLongTasks: bench.longTasks
          .filter((t) => t.start + t.duration >= from && t.start <= bench.renderedAt)
          .map((t) => t.duration),
      };
    })()`)) as Pick<Run, 'renderMs' | 'navMs' | 'renderLongTasks'>;
    if (!Number.isFinite(render.renderMs))
      throw new Error(`${app}: the data response is not in Resource Timing`);
    await page.waitForLoadState('networkidle');
    const scroll = (await page.evaluate(`window.__sbs.scroll(${SCROLL_STEP_PX})`)) as {
      frames: number[];
      scrollPx: number;
      longTasks: number[];
    };
    const heap = await settledHeap(cdp);
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const dataRequests = (await page.evaluate(
      `performance.getEntriesByType('resource').filter((e) => e.name.includes(${JSON.stringify(needed[0])})).length`,
    )) as number;
    return {
      ...render,
      scrollLongTasks: scroll.longTasks,
      frames: scroll.frames.length,
      maxFrameMs: Math.max(0, ...scroll.frames),
      framesOver16: scroll.frames.filter((ms) => ms > 1000 / 60).length,
      framesOver50: scroll.frames.filter((ms) => ms > 50).length,
      scrollPx: scroll.scrollPx,
      heap,
      domNodes,
      dataRequests,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

type Metric = {
  name: string;
  value: (run: Run) => number;
  format: (value: number) => string;
};

const count = (value: number) => value.toLocaleString('en');
const METRICS: Metric[] = [
  {
    name: 'first render (data ready -> rows painted)',
    value: (r) => r.renderMs,
    format: formatMs,
  },
  { name: 'navigation -> rows painted', value: (r) => r.navMs, format: formatMs },
  { name: 'long tasks during first render', value: (r) => r.renderLongTasks.length, format: count },
  {
    name: 'long-task time during first render',
    value: (r) => r.renderLongTasks.reduce((sum, ms) => sum + ms, 0),
    format: formatMs,
  },
  {
    name: 'long tasks while scrolling all rows',
    value: (r) => r.scrollLongTasks.length,
    format: count,
  },
  { name: 'frames while scrolling', value: (r) => r.frames, format: count },
  { name: 'longest frame while scrolling', value: (r) => r.maxFrameMs, format: formatMs },
  { name: 'frames over 16.7 ms', value: (r) => r.framesOver16, format: count },
  { name: 'frames over 50 ms', value: (r) => r.framesOver50, format: count },
  { name: 'JS heap after forced GC (after the scroll)', value: (r) => r.heap, format: formatMiB },
  { name: 'DOM nodes (after the scroll)', value: (r) => r.domNodes, format: count },
];

function ratioText(a: number[], b: number[]): string {
  const medA = median(a);
  const medB = median(b);
  if (medA === 0 && medB === 0) return '– (both 0)';
  if (medB === 0) return '∞ (react-admin 0)';
  const ratio = medA / medB;
  if (ratio === 0) return '0x';
  return `${ratio >= 1 ? ratio.toFixed(2) : ratio.toPrecision(2)}x`;
}

/** Builds bench/react-admin into dist/ and returns its JavaScript's raw and gzip sizes. */
function buildReactAdmin(): { raw: number; gzip: number } {
  execFileSync('pnpm', ['--filter', 'bench-react-admin', 'build'], { cwd: ROOT, stdio: 'pipe' });
  const assets = path.join(RA_DIST, 'assets');
  let raw = 0;
  let gzip = 0;
  for (const name of fs.readdirSync(assets).filter((n) => n.endsWith('.js'))) {
    const body = fs.readFileSync(path.join(assets, name));
    raw += body.length;
    gzip += gzipSync(body).length;
  }
  return { raw, gzip };
}

async function run(ctx: BenchContext): Promise<Section> {
  ctx.log('side-by-side: building bench/react-admin...');
  const raJs = buildReactAdmin();
  const versions = JSON.parse(
    fs.readFileSync(path.join(RA_DIR, 'node_modules/react-admin/package.json'), 'utf8'),
  ) as { version: string };
  const reactVersion = (
    JSON.parse(fs.readFileSync(path.join(RA_DIR, 'node_modules/react/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  let seed: SeedOutcome | undefined;
  return withConsoleStack(
    'side-by-side',
    {
      prepare: async (dataDir) => {
        ctx.log(`side-by-side: seeding ${TICKETS} support tickets...`);
        seed = await seedStore({
          count: DEMO_RECORDS + TICKETS - DEMO_TICKETS,
          dataDir,
          onProgress: (message) => ctx.log(`  [seed] ${message}`),
        });
        if (seed.tickets < TICKETS)
          throw new Error(`seeded ${seed.tickets} support tickets, fewer than ${TICKETS}`);
      },
    },
    async ({ bff, browser, credentials }) => {
      const signInContext = await browser.newContext({ baseURL: bff.url, viewport: VIEWPORT });
      const signInPage = await signInContext.newPage();
      await signInPage.goto('/sign-in');
      await signIn(signInPage, credentials.admin);
      const storageState = await signInContext.storageState();
      await signInContext.close();

      const payloads = new Map<number, string>();
      const ra = await serveReactAdmin(payloads);
      try {
        const setup: Setup = {
          browser,
          consoleUrl: bff.url,
          storageState,
          raUrl: ra.url,
          bodies: new Map(),
          payloads,
          firstPages: new Set(),
        };
        const results = new Map<number, Record<App, Run[]>>();
        for (const rows of SIZES) {
          // Warm-up: the console first (it fetches the rows react-admin is then given).
          await measure(setup, 'console', rows);
          await measure(setup, 'react-admin', rows);
          const runs: Record<App, Run[]> = { console: [], 'react-admin': [] };
          for (let i = 0; i < RUNS; i += 1) {
            const order: App[] =
              i % 2 === 0 ? ['console', 'react-admin'] : ['react-admin', 'console'];
            for (const app of order) {
              const result = await measure(setup, app, rows);
              runs[app].push(result);
              ctx.log(
                `side-by-side: ${app} ${rows} rows: render ${formatMs(result.renderMs)}, nav ${formatMs(result.navMs)}, ${result.renderLongTasks.length} + ${result.scrollLongTasks.length} long tasks, longest frame ${formatMs(result.maxFrameMs)} of ${result.frames}, heap ${formatMiB(result.heap)}, ${result.domNodes} nodes, ${result.dataRequests} data requests`,
              );
            }
          }
          results.set(rows, runs);
        }

        const rowsOf = (rows: number) => results.get(rows) as Record<App, Run[]>;
        const pair = (rows: number, metric: Metric) => {
          const { console: c, 'react-admin': r } = rowsOf(rows);
          const a = c.map(metric.value);
          const b = r.map(metric.value);
          return {
            console: metric.format(median(a)),
            ra: metric.format(median(b)),
            ratio: ratioText(a, b),
          };
        };
        const figures: Figure[] = SIZES.flatMap((rows) =>
          [METRICS[0], METRICS[3], METRICS[4], METRICS[8], METRICS[9], METRICS[10]].map(
            (metric) => {
              const m = metric as Metric;
              const p = pair(rows, m);
              return {
                name: `${count(rows)} rows: ${m.name}, console / react-admin (console ÷ react-admin)`,
                value: `${p.console} / ${p.ra} (${p.ratio})`,
              };
            },
          ),
        );
        const scrollPx = (rows: number, app: App) =>
          median(rowsOf(rows)[app].map((r) => r.scrollPx));
        return {
          id: 'side-by-side',
          title: `Records table side by side with react-admin ${versions.version} (1,000 and 5,000 rows)`,
          command: ctx.command,
          date: new Date(),
          machine: machineInfo(),
          figures,
          tables: [
            {
              title: `Medians of ${RUNS} page loads per app and size (console / react-admin; ratio = console median ÷ react-admin median)`,
              headers: ['figure', 'rows', 'console', 'react-admin', 'console ÷ react-admin'],
              rows: SIZES.flatMap((rows) =>
                METRICS.map((metric) => {
                  const p = pair(rows, metric);
                  return [metric.name, count(rows), p.console, p.ra, p.ratio];
                }),
              ),
            },
          ],
          notes: [
            `Method: one Chromium run (Debian Chromium ${CHROMIUM} headless through playwright-core with ${CHROMIUM_ARGS.join(' ')}, viewport ${VIEWPORT.width}x${VIEWPORT.height}). Console: the production build (apps/web/dist, \`pnpm --filter web build\`) served by the BFF in front of a fresh API (PGlite) whose store holds the demo seed plus generated support tickets up to ${(seed?.tickets ?? TICKETS).toLocaleString('en')} (bench/src/seed-records.ts), signed in as the demo admin, \`${LIST_URL}\` with its default columns. react-admin: bench/react-admin (react-admin ${versions.version}, ra-data-fakerest, React ${reactVersion}, MUI as react-admin brings it; \`vite build\` by the bench, ${(raJs.gzip / 1024).toFixed(0)} KiB of JS gzip, ${(raJs.raw / 1024).toFixed(0)} KiB raw, served uncompressed by a static server in the bench process), one resource \`tickets\` in <List perPage={N} pagination={false}> + <Datagrid> (react-admin's defaults otherwise: row checkboxes, sortable headers) with the console's columns (${COLUMNS.map((c) => c.label).join(', ')}; DateField for the two dates).`,
            `Same rows in both: the console's first records request (\`first=100\`) is answered by a Playwright route with the first N support tickets in one body and no next page (the bench fetches them once through the BFF, in pages of ${API_PAGE.toLocaleString('en')}, the published maximum, with the console's own query, then answers from memory), so the table holds exactly N rows from its first render and loads nothing while scrolling; react-admin's page fetches \`/tickets.json?rows=N\` (the same items, from the bench's memory) before it mounts <Admin> and ra-data-fakerest holds them. The console's records requests answered so: ${[...setup.firstPages].map((q) => `\`${q}\``).join(', ')}; its first-page requests per load (median): ${median(SIZES.flatMap((rows) => rowsOf(rows).console.map((r) => r.dataRequests)))}.`,
            `First render: from data ready, the responseEnd (Resource Timing) of the last response the list needs that ended before the frame (console: the records page, /bff/definitions, /bff/views; react-admin: tickets.json), to the first animation frame after the rows are in the page (console: the status line reads >= N loaded and the table has rows, as the console bench defines it; react-admin: the Datagrid body holds N rows), same MutationObserver + requestAnimationFrame in both; "navigation ->" is from navigation start to the same frame. Long tasks: PerformanceObserver 'longtask' (> 50 ms); during first render = those overlapping data ready -> painted frame, counted with their full duration (one may have started before data ready). Scroll: after network idle, the scroller's scrollTop grows by ${SCROLL_STEP_PX} px per animation frame to the bottom (console: \`[data-testid="records-scroll"]\`, ${formatPx(scrollPx(1_000, 'console'))} / ${formatPx(scrollPx(5_000, 'console'))} px for 1,000 / 5,000 rows; react-admin: the window, document.scrollingElement, ${formatPx(scrollPx(1_000, 'react-admin'))} / ${formatPx(scrollPx(5_000, 'react-admin'))} px); a frame is the gap between two animation frames. Heap: CDP Runtime.getHeapUsage().usedSize after two HeapProfiler.collectGarbage, after the scroll; DOM nodes: document.getElementsByTagName('*').length, after the scroll.`,
            `Runs: per size, one warm-up load of each app, then ${RUNS} rounds of one load each, alternating which app goes first; each load in a fresh browser context (the console's with the signed-in cookies), so the heap holds one page. Figures are medians of the ${RUNS}; ratios are console median ÷ react-admin median.`,
          ],
        };
      } finally {
        await ra.close();
      }
    },
  );
}

const formatPx = (px: number) => Math.round(px).toLocaleString('en');

export const sideBySideBench: Bench = {
  id: 'side-by-side',
  title: 'Records table side by side with react-admin',
  run,
};
