// Seeded stores shared by the benchmarks of one run: seeding 100k/1M records is the slowest part,
// so api-search and api-memory reuse the same 100k PGlite folder within one `pnpm bench`.
// Everything is removed by releaseDatasets() at the end of the run.
import path from 'node:path';

import type { SeedOutcome } from '../seed-records.ts';
import type { Postgres } from './postgres.ts';
import { seedStore } from '../seed-records.ts';
import { startPostgres } from './postgres.ts';
import { tempDir } from './processes.ts';

export type Dataset = {
  kind: 'pglite' | 'postgres';
  count: number;
  /** DATA_DIR for the API (PGlite files under `pg/`, blobs, demo-credentials.json). */
  dataDir: string;
  databaseUrl?: string;
  seed: SeedOutcome;
};

type Entry = { dataset: Promise<Dataset>; cleanup: Array<() => Promise<void>> };
const cache = new Map<string, Entry>();

/**
 * A store with `count` records, seeded once per run.
 *
 * @example
 * const dataset = await getDataset('pglite', 100_000, console.log);
 */
export function getDataset(
  kind: Dataset['kind'],
  count: number,
  log: (message: string) => void,
): Promise<Dataset> {
  const key = `${kind}:${count}`;
  const existing = cache.get(key);
  if (existing) return existing.dataset;
  const cleanup: Array<() => Promise<void>> = [];
  const dataset = (async (): Promise<Dataset> => {
    const tmp = await tempDir(`${kind}-${count}`);
    cleanup.push(tmp.remove);
    let pg: Postgres | undefined;
    if (kind === 'postgres') {
      pg = await startPostgres();
      cleanup.unshift(pg.stop);
    }
    const dataDir = path.join(tmp.dir, 'api');
    log(`seeding ${count} records into ${kind}...`);
    const seed = await seedStore({
      count,
      dataDir,
      ...(pg ? { databaseUrl: pg.url } : {}),
      onProgress: (message) => log(`  [seed ${kind} ${count}] ${message}`),
    });
    log(
      `seeded ${seed.records} records (${seed.tickets} tickets) in ${(seed.ms.total / 1000).toFixed(1)} s: load ${(seed.ms.load / 1000).toFixed(1)} s (${Math.round(seed.rowsPerSecond)} rows/s), indexes ${(seed.ms.indexes / 1000).toFixed(1)} s`,
    );
    return { kind, count, dataDir, ...(pg ? { databaseUrl: pg.url } : {}), seed };
  })();
  cache.set(key, { dataset, cleanup });
  return dataset;
}

/**
 * Stops PostgreSQL servers and removes every seeded folder of this run.
 *
 * @example
 * try { await runBenchmarks(); } finally { await releaseDatasets(); }
 */
export async function releaseDatasets(): Promise<void> {
  for (const [key, entry] of cache) {
    cache.delete(key);
    await entry.dataset.catch(() => undefined);
    for (const step of entry.cleanup) await step().catch(() => undefined);
  }
}

/**
 * Stops and removes one dataset early (the 1M PostgreSQL server is large and only api-search uses it).
 *
 * @example
 * await releaseDataset('postgres', 1_000_000);
 */
export async function releaseDataset(kind: Dataset['kind'], count: number): Promise<void> {
  const key = `${kind}:${count}`;
  const entry = cache.get(key);
  if (!entry) return;
  cache.delete(key);
  await entry.dataset.catch(() => undefined);
  for (const step of entry.cleanup) await step().catch(() => undefined);
}

/** How a dataset was seeded, for the report's notes. */
export function describeSeed(dataset: Dataset): string {
  const { seed } = dataset;
  const slowest = [...seed.indexBuilds]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((build) => `\`${build.index}\` ${(build.ms / 1000).toFixed(1)} s`)
    .join(', ');
  return `${seed.records.toLocaleString('en')} records (${seed.tickets.toLocaleString('en')} support tickets) seeded by bench/src/seed-records.ts in ${(seed.ms.total / 1000).toFixed(1)} s: demo seed ${(seed.ms.demo / 1000).toFixed(1)} s, bulk load ${(seed.ms.load / 1000).toFixed(1)} s (${Math.round(seed.rowsPerSecond).toLocaleString('en')} rows/s), expression indexes ${(seed.ms.indexes / 1000).toFixed(1)} s, VACUUM ANALYZE ${(seed.ms.analyze / 1000).toFixed(1)} s; slowest index builds: ${slowest}`;
}
