// Per-request cost of the API (issue 19, item 2): a get-by-id with the token cache off (every
// request looks its token up: token, credential and user joined) against the default (looked up
// once, remembered until users, credentials or tokens change; identity/token-cache.ts). Two API
// processes on copies of one demo store, loaded in alternating rounds at 10 connections, so that
// the machine's load hits both alike: requests per second and CPU time per request of the API
// process (/proc, load-independent). The ceiling: the token lookup itself, run back to back through
// the same driver (Kysely on PGlite) in this process.
import { cp } from 'node:fs/promises';
import path from 'node:path';
import {
  authenticateToken,
  initDeps,
  issueToken,
  parseEnv,
  prepareStore,
} from 'workspace-api/tools';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { CannonRun } from './lib/cannon.ts';
import type { Section } from './lib/report.ts';
import { startApi } from './lib/api.ts';
import { numberOption } from './lib/bench.ts';
import { cannon } from './lib/cannon.ts';
import { readCpuMs, tempDir } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { formatMs, summarize } from './lib/stats.ts';

const CONNECTIONS = 10;
const RAW_LOOKUP_MS = 3_000;
const PATH = '/v1/apps/support-tickets/SUP-1';

type Side = { label: string; env: Record<string, string>; runs: CannonRun[]; cpuMs: number };

/** A demo store and a token valid for an hour, written before any API process opens it. */
async function prepare(dataDir: string) {
  const { deps, close } = await initDeps(
    parseEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_RPS: '0' }),
  );
  try {
    const seeded = await prepareStore(deps);
    if (!seeded.seeded) throw new Error('expected an empty store');
    const admin = await deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', seeded.credentials.admin.email)
      .executeTakeFirstOrThrow();
    const token = await issueToken(deps.db, seeded.credentials.admin.clientId, admin.id, 3600);
    // The ceiling: the lookup every uncached request makes, back to back, one connection.
    let lookups = 0;
    const started = performance.now();
    while (performance.now() - started < RAW_LOOKUP_MS) {
      const result = await authenticateToken(deps.db, token);
      if (!('principal' in result)) throw new Error('the bench token did not authenticate');
      lookups += 1;
    }
    const rawLookupsPerSecond = lookups / ((performance.now() - started) / 1000);
    return { token, rawLookupsPerSecond };
  } finally {
    await close();
  }
}

async function run(ctx: BenchContext): Promise<Section> {
  const rounds = numberOption(ctx.options, 'rounds', 3);
  const roundS = numberOption(ctx.options, 'round-seconds', 6);
  const tmp = await tempDir('api-request-cost');
  try {
    const uncachedDir = path.join(tmp.dir, 'uncached');
    const cachedDir = path.join(tmp.dir, 'cached');
    const { token, rawLookupsPerSecond } = await prepare(uncachedDir);
    await cp(uncachedDir, cachedDir, { recursive: true });
    const sides: Side[] = [
      { label: 'token cache off', env: { TOKEN_CACHE_ENTRIES: '0' }, runs: [], cpuMs: 0 },
      { label: 'token cache on (default)', env: {}, runs: [], cpuMs: 0 },
    ];
    const apis = await Promise.all(
      sides.map((side, i) =>
        startApi(`api-request-cost-${i}`, {
          DATA_DIR: i === 0 ? uncachedDir : cachedDir,
          LOG_LEVEL: 'silent',
          RATE_LIMIT_RPS: '0',
          ...side.env,
        }),
      ),
    );
    try {
      const target = (i: number) => ({
        url: `${apis[i]?.url ?? ''}${PATH}`,
        headers: { Authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
      });
      for (let i = 0; i < sides.length; i += 1) await cannon({ ...target(i), durationS: 2 });
      for (let round = 0; round < rounds; round += 1) {
        for (let i = 0; i < sides.length; i += 1) {
          const side = sides[i];
          const api = apis[i];
          if (!side || !api) continue;
          const before = await readCpuMs(api.pid);
          side.runs.push(await cannon({ ...target(i), durationS: roundS }));
          side.cpuMs += (await readCpuMs(api.pid)) - before;
        }
      }
    } finally {
      await Promise.all(apis.map((api) => api.stop()));
    }

    const figures = sides.map((side) => {
      const requests = side.runs.reduce((sum, r) => sum + r.requests, 0);
      const failed = side.runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      if (failed > 0)
        throw new Error(`api-request-cost: ${failed} failed requests (${side.label})`);
      const rate = side.runs.reduce((sum, r) => sum + r.rate, 0) / side.runs.length;
      const latency = summarize(side.runs.flatMap((r) => r.latencies));
      return { ...side, requests, rate, cpuPerRequest: side.cpuMs / requests, latency };
    });
    const [off, on] = figures;
    if (!off || !on) throw new Error('api-request-cost: missing a side');
    const rateRatio = on.rate / off.rate;
    const cpuRatio = on.cpuPerRequest / off.cpuPerRequest;
    ctx.log(
      `api-request-cost: ${off.rate.toFixed(0)} -> ${on.rate.toFixed(0)} req/s (${rateRatio.toFixed(2)}x), CPU ${formatMs(off.cpuPerRequest)} -> ${formatMs(on.cpuPerRequest)} per request`,
    );
    return {
      id: 'api-request-cost',
      title: 'Workspace API: cost of one authenticated request',
      command: ctx.command,
      date: new Date(),
      machine: machineInfo(),
      figures: [
        {
          name: `get-by-id req/s at ${CONNECTIONS} connections: token cache on / off`,
          value: `${on.rate.toFixed(0)} / ${off.rate.toFixed(0)} (${rateRatio.toFixed(2)}x)`,
        },
        {
          name: 'API CPU time per request: token cache on / off',
          value: `${formatMs(on.cpuPerRequest)} / ${formatMs(off.cpuPerRequest)} (${cpuRatio.toFixed(2)}x)`,
        },
        {
          name: 'ceiling: token lookups per second, back to back through Kysely on PGlite',
          value: `${rawLookupsPerSecond.toFixed(0)} (${formatMs(1000 / rawLookupsPerSecond)} each)`,
        },
      ],
      tables: [
        {
          title: 'Raw figures',
          headers: ['side', 'requests', 'req/s', 'p50', 'p99', 'API CPU ms per request'],
          rows: figures.map((f) => [
            f.label,
            String(f.requests),
            f.rate.toFixed(0),
            formatMs(f.latency.p50),
            formatMs(f.latency.p99),
            f.cpuPerRequest.toFixed(3),
          ]),
        },
      ],
      notes: [
        `Method: one demo store (PGlite) prepared in this process with a token valid for an hour, copied so that two API processes (tsx, request logs off, RATE_LIMIT_RPS=0) serve it side by side, one with TOKEN_CACHE_ENTRIES=0. autocannon sends \`GET ${PATH}\` with the bearer token, 2 s of warm-up each, then ${rounds} alternating rounds of ${roundS} s per side at ${CONNECTIONS} connections. CPU time per request is utime + stime of the API process from /proc over its rounds, divided by the requests it served.`,
        'The ceiling is the query the uncached path runs for every request (token joined with its credential and user, by sha256 of the token), back to back for 3 s on one PGlite connection in the bench process: what the lookup alone costs, with no HTTP, routing or record read around it.',
        "Revocation is unchanged: the cache is emptied by a `wsc_auth` notification after every change to users, credentials or tokens (migration 0004), by the API's own deactivate and revoke before they answer, and is off while the listener is down (src/identity/token-cache.http.test.ts).",
      ],
    };
  } finally {
    await tmp.remove();
  }
}

export const apiRequestCostBench: Bench = {
  id: 'api-request-cost',
  title: 'Workspace API: cost of one authenticated request',
  run,
};
