// `pnpm bench -- remote`: the console across a long link to the service (DESIGN.md section 7).
// A delay link between the BFF and the API (every chunk held `oneWayMs` each way, a new
// connection's first bytes held one round trip more for its handshake) at 0 and 40 ms one way,
// in both upstream profiles, with the API's default rate limit on; real Chromium; every action of
// issue 27's table timed INP-style and counted at the link.
import type { Profile } from '@wsc/api-client';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { BulkState } from './lib/remote-actions.ts';
import type { ActionContext, ActionSample } from './lib/remote-measure.ts';
import type { ActionName, DelayResults, RemoteResults } from './lib/remote-report.ts';
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
import { ACTIONS, remoteReport } from './lib/remote-report.ts';
import { withRemoteStack, withSeededStore } from './lib/remote-stack.ts';

/** The API's default bucket (RATE_LIMIT_BURST / RATE_LIMIT_RPS): a run starts from it full. */
const REFILL_MS = 5_500;

function listOption(ctx: BenchContext, name: string, fallback: string): string[] {
  return (ctx.options[name] ?? fallback)
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

/** What one delay runs: the selected actions (`--actions`), the bulk runs and their state. */
type DelayPlan = {
  selected: ReadonlySet<ActionName>;
  signInOnce: () => Promise<ActionSample[]>;
  bulk: { runs: number; state: BulkState };
};

/** The selected actions of one profile at one delay, on a signed-in page, in ACTIONS order. */
async function runDelay(ctx: ActionContext, profile: Profile, plan: DelayPlan) {
  const results: DelayResults = {};
  const step = async <T>(name: ActionName, run: () => Promise<T>): Promise<T | undefined> => {
    if (!plan.selected.has(name)) return undefined;
    const started = performance.now();
    const value = await run();
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    ctx.log(`remote: ${profile} ${ctx.link.delay()} ms ${name} in ${seconds} s`);
    return value;
  };
  results.signIn = await step('signIn', plan.signInOnce);
  results.sidebar = await step('sidebar', () => sidebarClick(ctx));
  results.open = await step('open', () => recordOpen(ctx));
  // `u` undoes the key just pressed: the two run together.
  const triage = await step('key', () => triageKeyAndUndo(ctx));
  results.key = triage?.key;
  results.undo = triage?.undo;
  results.next = await step('next', () => nextRecord(ctx));
  results.save = await step('save', () => panelSave(ctx));
  results.bulk = await step('bulk', () =>
    bulkChange({ ...ctx, runs: plan.bulk.runs }, profile, plan.bulk.state, REFILL_MS),
  );
  if (results.bulk) await ctx.link.quiet(REFILL_MS);
  return results;
}

async function runProfile(
  bench: BenchContext,
  store: SeededStore,
  profile: Profile,
  settings: Settings,
): Promise<Map<number, DelayResults>> {
  const { delays, runs, bulkRuns, bulkRecords, selected } = settings;
  return withRemoteStack(profile, store, async ({ api, credentials, link, bff, browser }) => {
    bench.log(`remote: ${profile} stack up`);
    const credential = credentials.admin;
    if (selected.has('bulk')) {
      await createBulkRecords(api.url, profile, credential, bulkRecords);
      bench.log(`remote: ${profile} ${bulkRecords} bulk records created`);
    }
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
    const signInOnce = (ctx: ActionContext) => () => coldSignIn(ctx, browser, bff.url, credential);
    for (const delay of delays) {
      link.setDelay(delay);
      const ctx: ActionContext = { page, link, runs, log: bench.log };
      byDelay.set(
        delay,
        await runDelay(ctx, profile, {
          selected,
          signInOnce: signInOnce(ctx),
          bulk: { runs: bulkRuns, state },
        }),
      );
    }
    await context.close();
    return byDelay;
  });
}

type Settings = {
  runs: number;
  bulkRuns: number;
  bulkRecords: number;
  delays: number[];
  selected: ReadonlySet<ActionName>;
};

/** The command line's settings; `--actions` and `--profiles` are checked against what exists. */
function settingsOf(ctx: BenchContext): Settings & { profiles: Profile[] } {
  const runs = numberOption(ctx.options, 'runs', 7, 1, 100);
  const actions = listOption(ctx, 'actions', ACTIONS.join(','));
  const profiles = listOption(ctx, 'profiles', 'extended,hosted');
  const unknown = [
    ...actions.filter((a) => !(ACTIONS as readonly string[]).includes(a)),
    ...profiles.filter((p) => p !== 'extended' && p !== 'hosted'),
  ];
  if (unknown.length > 0)
    throw new Error(`Unknown --actions/--profiles: ${unknown.join(', ')} (actions: ${ACTIONS.join(', ')})`);
  return {
    runs,
    bulkRuns: numberOption(ctx.options, 'bulk-runs', runs, 1, 100),
    bulkRecords: numberOption(ctx.options, 'bulk-records', 100, 1, 1000),
    delays: listOption(ctx, 'delays', '0,40').map(Number),
    // `u` undoes the key just pressed: either one runs both.
    selected: new Set([...(actions as ActionName[]), ...(actions.includes('undo') ? ['key' as const] : [])]),
    profiles: profiles as Profile[],
  };
}

async function run(ctx: BenchContext): Promise<Section> {
  const settings = settingsOf(ctx);
  const { runs, bulkRuns, bulkRecords, profiles } = settings;
  const results: RemoteResults = new Map();
  await withSeededStore(async (store) => {
    ctx.log('remote: demo store seeded');
    for (const profile of profiles) {
      results.set(profile, await runProfile(ctx, store, profile, settings));
    }
  });
  return remoteReport(ctx.command, results, { runs, bulkRuns, bulkRecords });
}

export const remoteBench: Bench = {
  id: 'remote',
  title: 'Console across an 80 ms round trip to the service',
  run,
};
