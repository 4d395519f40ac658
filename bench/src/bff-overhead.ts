// BFF overhead: the same GET sent straight to the API and through the BFF proxy in one run, with
// autocannon. Added latency (p50/p99, one connection, rounds alternating direct/BFF so that load
// on the shared machine hits both sides alike) and throughput ratio (10 connections).
import type { Bench, BenchContext } from './lib/bench.ts';
import type { CannonRun } from './lib/cannon.ts';
import type { Section } from './lib/report.ts';
import { fetchToken } from './lib/api.ts';
import { cannon } from './lib/cannon.ts';
import { keepAliveAgent } from './lib/http.ts';
import { readCpuMs } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { bffHeaders, bffLogin, startBff, startFreshApi } from './lib/stack.ts';
import { formatMs, summarize } from './lib/stats.ts';

const LATENCY_ROUNDS = 3;
const LATENCY_ROUND_S = 4;
const THROUGHPUT_ROUNDS = 2;
const THROUGHPUT_ROUND_S = 6;
const THROUGHPUT_CONNECTIONS = 10;

function merge(runs: CannonRun[]) {
  return {
    latencies: runs.flatMap((run) => run.latencies),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    rate: runs.reduce((sum, run) => sum + run.rate, 0) / runs.length,
  };
}

async function run(ctx: BenchContext): Promise<Section> {
  const fresh = await startFreshApi('bff-overhead-api');
  const agent = keepAliveAgent(2);
  try {
    const bff = await startBff('bff-overhead-bff', fresh.api.url);
    try {
      const token = await fetchToken(agent, fresh.api.url, fresh.credentials.admin);
      const cookie = await bffLogin(agent, bff.url, fresh.credentials.admin);
      const path = '/v1/apps/support-tickets/SUP-1';
      const direct = {
        url: `${fresh.api.url}${path}`,
        headers: { Authorization: `Bearer ${token}` },
      };
      const proxied = { url: `${bff.url}/api${path}`, headers: bffHeaders(cookie, bff.url) };

      // Warm-up: JIT, connection pools, the BFF's session and token caches.
      await cannon({ ...direct, connections: 2, durationS: 2 });
      await cannon({ ...proxied, connections: 2, durationS: 2 });

      // CPU time per request, per process: what each hop costs regardless of machine load.
      const cpu = { bffProxied: 0, apiDirect: 0, apiProxied: 0 };
      const latency = { direct: [] as CannonRun[], bff: [] as CannonRun[] };
      for (let round = 0; round < LATENCY_ROUNDS; round += 1) {
        let apiBefore = await readCpuMs(fresh.api.pid);
        latency.direct.push(
          await cannon({ ...direct, connections: 1, durationS: LATENCY_ROUND_S }),
        );
        cpu.apiDirect += (await readCpuMs(fresh.api.pid)) - apiBefore;
        apiBefore = await readCpuMs(fresh.api.pid);
        const bffBefore = await readCpuMs(bff.pid);
        latency.bff.push(await cannon({ ...proxied, connections: 1, durationS: LATENCY_ROUND_S }));
        cpu.bffProxied += (await readCpuMs(bff.pid)) - bffBefore;
        cpu.apiProxied += (await readCpuMs(fresh.api.pid)) - apiBefore;
      }
      const throughput = { direct: [] as CannonRun[], bff: [] as CannonRun[] };
      for (let round = 0; round < THROUGHPUT_ROUNDS; round += 1) {
        throughput.direct.push(
          await cannon({
            ...direct,
            connections: THROUGHPUT_CONNECTIONS,
            durationS: THROUGHPUT_ROUND_S,
          }),
        );
        throughput.bff.push(
          await cannon({
            ...proxied,
            connections: THROUGHPUT_CONNECTIONS,
            durationS: THROUGHPUT_ROUND_S,
          }),
        );
      }
      const ld = merge(latency.direct);
      const lb = merge(latency.bff);
      const td = merge(throughput.direct);
      const tb = merge(throughput.bff);
      const failures =
        ld.non2xx +
        lb.non2xx +
        td.non2xx +
        tb.non2xx +
        ld.errors +
        lb.errors +
        td.errors +
        tb.errors;
      if (failures > 0) throw new Error(`bff-overhead: ${failures} non-2xx responses or errors`);
      const sd = summarize(ld.latencies);
      const sb = summarize(lb.latencies);
      const addedP50 = sb.p50 - sd.p50;
      const addedP99 = sb.p99 - sd.p99;
      const bffCpuPerRequest = cpu.bffProxied / lb.requests;
      const apiCpuDirect = cpu.apiDirect / ld.requests;
      const apiCpuProxied = cpu.apiProxied / lb.requests;
      const ratio = tb.rate / td.rate;
      ctx.log(
        `bff-overhead: added p50 ${formatMs(addedP50)}, p99 ${formatMs(addedP99)}, throughput ratio ${ratio.toFixed(2)}`,
      );
      return {
        id: 'bff-overhead',
        title: 'BFF overhead on a loopback GET',
        command: ctx.command,
        date: new Date(),
        machine: machineInfo(),
        figures: [
          {
            name: 'added latency p50 (BFF - direct)',
            value: formatMs(addedP50),
            budget: '<= 1 ms',
            pass: addedP50 <= 1,
          },
          {
            name: 'added latency p99 (BFF - direct)',
            value: formatMs(addedP99),
            budget: '<= 5 ms',
            pass: addedP99 <= 5,
          },
          {
            name: `throughput ratio (BFF / direct, ${THROUGHPUT_CONNECTIONS} connections)`,
            value: `${ratio.toFixed(2)}x`,
            budget: '>= 0.6x',
            pass: ratio >= 0.6,
          },
          {
            name: 'CPU time per request: BFF process; API process direct / behind the BFF',
            value: `${formatMs(bffCpuPerRequest)}; ${formatMs(apiCpuDirect)} / ${formatMs(apiCpuProxied)}`,
          },
        ],
        tables: [
          {
            title: 'Raw figures',
            headers: [
              'path',
              'p50',
              'p95',
              'p99',
              'requests (1 connection)',
              `req/s (${THROUGHPUT_CONNECTIONS} connections)`,
            ],
            rows: [
              [
                `direct \`GET ${path}\``,
                formatMs(sd.p50),
                formatMs(sd.p95),
                formatMs(sd.p99),
                String(ld.latencies.length),
                td.rate.toFixed(0),
              ],
              [
                `BFF \`GET /api${path}\``,
                formatMs(sb.p50),
                formatMs(sb.p95),
                formatMs(sb.p99),
                String(lb.latencies.length),
                tb.rate.toFixed(0),
              ],
            ],
          },
        ],
        notes: [
          `Method: API (fresh demo data folder, RATE_LIMIT_RPS=0) and BFF as separate processes on loopback; autocannon (programmatic, in the bench process) sends the same \`GET ${path}\` directly with a bearer token and through the BFF with the session cookie and X-CSRF. Latency: ${LATENCY_ROUNDS} alternating rounds of ${LATENCY_ROUND_S} s per side on 1 connection; latencies are the exact per-response times from autocannon's 'response' events (its histogram has 1 ms resolution). Throughput: ${THROUGHPUT_ROUNDS} alternating rounds of ${THROUGHPUT_ROUND_S} s per side on ${THROUGHPUT_CONNECTIONS} connections. Every response was 2xx.`,
          'CPU time per request comes from /proc/<pid>/stat (utime + stime, 10 ms ticks) over the latency rounds divided by the requests served: unlike wall-clock latency it does not grow when other work on the machine delays the processes, so it is the load-independent part of the added latency (the rest is one more loopback hop and, on a busy machine, waiting for a CPU).',
          'On this 2-CPU machine the client, the BFF and the API share two cores: through the BFF a request costs CPU in three processes instead of two, so the throughput ratio is bounded by CPU, not by waiting.',
        ],
      };
    } finally {
      await bff.stop();
    }
  } finally {
    agent.destroy();
    await fresh.stop();
  }
}

export const bffOverheadBench: Bench = { id: 'bff-overhead', title: 'BFF overhead', run };
