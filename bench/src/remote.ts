// `pnpm bench -- remote`: the console across a long link to the service (DESIGN.md section 7).
// A delay link between the BFF and the API (every chunk held `oneWayMs` each way, a new
// connection's first bytes held one round trip more for its handshake) at 0 and 40 ms one way,
// in both upstream profiles, with the API's default rate limit on; real Chromium; every action of
// issue 27's table timed INP-style and counted at the link.
import type { Profile } from '@wsc/api-client';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { BulkState } from './lib/remote-actions.ts';
import type { ActionContext, ActionSample } from './lib/remote-measure.ts';
import type { DelayResults, RemoteResults } from './lib/remote-report.ts';
import type { SeededStore } from './lib/remote-stack.ts';
import type { Section } from './lib/report.ts';
import { numberOption } from './lib/bench.ts';
import { signIn } from './lib/browser.ts';
import { installProbe } from './lib/paint-probe.ts';
import {
  bulkChange,
  coldSignIn,
  createBulkRecords,
  nextRecord,
  panelSave,
  recordOpen,
  sidebarClick,
  triageKeyAndUndo,
} from './lib/remote-actions.ts';
import { remoteReport } from './lib/remote-report.ts';
import { withRemoteStack, withSeededStore } from './lib/remote-stack.ts';

/** The API's default bucket (RATE_LIMIT_BURST / RATE_LIMIT_RPS): a run starts from it full. */
const REFILL_MS = 5_500;

function listOption(ctx: BenchContext, name: string, fallback: string): string[] {
  return (ctx.options[name] ?? fallback)
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

/** All actions of one profile at one delay, on a signed-in page. */
async function runDelay(
  ctx: ActionContext,
  profile: Profile,
  signInOnce: () => Promise<ActionSample[]>,
  bulk: { runs: number; state: BulkState },
): Promise<DelayResults> {
  const results: DelayResults = {};
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await run();
    ctx.log(
      `remote: ${profile} ${ctx.link.delay()} ms ${name} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    return value;
  };
  results.signIn = await step('cold sign-in', signInOnce);
  results.sidebar = await step('sidebar click', () => sidebarClick(ctx));
  results.open = await step('record open', () => recordOpen(ctx));
  const triage = await step('triage key + undo', () => triageKeyAndUndo(ctx));
  results.key = triage.key;
  results.undo = triage.undo;
  results.next = await step('j', () => nextRecord(ctx));
  results.save = await step('panel save', () => panelSave(ctx));
  results.bulk = await step('bulk', () =>
    bulkChange({ ...ctx, runs: bulk.runs }, profile, bulk.state, REFILL_MS),
  );
  await ctx.link.quiet(REFILL_MS);
  return results;
}

async function runProfile(
  bench: BenchContext,
  store: SeededStore,
  profile: Profile,
  delays: number[],
  runs: number,
  bulkRuns: number,
  bulkRecords: number,
): Promise<Map<number, DelayResults>> {
  return withRemoteStack(profile, store, async ({ api, credentials, link, bff, browser }) => {
    bench.log(`remote: ${profile} stack up`);
    const credential = credentials.admin;
    await createBulkRecords(api.url, profile, credential, bulkRecords);
    bench.log(`remote: ${profile} ${bulkRecords} bulk records created`);
    const context = await browser.newContext({
      baseURL: bff.url,
      viewport: { width: 1280, height: 800 },
    });
    await installProbe(context);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await signIn(page, credential);
    const byDelay = new Map<number, DelayResults>();
    const state: BulkState = { severity: 'Low' };
    const bulk = { runs: bulkRuns, state };
    for (const delay of delays) {
      link.setDelay(delay);
      const ctx: ActionContext = { page, link, runs, log: bench.log };
      byDelay.set(
        delay,
        await runDelay(ctx, profile, () => coldSignIn(ctx, browser, bff.url, credential), bulk),
      );
    }
    await context.close();
    return byDelay;
  });
}

async function run(ctx: BenchContext): Promise<Section> {
  const runs = numberOption(ctx.options, 'runs', 7, 1, 100);
  const bulkRuns = numberOption(ctx.options, 'bulk-runs', runs, 1, 100);
  const bulkRecords = numberOption(ctx.options, 'bulk-records', 100, 1, 1000);
  const profiles = listOption(ctx, 'profiles', 'extended,hosted') as Profile[];
  const delays = listOption(ctx, 'delays', '0,40').map(Number);
  const results: RemoteResults = new Map();
  await withSeededStore(async (store) => {
    ctx.log('remote: demo store seeded');
    for (const profile of profiles) {
      results.set(
        profile,
        await runProfile(ctx, store, profile, delays, runs, bulkRuns, bulkRecords),
      );
    }
  });
  return remoteReport(ctx.command, results, { runs, bulkRuns, bulkRecords });
}

export const remoteBench: Bench = {
  id: 'remote',
  title: 'Console across an 80 ms round trip to the service',
  run,
};
