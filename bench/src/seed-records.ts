// Seeding tool: loads N records quickly into a fresh PGlite data folder or a PostgreSQL database,
// using the API's own code for everything that shapes the data (migrations, the demo seed with its
// users/groups/credentials, the record generator with its realistic distributions, the index
// plans), and only a faster INSERT path of its own: one `INSERT ... SELECT FROM unnest(arrays)`
// per 5,000 rows (8 bound parameters instead of 4,000), pipelined so that generating the next
// chunk in Node overlaps with the database inserting the previous one. Expression indexes are
// dropped during the load and built once at the end, then the database is VACUUMed and ANALYZEd.
//
// CLI: pnpm --filter bench seed -- --count 1000000 [--database-url postgres://...] [--data-dir DIR]
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Db } from 'workspace-api/src/db/client.ts';
import type { GeneratedRecord, SeedContext } from 'workspace-api/src/seed/seed-records.ts';
import type { DemoCredentials } from 'workspace-api/src/seed/seed.ts';
import type { WorkspaceDefinition } from 'workspace-api/src/workspace/definitions.ts';
import { sql } from 'kysely';
import { initDeps } from 'workspace-api/src/app.ts';
import { planDefinitionIndexes } from 'workspace-api/src/db/definition-indexes.ts';
import { parseEnv } from 'workspace-api/src/env.ts';
import { reserveHandleNumbers } from 'workspace-api/src/records/records.ts';
import { createRng } from 'workspace-api/src/seed/prng.ts';
import { generateRecords } from 'workspace-api/src/seed/seed-records.ts';
import { prepareStore } from 'workspace-api/src/seed/seed.ts';
import { DEMO_GROUPS } from 'workspace-api/src/workspace/demo-workspace.ts';

export type SeedTarget = {
  /** Total records wanted in the store (the demo seed's 5,000 included). */
  count: number;
  /** PGlite data folder, or for PostgreSQL the folder that gets demo-credentials.json and blobs. */
  dataDir: string;
  databaseUrl?: string;
  onProgress?: (message: string) => void;
};

export type SeedOutcome = {
  credentials: DemoCredentials;
  records: number;
  tickets: number;
  /** Wall-clock phases in milliseconds. */
  ms: { demo: number; load: number; indexes: number; analyze: number; total: number };
  /** Rows per second of the bulk load (without the index build). */
  rowsPerSecond: number;
  /** Each expression index build (the definition's fields), slowest first in the report. */
  indexBuilds: Array<{ index: string; ms: number }>;
  /** A sample of real values, for benchmark queries that must match something. */
  sample: { agents: string[]; customers: string[]; ticketIds: string[] };
};

const CHUNK = 5_000;

/** The people and customers generated tickets refer to, read back from the demo seed. */
async function seedContext(db: Db, now: Date): Promise<SeedContext> {
  const members = await db
    .selectFrom('group_members')
    .innerJoin('groups', 'groups.id', 'group_members.group_id')
    .innerJoin('users', 'users.id', 'group_members.user_id')
    .where('users.status', '=', 'ACTIVE')
    .select(['groups.name', 'users.email'])
    .orderBy('users.seq')
    .execute();
  const inGroup = (...names: string[]) => [
    ...new Set(members.filter((m) => names.includes(m.name)).map((m) => m.email)),
  ];
  const customers = await db
    .selectFrom('records')
    .where('alias', '=', 'customers')
    .select(sql<string>`data ->> 'Name'`.as('name'))
    .orderBy('seq')
    .execute();
  return {
    now,
    spanDays: 540,
    region: 'default',
    agents: inGroup(DEMO_GROUPS.tier1, DEMO_GROUPS.tier2),
    managers: inGroup(DEMO_GROUPS.success),
    billing: inGroup(DEMO_GROUPS.billing),
    engineers: inGroup(DEMO_GROUPS.engineering),
    customers: customers.map((row) => row.name).filter((name) => name !== null && name !== ''),
  };
}

/**
 * Inserts rows with one statement: parallel arrays unnested into rows (any row count, 8 parameters).
 *
 * @example
 * await insertUnnest(db, definition, rows, 4001);
 */
export async function insertUnnest(
  db: Db,
  definition: WorkspaceDefinition,
  rows: GeneratedRecord[],
  firstNumber: number,
): Promise<void> {
  const ids = rows.map((_, index) => `${definition.handle}-${firstNumber + index}`);
  const data = rows.map((row) => JSON.stringify(row.data));
  const createdAt = rows.map((row) => row.createdAt.toISOString());
  const createdBy = rows.map((row) => row.createdBy);
  const updatedAt = rows.map((row) => row.updatedAt.toISOString());
  const updatedBy = rows.map((row) => row.updatedBy);
  await sql`
    insert into records (id, record_type, alias, data, created_at, created_by, updated_at, updated_by)
    select id, ${definition.recordType}, ${definition.alias}, data::jsonb, created_at, created_by, updated_at, updated_by
    from unnest(${ids}::text[], ${data}::text[], ${createdAt}::timestamptz[], ${createdBy}::text[], ${updatedAt}::timestamptz[], ${updatedBy}::text[])
      as t(id, data, created_at, created_by, updated_at, updated_by)`.execute(db);
}

/**
 * Fills a store up to `count` records: the API's demo seed first (users, groups, credentials,
 * 5,000 records), then support tickets generated by the API's generator.
 *
 * @example
 * const outcome = await seedStore({ count: 100_000, dataDir: '/tmp/x' });
 */
export async function seedStore(target: SeedTarget): Promise<SeedOutcome> {
  const log = target.onProgress ?? (() => undefined);
  const started = performance.now();
  const config = parseEnv({
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_RPS: '0',
    // A bench store is seeded on purpose, PostgreSQL included (the API never seeds one unasked).
    SEED_DEMO: '1',
  });
  const { deps, close } = await initDeps(config);
  try {
    const seeded = await prepareStore(deps);
    if (!seeded.seeded) throw new Error(`The store in ${target.dataDir} is not empty`);
    const demoMs = performance.now() - started;
    log(`demo seed: ${seeded.counts.records} records in ${Math.round(demoMs)} ms`);
    const definition = deps.workspace.find('apps', 'support-tickets');
    if (!definition) throw new Error('support-tickets definition missing');
    const existing = Number(seeded.counts.records);
    const extra = Math.max(0, target.count - existing);
    const ctx = await seedContext(deps.db, new Date(Math.floor(Date.now() / 60_000) * 60_000));
    const rng = createRng(20_240_601);

    // The definition's expression indexes are dropped for the load and built once at the end
    // (as the API's withDeferredIndexes does), one by one so that each build is timed.
    const plans = planDefinitionIndexes(definition, { trgm: deps.trgm });
    for (const plan of plans) await sql`drop index if exists ${sql.id(plan.name)}`.execute(deps.db);
    const loadStart = performance.now();
    const [firstNumber = 0] =
      extra > 0 ? await reserveHandleNumbers(deps.db, definition.handle, 1) : [];
    if (extra > 1) await reserveHandleNumbers(deps.db, definition.handle, extra - 1);
    // Pipelined: the database inserts chunk k while Node generates chunk k+1 (two cores).
    let inFlight: Promise<void> = Promise.resolve();
    for (let from = 0; from < extra; from += CHUNK) {
      const size = Math.min(CHUNK, extra - from);
      const rows = generateRecords(definition, ctx, rng, from, size, extra);
      await inFlight;
      inFlight = insertUnnest(deps.db, definition, rows, firstNumber + from);
      if ((from / CHUNK) % 20 === 0) log(`loaded ${from} / ${extra}`);
    }
    await inFlight;
    const loadMs = performance.now() - loadStart;
    log(`loaded ${extra} in ${Math.round(loadMs)} ms; building ${plans.length} indexes`);
    const indexStart = performance.now();
    const indexBuilds: SeedOutcome['indexBuilds'] = [];
    for (const plan of plans) {
      const started = performance.now();
      await sql.raw(plan.ddl).execute(deps.db);
      const ms = performance.now() - started;
      const what = /records (.*) where/.exec(plan.ddl)?.[1] ?? plan.name;
      indexBuilds.push({ index: what, ms });
      log(`  index ${what}: ${Math.round(ms)} ms`);
    }
    const indexMs = performance.now() - indexStart;
    log(`indexes built in ${Math.round(indexMs)} ms`);
    const analyzeStart = performance.now();
    // VACUUM too: sets hint bits and the visibility map as autovacuum would have, so the first
    // searches do not pay for writing every page they read (steady state is what is measured).
    await sql`vacuum analyze`.execute(deps.db);
    const analyzeMs = performance.now() - analyzeStart;

    const sample = await sampleValues(deps.db);
    const counts = await deps.db
      .selectFrom('records')
      .select([
        (eb) => eb.fn.countAll<number>().as('all'),
        sql<number>`count(*) filter (where alias = 'support-tickets')`.as('tickets'),
      ])
      .executeTakeFirstOrThrow();
    return {
      credentials: seeded.credentials,
      records: Number(counts.all),
      tickets: Number(counts.tickets),
      ms: {
        demo: demoMs,
        load: loadMs,
        indexes: indexMs,
        analyze: analyzeMs,
        total: performance.now() - started,
      },
      indexBuilds,
      rowsPerSecond: loadMs > 0 ? extra / (loadMs / 1000) : 0,
      sample,
    };
  } finally {
    await close();
  }
}

/**
 * Real values of a seeded store for benchmark queries: the most frequent assignees and customers of
 * the support tickets, and ticket ids spread over the table.
 *
 * @example
 * const { agents } = await sampleValues(db);
 */
export async function sampleValues(db: Db): Promise<SeedOutcome['sample']> {
  const agents = await sql<{ email: string; n: number }>`
    select data ->> 'Assignee' as email, count(*)::int as n from records
    where alias = 'support-tickets' and data ->> 'Assignee' is not null
    group by 1 order by 2 desc limit 5`.execute(db);
  const customers = await sql<{ name: string }>`
    select data ->> 'Customer' as name from records
    where alias = 'support-tickets' and data ->> 'Customer' is not null
    group by 1 order by count(*) desc limit 5`.execute(db);
  // Ids spread over the table (not only the hot end), for get-by-id.
  const ids = await sql<{ id: string }>`
    select id from records where alias = 'support-tickets' and seq % 997 = 0 limit 500`.execute(db);
  return {
    agents: agents.rows.map((row) => row.email),
    customers: customers.rows.map((row) => row.name),
    ticketIds: ids.rows.map((row) => row.id),
  };
}

async function main() {
  const { values } = parseArgs({
    // pnpm passes the `--` of `pnpm --filter bench seed -- --count N` through to the script.
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: {
      count: { type: 'string', default: '100000' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
    },
  });
  const count = Number(values.count);
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error('--count must be a positive integer');
  const dataDir = path.resolve(values['data-dir'] ?? `.data/bench-${count}`);
  const outcome = await seedStore({
    count,
    dataDir,
    databaseUrl: values['database-url'],
    onProgress: (message) => console.log(`[seed] ${message}`),
  });
  console.log(
    JSON.stringify(
      {
        dataDir,
        records: outcome.records,
        tickets: outcome.tickets,
        ms: outcome.ms,
        rowsPerSecond: Math.round(outcome.rowsPerSecond),
      },
      null,
      2,
    ),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
