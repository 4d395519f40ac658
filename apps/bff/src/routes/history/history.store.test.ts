// The record history's store on its own: the administrators' filters use an index (EXPLAIN over a
// realistic spread of people and definitions), and the store's size is a metric read cheaply.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SessionStore } from '../../db/store.ts';
import { testStore } from '../../../test/harness.ts';
import { createFakeClock } from '../../lib/clock.ts';
import { regionFor } from '../../lib/config.ts';
import { createBffMetrics } from '../../lib/metrics.ts';
import { historyStore } from './history.store.ts';

/** A region of this file's own: the store may be shared with other test files (PostgreSQL). */
const REGION = 'explain-test';
let store: SessionStore;

beforeAll(async () => {
  store = await testStore();
  // 30,000 entries by 60 people over 12 definitions, the way a busy region's history looks.
  await sql`insert into record_history
      (change_id, region, at, actor_id, actor_name, identity, record_type, alias, record_id, kind, field, before, after, source)
    select gen_random_uuid(), ${REGION}, 1700000000000 + n * 1000, 'actor-' || (n % 60), 'Person ' || (n % 60), 'api',
      'apps', 'def-' || (n % 12), 'REC-' || n, 'updated', 'Status', '"New"', '"Open"', 'editor'
    from generate_series(1, 30000) as n`.execute(store.db);
  await sql`analyze record_history`.execute(store.db);
}, 120_000);
afterAll(async () => {
  await sql`delete from record_history where region = ${REGION}`.execute(store.db);
});

async function plan(filter: Parameters<ReturnType<typeof historyStore>['search']>[1]) {
  const history = historyStore(store.db, { retentionMs: 365 * 86_400_000 });
  const compiled = history.searchQuery(REGION, filter, { first: 51 }).compile();
  const result = await store.db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe("the administrators' filters", () => {
  it('find one person by the actor index, never by scanning the table', async () => {
    const text = await plan({ user: 'actor-7' });
    expect(text).toContain('record_history_actor');
    expect(text).not.toMatch(/Seq Scan on record_history/);
  });

  it('find one definition by the definition index', async () => {
    const text = await plan({ recordType: 'apps', alias: 'def-3' });
    expect(text).toContain('record_history_definition');
    expect(text).not.toMatch(/Seq Scan on record_history/);
  });
});

describe('wsc_bff_history_bytes', () => {
  it("is the history's size in the store, read at most once a minute", async () => {
    const clock = createFakeClock(Date.parse('2025-03-01T09:00:00.000Z'));
    const metrics = createBffMetrics({
      store,
      clock,
      regions: [regionFor('default', 'http://127.0.0.1:9/v1')],
    });
    const scrape = async () =>
      Number(/^wsc_bff_history_bytes (\d+)$/m.exec(await metrics.registry.metrics())?.[1]);
    const first = await scrape();
    expect(first).toBeGreaterThan(1_000_000);
    await sql`insert into record_history
        (change_id, region, at, actor_id, actor_name, identity, record_type, alias, record_id, kind, field, before, after, source)
      select gen_random_uuid(), ${REGION}, 1, 'x', 'x', 'api', 'apps', 'x', 'x', 'updated', 'x', null, ${JSON.stringify('z'.repeat(400))}::jsonb, 'x'
      from generate_series(1, 3000)`.execute(store.db);
    // Within the minute: the same reading, no query; after it, the new size.
    expect(await scrape()).toBe(first);
    clock.advance(60_000);
    expect(await scrape()).toBeGreaterThan(first);
  });
});
