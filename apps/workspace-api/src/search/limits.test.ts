// DESIGN.md section 6, "database": statement_timeout on searches; a search that hits it is 503
// with Retry-After, never a stalled region. A test-only hook runs pg_sleep on the search's own
// connection, inside its time limit, to make a search as slow as an unindexable filter on a large
// store would be. Runs on PGlite and (TEST_DATABASE_URL) on PostgreSQL; see limits.ts for
// why the two differ and what bounds the embedded store.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';

import type { Harness } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';
import { TokenBucketLimiter } from '../lib/rate-limit.ts';

let h: Harness;
let hookRuns = 0;

beforeAll(async () => {
  h = await createHarness();
});
afterEach(() => {
  h.deps.hooks = undefined;
  h.config.searchTimeoutMs = 5_000;
  h.deps.limiters.searchTime = new TokenBucketLimiter({ ratePerSecond: 0, burst: 0 });
});
afterAll(() => h.close());

const SEARCH = '/v1/apps/support-tickets?filter=Status%3D%3DNew';

/** Every search first sleeps `seconds` on its connection (counted in hookRuns). */
function slowSearches(seconds: number) {
  hookRuns = 0;
  h.deps.hooks = {
    beforeSearch: async (db) => {
      hookRuns += 1;
      await sql`select pg_sleep(${seconds})`.execute(db);
    },
  };
}

describe('search time limits', () => {
  it('answers 503 with Retry-After when a search passes SEARCH_TIMEOUT_MS', async () => {
    h.config.searchTimeoutMs = 200;
    slowSearches(2);
    const started = performance.now();
    const res = await h.request('GET', SEARCH, { token: h.tokens.member });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(ProblemSchema.parse(res.json).detail).toMatch(/longer than 200 ms/);
    // PostgreSQL cancels the statement at the limit; PGlite cannot interrupt it (limits.ts).
    if (h.deps.dbKind === 'postgres') expect(elapsed).toBeLessThan(1_500);
    // The connection is usable afterwards (the transaction was rolled back, not left open).
    h.deps.hooks = undefined;
    expect((await h.request('GET', SEARCH, { token: h.tokens.member })).status).toBe(200);
  });

  it('applies to filtered user lists too', async () => {
    h.config.searchTimeoutMs = 200;
    slowSearches(0.8);
    const res = await h.request('GET', '/v1/users?filter=status%3D%3DACTIVE', {
      token: h.tokens.member,
    });
    expect(res.status).toBe(503);
  });

  it('keeps the region responsive: one credential cannot repeat slow searches back to back', async () => {
    h.config.searchTimeoutMs = 200;
    // Repaid at 100 ms per second: slow enough that the refill during a search (a fifth of its
    // time) never keeps up, however loaded the machine is.
    h.deps.limiters.searchTime = new TokenBucketLimiter({ ratePerSecond: 100, burst: 400 });
    slowSearches(0.8);
    const statuses: number[] = [];
    let refused;
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const res = await h.request('GET', SEARCH, { token: h.tokens.member });
      statuses.push(res.status);
      if (res.status === 429) {
        refused = res;
        break;
      }
    }
    // PGlite: the first slow search (800 ms) leaves the budget in debt; PostgreSQL: searches
    // cancelled at 200 ms spend its 400 ms by the third. Either way the next one is refused
    // without running.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 503)).toBe(true);
    expect(hookRuns).toBe(statuses.length - 1);
    expect(Number(refused?.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(ProblemSchema.parse(refused?.json).detail).toMatch(/time budget/);
    // Everyone else searches as usual meanwhile.
    h.deps.hooks = undefined;
    expect((await h.request('GET', SEARCH, { token: h.tokens.admin })).status).toBe(200);
    expect((await h.request('GET', '/v1/me', { token: h.tokens.member })).status).toBe(200);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: other requests are answered while a slow search runs',
    async () => {
      h.config.searchTimeoutMs = 1_500;
      slowSearches(5);
      const order: string[] = [];
      const slow = h
        .request('GET', SEARCH, { token: h.tokens.member })
        .then((res) => order.push(`search ${res.status}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const me = await h.request('GET', '/v1/me', { token: h.tokens.admin });
      order.push(`me ${me.status}`);
      await slow;
      expect(order).toEqual(['me 200', 'search 503']);
    },
  );

  it("runs a search's statements in one snapshot (repeatable read)", async () => {
    // resolveFilter reads a range's values and the search then uses them: both must see the
    // same records (statements.ts), and an unfiltered page must agree with its count.
    const seen: string[] = [];
    h.deps.hooks = {
      beforeSearch: async (db) => {
        const { rows } = await sql<{
          transaction_isolation: string;
        }>`show transaction_isolation`.execute(db);
        seen.push(rows[0]?.transaction_isolation ?? '');
      },
    };
    for (const url of [SEARCH, '/v1/apps/support-tickets', `${SEARCH}%3BPriority%3Dle%3D2`]) {
      expect((await h.request('GET', url, { token: h.tokens.member })).status).toBe(200);
    }
    expect(seen).toEqual(['repeatable read', 'repeatable read', 'repeatable read']);
  });

  it('leaves ordinary searches alone with the budget on', async () => {
    h.deps.limiters.searchTime = new TokenBucketLimiter({ ratePerSecond: 500, burst: 10_000 });
    for (let i = 0; i < 20; i += 1) {
      expect((await h.request('GET', SEARCH, { token: h.tokens.member })).status).toBe(200);
    }
  });
});
