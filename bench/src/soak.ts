// Soak: many simulated support agents through the BFF for minutes, with the API's rate limit on
// (the default per-credential limits). Each agent is its own user with its own credential and BFF
// session, and loops through a triage session: search with filters, open a record, sometimes edit
// a field, comment, or attach a small file, with think time between steps. Every step is sent both
// through the BFF (session cookie) and straight to the API (the same credential's bearer token),
// in random order, so the BFF's added latency is measured on the same requests under the same load
// (as bff-overhead does for one GET). RSS of both processes is sampled every few seconds.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type http from 'node:http';

import type { Bench, BenchContext } from './lib/bench.ts';
import type { Timed } from './lib/http.ts';
import type { Section } from './lib/report.ts';
import type { Credential } from './lib/stack.ts';
import { prepareBenchStore } from './lib/agents.ts';
import { fetchToken, startBuiltApi } from './lib/api.ts';
import { numberOption } from './lib/bench.ts';
import { keepAliveAgent, timedRequest } from './lib/http.ts';
import { readCpuMs, readMemory, tempDir } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { bffHeaders, bffLogin, startBff } from './lib/stack.ts';
import { formatMiB, formatMs, percentile, summarize } from './lib/stats.ts';

const MIB = 1024 * 1024;
const RSS_BUDGET = 64 * MIB;
const ADDED_P99_BUDGET_MS = 10;
const REQUEST_TIMEOUT_MS = 30_000;
const TICKETS = '/v1/apps/support-tickets';

type Action = 'search' | 'open' | 'edit' | 'comment' | 'upload';
const ACTIONS: Action[] = ['search', 'open', 'edit', 'comment', 'upload'];
const EXPECTED: Record<Action, number> = {
  search: 200,
  open: 200,
  edit: 200,
  comment: 201,
  upload: 202,
};
type Via = 'bff' | 'direct';

/** The searches an agent picks from: the console's triage filters over the demo's fields. */
function searches(now: Date): string[] {
  const day = (offset: number) =>
    new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const q = (filter: string, sort = '-Created At', first = 25) =>
    `filter=${encodeURIComponent(filter)}&sort=${encodeURIComponent(sort)}&first=${first}`;
  return [
    q('Status=in=(New,Open);Severity=in=(High,Critical)'),
    q('Status==Open;Category==Technical', 'Priority'),
    q('Assignee==null;Status!=Closed'),
    q('Title=lk=SSO;Status=in=(New,Open)'),
    q(`Created At=ge=${monthAgo};Status!=Closed`),
    q('(Status==New,Status==Open);(Severity==Critical,Priority=le=1)'),
    q(`Due Date=le=${day(0)};Status=in=(New,Open,Pending)`, 'Due Date'),
    q('Tags=in=(vip,urgent);Status!=Resolved'),
    q('Customer=lki=acme', '-Updated At', 50),
    q(`Status==Pending;Due Date=bt=${day(-7)}:${day(7)}`, 'Due Date'),
  ];
}

type Sample = { via: Via; action: Action; ms: number };
type Failure = { via: Via; action: Action; status: number | string; detail: string };

type Tally = {
  samples: Sample[];
  rateLimited: Record<Via, number>;
  failures: Failure[];
  failureCount: number;
  requests: Record<Via, number>;
};

type MemorySample = { t: number; api: number; bff: number };

/** One agent's connections, identity and helpers. */
type AgentIo = {
  credential: Credential;
  send: (via: Via, method: string, target: string, init?: BodyInit) => Promise<Timed>;
};

type BodyInit = { body: Buffer; contentType: string; accept?: string };

function multipartFile(bytes: number): { body: Buffer; contentType: string } {
  const boundary = `----soak${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="screenshot-${randomBytes(3).toString('hex')}.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, randomBytes(bytes), tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** `Promise.all(items.map(task))` with at most `limit` tasks running at once; results in order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(ctx: BenchContext): Promise<Section> {
  const durationS = numberOption(ctx.options, 'duration', 300, 5, 3600);
  const agentCount = numberOption(ctx.options, 'agents', 50, 1, 500);
  const thinkMs = numberOption(ctx.options, 'think-ms', 1000, 0, 60_000);
  const sampleS = numberOption(ctx.options, 'sample-s', 5, 1, 60);
  const warmupS = numberOption(ctx.options, 'warmup', Math.min(20, durationS / 5), 0, 600);

  const tmp = await tempDir('soak');
  const agents: http.Agent[] = [];
  try {
    const dataDir = path.join(tmp.dir, 'api');
    ctx.log(`soak: seeding the demo and ${agentCount} agents (one user and credential each)...`);
    const { people } = await prepareBenchStore({ dataDir, count: agentCount, prefix: 'soak' });
    // The rate limit on, at the API's defaults (RATE_LIMIT_RPS 20, RATE_LIMIT_BURST 100): unset
    // here, so that a change of the defaults is what gets measured.
    // The API as `npm start` runs it (the esbuild bundle), so its RSS is the production one.
    const api = await startBuiltApi('soak-api', {
      DATA_DIR: dataDir,
      RATE_LIMIT_RPS: '',
      RATE_LIMIT_BURST: '',
    });
    try {
      const bff = await startBff('soak-bff', api.url);
      try {
        const tally: Tally = {
          samples: [],
          rateLimited: { bff: 0, direct: 0 },
          failures: [],
          failureCount: 0,
          requests: { bff: 0, direct: 0 },
        };
        let measuring = false;
        // Sign-ins and token requests 8 at a time: each costs a scrypt check, and the API queues
        // at most SECRET_CHECK_QUEUE (64) of them (503 beyond, by design).
        const io: AgentIo[] = await mapLimit(people, 8, async (credential) => {
          const bffAgent = keepAliveAgent(4);
          const apiAgent = keepAliveAgent(4);
          agents.push(bffAgent, apiAgent);
          const cookie = await bffLogin(bffAgent, bff.url, credential);
          const token = await fetchToken(apiAgent, api.url, credential);
          const send: AgentIo['send'] = (via, method, target, init) => {
            const headers: Record<string, string> =
              via === 'bff' ? bffHeaders(cookie, bff.url) : { Authorization: `Bearer ${token}` };
            if (init) headers['Content-Type'] = init.contentType;
            if (init?.accept) headers.Accept = init.accept;
            const url = via === 'bff' ? `${bff.url}/api${target}` : `${api.url}${target}`;
            return timedRequest(via === 'bff' ? bffAgent : apiAgent, url, {
              method,
              headers,
              ...(init ? { body: init.body } : {}),
              timeoutMs: REQUEST_TIMEOUT_MS,
            });
          };
          return { credential, send };
        });

        // Every search must be valid (a typo would count as an error on every call).
        const queries = searches(new Date());
        for (const query of queries) {
          const res = await io[0]?.send('direct', 'GET', `${TICKETS}?${query}`);
          if (res?.status !== 200)
            throw new Error(
              `soak: search ${query} answered ${res?.status}: ${res?.body.toString('utf8').slice(0, 300)}`,
            );
        }

        /** Sends one step both ways in random order; records latencies and outcomes. */
        const step = async (
          agent: AgentIo,
          action: Action,
          method: string,
          target: string,
          init?: () => BodyInit,
        ): Promise<Timed | undefined> => {
          const order: Via[] = Math.random() < 0.5 ? ['bff', 'direct'] : ['direct', 'bff'];
          let kept: Timed | undefined;
          for (const via of order) {
            let res: Timed;
            try {
              res = await agent.send(via, method, target, init?.());
            } catch (error) {
              // Errors count from the first request on, warm-up included.
              tally.failureCount += 1;
              if (tally.failures.length < 20)
                tally.failures.push({
                  via,
                  action,
                  status: 'no answer',
                  detail: `${method} ${target}: ${(error as Error).message}`,
                });
              continue;
            }
            if (via === 'bff') kept = res;
            if (measuring) tally.requests[via] += 1;
            if (res.status === 429) tally.rateLimited[via] += 1;
            else if (res.status !== EXPECTED[action]) {
              tally.failureCount += 1;
              if (tally.failures.length < 20)
                tally.failures.push({
                  via,
                  action,
                  status: res.status,
                  detail: `${method} ${target}: ${res.body.toString('utf8').slice(0, 200)}`,
                });
            } else if (measuring) tally.samples.push({ via, action, ms: res.ms });
          }
          return kept;
        };

        const think = () => sleep(thinkMs * (0.5 + Math.random()));
        let stop = false;
        const loop = async (agent: AgentIo) => {
          // Spread the agents' start over one think time, as people do not all click at once.
          await sleep(Math.random() * thinkMs);
          while (!stop) {
            const found = await step(agent, 'search', 'GET', `${TICKETS}?${pick(queries)}`);
            let ids: string[] = [];
            try {
              const page = JSON.parse(found?.body.toString('utf8') ?? '{}') as {
                items?: Array<{ data?: { id?: string } }>;
              };
              ids = (page.items ?? []).flatMap((item) => (item.data?.id ? [item.data.id] : []));
            } catch {
              ids = [];
            }
            const id = ids.length > 0 ? pick(ids) : `SUP-${1 + Math.floor(Math.random() * 4000)}`;
            await think();
            if (stop) break;
            await step(agent, 'open', 'GET', `${TICKETS}/${id}`);
            if (Math.random() < 0.35) {
              await think();
              const fields = {
                Status: pick(['Open', 'Pending', 'On Hold', 'Resolved']),
                Priority: String(1 + Math.floor(Math.random() * 4)),
                Assignee: agent.credential.email,
              };
              await step(agent, 'edit', 'PUT', `${TICKETS}/${id}`, () => ({
                body: Buffer.from(JSON.stringify(fields)),
                contentType: 'application/json',
              }));
            }
            if (Math.random() < 0.25) {
              await think();
              await step(agent, 'comment', 'POST', `${TICKETS}/${id}/comment`, () => ({
                body: Buffer.from(
                  JSON.stringify({
                    contents: `Looked into this (${new Date().toISOString()}); waiting on the customer.`,
                  }),
                ),
                contentType: 'application/json',
                accept: 'application/json',
              }));
            }
            if (Math.random() < 0.08) {
              await think();
              const bytes = 1024 + Math.floor(Math.random() * 31 * 1024);
              await step(agent, 'upload', 'POST', `${TICKETS}/${id}/attachments`, () =>
                multipartFile(bytes),
              );
            }
            await think();
          }
        };

        const memory: MemorySample[] = [];
        const started = performance.now();
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            try {
              const [a, b] = await Promise.all([readMemory(api.pid), readMemory(bff.pid)]);
              memory.push({ t: (performance.now() - started) / 1000, api: a.rss, bff: b.rss });
            } catch {
              return;
            }
            await sleep(sampleS * 1000);
          }
        })();

        ctx.log(
          `soak: ${agentCount} agents, warm-up ${warmupS} s, then ${durationS} s measured (think ${thinkMs} ms +-50%)`,
        );
        const loops = io.map((agent) => loop(agent));
        await sleep(warmupS * 1000);
        measuring = true;
        const measureStart = (performance.now() - started) / 1000;
        const cpuBefore = { api: await readCpuMs(api.pid), bff: await readCpuMs(bff.pid) };
        const progress = setInterval(() => {
          const last = memory.at(-1);
          ctx.log(
            `soak: ${((performance.now() - started) / 1000 - measureStart).toFixed(0)} s: ${tally.requests.bff} via BFF, ${tally.requests.direct} direct, ${tally.failureCount} errors, ${tally.rateLimited.bff + tally.rateLimited.direct} 429s; RSS API ${formatMiB(last?.api ?? 0)}, BFF ${formatMiB(last?.bff ?? 0)}`,
          );
        }, 30_000);
        await sleep(durationS * 1000);
        measuring = false;
        const cpuAfter = { api: await readCpuMs(api.pid), bff: await readCpuMs(bff.pid) };
        const measureEnd = (performance.now() - started) / 1000;
        clearInterval(progress);
        stop = true;
        await Promise.all(loops);
        sampling = false;
        await sampler;

        return report(ctx, {
          tally,
          memory,
          measureStart,
          measureEnd,
          cpu: { api: cpuAfter.api - cpuBefore.api, bff: cpuAfter.bff - cpuBefore.bff },
          agentCount,
          durationS,
          warmupS,
          thinkMs,
          sampleS,
          searchCount: queries.length,
        });
      } finally {
        await bff.stop();
      }
    } finally {
      await api.stop();
    }
  } finally {
    for (const agent of agents) agent.destroy();
    await tmp.remove();
  }
}

/** Least-squares slope of y over x (per unit of x). */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

function report(
  ctx: BenchContext,
  r: {
    tally: Tally;
    memory: MemorySample[];
    measureStart: number;
    measureEnd: number;
    cpu: { api: number; bff: number };
    agentCount: number;
    durationS: number;
    warmupS: number;
    thinkMs: number;
    sampleS: number;
    searchCount: number;
  },
): Section {
  const { tally } = r;
  const of = (via: Via, action?: Action) =>
    tally.samples
      .filter((s) => s.via === via && (action === undefined || s.action === action))
      .map((s) => s.ms);
  const bffAll = of('bff');
  const directAll = of('direct');
  if (bffAll.length === 0 || directAll.length === 0)
    throw new Error('soak: no successful requests measured');
  const sb = summarize(bffAll);
  const sd = summarize(directAll);
  const addedP50 = sb.p50 - sd.p50;
  const addedP99 = sb.p99 - sd.p99;

  // Memory: the sample at the start of the measured window is the baseline.
  const window = r.memory.filter((m) => m.t >= r.measureStart - r.sampleS && m.t <= r.measureEnd);
  const base = window[0] ?? r.memory[0];
  const last = window.at(-1) ?? r.memory.at(-1);
  if (!base || !last) throw new Error('soak: no memory samples');
  const peak = (key: 'api' | 'bff') => Math.max(...window.map((m) => m[key]));
  const growth = (key: 'api' | 'bff') => Math.max(0, peak(key) - base[key]);
  const perMinute = (key: 'api' | 'bff') =>
    slope(window.map((m) => [m.t / 60, m[key]] as [number, number]));
  const rateLimited = tally.rateLimited.bff + tally.rateLimited.direct;
  const requests = tally.requests.bff + tally.requests.direct;

  const actionRows = ACTIONS.map((action) => {
    const b = of('bff', action);
    const d = of('direct', action);
    if (b.length === 0 || d.length === 0) return [action, String(b.length), '', '', '', '', ''];
    const x = summarize(b);
    const y = summarize(d);
    return [
      action,
      String(b.length),
      `${formatMs(x.p50)} / ${formatMs(x.p99)}`,
      `${formatMs(y.p50)} / ${formatMs(y.p99)}`,
      formatMs(x.p50 - y.p50),
      formatMs(x.p99 - y.p99),
      String(EXPECTED[action]),
    ];
  });
  // RSS over the run, about every 30 s.
  const every = Math.max(1, Math.round(30 / r.sampleS));
  const memoryRows = window
    .filter((_, i) => i % every === 0 || i === window.length - 1)
    .map((m) => [`${(m.t - r.measureStart).toFixed(0)} s`, formatMiB(m.api), formatMiB(m.bff)]);
  const sorted = [...bffAll].sort((a, b) => a - b);
  const elapsed = r.measureEnd - r.measureStart;
  ctx.log(
    `soak: ${requests} requests, ${tally.failureCount} errors, ${rateLimited} 429s; added p50 ${formatMs(addedP50)}, p99 ${formatMs(addedP99)}; RSS growth API ${formatMiB(growth('api'))}, BFF ${formatMiB(growth('bff'))}`,
  );
  return {
    id: 'soak',
    title: `Soak: ${r.agentCount} agents through the BFF, ${(r.durationS / 60).toFixed(r.durationS % 60 === 0 ? 0 : 1)} min, rate limit on`,
    command: ctx.command,
    date: new Date(),
    machine: machineInfo(),
    figures: [
      {
        name: 'answers other than the expected status or 429 (either path, warm-up included), and requests without an answer',
        value: String(tally.failureCount),
        budget: '0',
        pass: tally.failureCount === 0,
      },
      {
        name: '429 answers (BFF path / direct path, warm-up included)',
        value: `${tally.rateLimited.bff} / ${tally.rateLimited.direct}`,
      },
      {
        name: 'requests measured (BFF path / direct path); rate',
        value: `${tally.requests.bff} / ${tally.requests.direct}; ${(requests / elapsed).toFixed(0)} req/s`,
      },
      {
        name: 'latency through the BFF p50 / p99 (all steps)',
        value: `${formatMs(sb.p50)} / ${formatMs(sb.p99)}`,
      },
      {
        name: 'latency direct to the API p50 / p99 (the same steps)',
        value: `${formatMs(sd.p50)} / ${formatMs(sd.p99)}`,
      },
      { name: 'added by the BFF p50 (BFF - direct)', value: formatMs(addedP50) },
      {
        name: 'added by the BFF p99 (BFF - direct)',
        value: formatMs(addedP99),
        budget: `<= ${ADDED_P99_BUDGET_MS} ms`,
        pass: addedP99 <= ADDED_P99_BUDGET_MS,
      },
      {
        name: 'API RSS growth (peak sampled - start of the window); end - start; trend',
        value: `${formatMiB(growth('api'))}; ${formatMiB(last.api - base.api)}; ${formatMiB(perMinute('api'))}/min`,
        budget: '<= 64 MiB',
        pass: growth('api') <= RSS_BUDGET,
      },
      {
        name: 'BFF RSS growth (peak sampled - start of the window); end - start; trend',
        value: `${formatMiB(growth('bff'))}; ${formatMiB(last.bff - base.bff)}; ${formatMiB(perMinute('bff'))}/min`,
        budget: '<= 64 MiB',
        pass: growth('bff') <= RSS_BUDGET,
      },
      {
        name: 'RSS at the start of the window / peak / end: API; BFF',
        value: `${formatMiB(base.api)} / ${formatMiB(peak('api'))} / ${formatMiB(last.api)}; ${formatMiB(base.bff)} / ${formatMiB(peak('bff'))} / ${formatMiB(last.bff)}`,
      },
      {
        name: 'CPU time per request: BFF process (BFF path); API process (both paths)',
        value: `${formatMs(r.cpu.bff / Math.max(1, tally.requests.bff))}; ${formatMs(r.cpu.api / Math.max(1, requests))}`,
      },
      {
        name: 'slowest answer through the BFF (max); p99.9',
        value: `${formatMs(sb.max)}; ${formatMs(percentile(sorted, 99.9))}`,
      },
    ],
    tables: [
      {
        title: 'Per step (successful answers; p50 / p99)',
        headers: [
          'step',
          'answers via BFF',
          'via BFF',
          'direct',
          'added p50',
          'added p99',
          'expected status',
        ],
        rows: actionRows,
      },
      {
        title: `RSS during the measured window (sampled every ${r.sampleS} s; shown about every 30 s)`,
        headers: ['time', 'API RSS', 'BFF RSS'],
        rows: memoryRows,
      },
      ...(tally.failures.length > 0
        ? [
            {
              title: 'First errors',
              headers: ['path', 'step', 'status', 'request and answer'],
              rows: tally.failures.map((f) => [f.via, f.action, String(f.status), f.detail]),
            },
          ]
        : []),
    ],
    notes: [
      `Method: the API (the production bundle, as \`npm start\` runs it; fresh PGlite data folder: the demo seed with 4,000 support tickets, plus ${r.agentCount} MEMBER users in Support Tier 1 with one credential each, written before it starts) and the BFF run as separate processes on loopback. The API's rate limit is on at its defaults (RATE_LIMIT_RPS 20, RATE_LIMIT_BURST 100 per credential, and the search-time budget that comes with it); the BFF runs with its default limits. ${r.agentCount} simulated agents each sign in to the BFF (their own session) and get their own bearer token from /oauth/token with the same credential; then each loops: search support tickets with one of ${r.searchCount} triage filters (first=25 or 50, sorted), open a record from the results, edit it (Status, Priority, Assignee = themselves; 35%), comment (JSON, 25%), attach a 1-32 KiB file (multipart, 8%), with a think time of ${r.thinkMs} ms +-50% between steps. Every step is sent through the BFF and straight to the API, in random order, one after the other (writes twice: two comments, two files); the latencies compared are those of the same steps in the same run.`,
      `The measured window is ${r.durationS} s after a ${r.warmupS} s warm-up (sessions, tokens, JIT, PGlite's buffers); latencies are from the request being written to the last byte of the answer (node:http, keep-alive, a ${REQUEST_TIMEOUT_MS / 1000} s limit per request counted as an error). Added latency is the difference of the percentiles of the two paths, as in bff-overhead. RSS is VmRSS from /proc every ${r.sampleS} s; growth is the highest sample in the window minus the sample at its start, the trend a least-squares slope over the window.`,
      "In-flight caps: the BFF answers 429 past 16 proxied requests in flight per session and 32 per user; each simulated agent is its own user with one session and at most one request in flight at a time, so those caps never bind here (a 429 through the BFF is the API's rate limit passed on).",
      'The machine is shared (see the load average): a p99 includes waiting for a CPU, for both paths alike; the CPU time per request is the load-independent part.',
    ],
  };
}

export const soakBench: Bench = { id: 'soak', title: 'Soak through the BFF', run };
