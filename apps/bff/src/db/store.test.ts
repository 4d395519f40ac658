import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../test/fake-upstream.ts';
import { startFakeUpstream } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { postgresAvailable, startPostgres } from '../../test/postgres.ts';
import { openStore } from './store.ts';

let upstream: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = await mkdtemp(path.join(tmpdir(), 'bff-store-'));
});
afterAll(async () => {
  await upstream.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the PGlite session store', () => {
  it('keeps sessions and their token across a BFF restart on the same data folder', async () => {
    const first = await openStore({ kind: 'pglite', dataDir });
    const before = await createHarness({ upstream, store: first });
    const { cookie } = await before.login();
    expect(upstream.tokenCalls).toBe(1);
    await first.close();

    const second = await openStore({ kind: 'pglite', dataDir });
    const after = await createHarness({ upstream, store: second });
    const session = await after.api('/bff/session', { cookie });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ user: { email: 'ada@example.com' } });
    const proxied = await after.api('/api/v1/me', { cookie });
    expect(proxied.status).toBe(200);
    // The sealed token from the store is reused: no new token call after the restart.
    expect(upstream.tokenCalls).toBe(1);

    const tables = await second.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['sessions', 'saved_views', 'user_preferences']),
    );
    // A sweep removes sessions past their absolute expiry.
    expect(await second.sweep(Date.now() + 13 * 3_600_000, 0)).toBeGreaterThanOrEqual(1);
    expect((await after.api('/bff/session', { cookie })).status).toBe(200); // still cached in memory
    await second.close();
  });
});

describe.skipIf(!postgresAvailable)('the PostgreSQL session store (BFF_DATABASE_URL)', () => {
  it('shares sessions between two BFF instances and across a restart', async () => {
    const pg = await startPostgres();
    try {
      const storeA = await openStore({ kind: 'postgres', url: pg.url });
      const storeB = await openStore({ kind: 'postgres', url: pg.url });
      const a = await createHarness({ upstream, store: storeA });
      const b = await createHarness({ upstream, store: storeB });
      const { cookie } = await a.login();
      expect((await b.api('/bff/session', { cookie })).status).toBe(200);
      expect((await b.api('/api/v1/me', { cookie })).status).toBe(200);
      expect((await a.api('/bff/logout', { method: 'POST', cookie })).status).toBe(204);
      // Instance B trusts its cached row for at most sessionCacheMs.
      b.clock.advance(b.config.sessionCacheMs);
      expect((await b.api('/bff/session', { cookie })).status).toBe(401);

      const { cookie: again } = await a.login();
      await storeA.close();
      const storeC = await openStore({ kind: 'postgres', url: pg.url });
      const c = await createHarness({ upstream, store: storeC });
      expect((await c.api('/bff/session', { cookie: again })).status).toBe(200);
      await storeB.close();
      await storeC.close();
    } finally {
      await pg.stop();
    }
  });
});
