// Resident memory of the workspace API process at 100k records on embedded PGlite: after start-up,
// and at its peak while serving a mixed triage load (searches, get-by-id), read from
// /proc/<pid>/status (VmRSS now, VmHWM peak). The API runs as in production: the bundle built by
// `pnpm --filter workspace-api build`, started by its scripts/serve.sh (what `npm start` runs).
import type { Bench, BenchContext } from './lib/bench.ts';
import type { Section } from './lib/report.ts';
import { triageQueries } from './api-search.ts';
import { fetchToken, startApi, startBuiltApi } from './lib/api.ts';
import { describeSeed, getDataset } from './lib/datasets.ts';
import { closedLoop, expectStatus, keepAliveAgent } from './lib/http.ts';
import { readCpuMs, readMemory, sampleMemory } from './lib/processes.ts';
import { machineInfo } from './lib/report.ts';
import { formatMiB, formatMs, summarize } from './lib/stats.ts';

const BUDGET_BYTES = 400 * 1000 * 1000;

async function run(ctx: BenchContext): Promise<Section> {
  const count = Number(process.env.BENCH_PGLITE_RECORDS ?? 100_000);
  const dataset = await getDataset('pglite', count, ctx.log);
  const agent = keepAliveAgent(8);
  const api = await startBuiltApi('api-memory', { DATA_DIR: dataset.dataDir });
  try {
    const afterStart = await readMemory(api.pid);
    const cpuBefore = await readCpuMs(api.pid);
    const sampler = sampleMemory(api.pid, 50);
    const token = await fetchToken(agent, api.url, dataset.seed.credentials.admin);
    const auth = { Authorization: `Bearer ${token}` };
    const queries = triageQueries(
      {
        agent: dataset.seed.sample.agents[0] ?? 'agent@helpdesk.example',
        customer: dataset.seed.sample.customers[0] ?? 'Acme Inc.',
      },
      new Date(),
    ).filter((query) => !query.broad);
    const ids = dataset.seed.sample.ticketIds;
    // Mixed load: 4 concurrent clients, searches (first=100 and first=1000) and reads by id.
    const load = await closedLoop(4, 600, 60_000, async (index) => {
      const query = queries[index % queries.length];
      if (index % 3 === 2 || !query) {
        const id = ids[index % Math.max(ids.length, 1)] ?? 'SUP-1';
        return (
          await expectStatus(agent, `${api.url}/v1/apps/support-tickets/${id}`, 200, {
            headers: auth,
          })
        ).ms;
      }
      const params = new URLSearchParams({
        filter: query.filter,
        first: index % 10 === 0 ? '1000' : '100',
      });
      if (query.sort) params.set('sort', query.sort);
      return (
        await expectStatus(agent, `${api.url}/v1/apps/support-tickets?${params.toString()}`, 200, {
          headers: auth,
        })
      ).ms;
    });
    const sampled = await sampler.stop();
    const end = await readMemory(api.pid);
    const cpuPerRequest = ((await readCpuMs(api.pid)) - cpuBefore) / load.latencies.length;
    const latency = summarize(load.latencies);
    await api.stop();
    // For comparison: the same data folder under tsx (`pnpm --filter workspace-api dev`).
    const dev = await startApi('api-memory-tsx', { DATA_DIR: dataset.dataDir });
    const tsxAfterStart = await readMemory(dev.pid).finally(() => dev.stop());
    ctx.log(
      `api-memory: start ${formatMiB(afterStart.rss)}, peak ${formatMiB(end.hwm)}, after load ${formatMiB(end.rss)}`,
    );
    return {
      id: 'api-memory',
      title: 'Workspace API memory at 100k records (embedded PGlite)',
      command: ctx.command,
      date: new Date(),
      machine: machineInfo(),
      figures: [
        {
          name: 'peak RSS (VmHWM) over start-up and load',
          value: formatMiB(end.hwm),
          budget: '<= 400 MB (381.5 MiB)',
          pass: end.hwm <= BUDGET_BYTES,
        },
        { name: 'RSS after start-up (idle)', value: formatMiB(afterStart.rss) },
        { name: 'highest sampled RSS during the load', value: formatMiB(sampled.peakRss) },
        { name: 'RSS after the load', value: formatMiB(end.rss) },
        {
          name: 'load served',
          value: `${load.latencies.length} requests in ${(load.elapsedMs / 1000).toFixed(1)} s, p50 ${formatMs(latency.p50)}, p99 ${formatMs(latency.p99)}; API CPU ${cpuPerRequest.toFixed(1)} ms per request`,
        },
        {
          name: 'for comparison: RSS after start-up under tsx (dev), same folder',
          value: formatMiB(tsxAfterStart.rss),
        },
      ],
      notes: [
        `Data: ${describeSeed(dataset)}.`,
        'Method: a fresh API process as `npm start` runs it (apps/workspace-api/scripts/serve.sh: `node --v8-pool-size=1 dist/index.js`, the esbuild bundle of `pnpm --filter workspace-api build`; PGlite shared_buffers at the default of src/db/client.ts) on the seeded data folder; VmRSS read right after /health answers; then 4 concurrent clients send the six api-search triage searches (every tenth with first=1000) and reads by id; VmRSS sampled every 50 ms and VmHWM read at the end; CPU from /proc/<pid>/stat. The PGlite (WASM PostgreSQL) heap lives inside this process, so its shared buffers and caches count here. Then the same folder is opened once more under tsx (`node --import tsx src/index.ts`, the dev path) for its start-up RSS only.',
      ],
    };
  } finally {
    await api.stop();
    agent.destroy();
  }
}

export const apiMemoryBench: Bench = { id: 'api-memory', title: 'API memory', run };
