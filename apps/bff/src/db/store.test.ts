import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';
import { PGliteDialect } from '@wsc/pglite-kysely';

import type { FakeUpstream } from '../../test/fake-upstream.ts';
import type { BffDatabase } from './schema.ts';
import { CLIENT_ID, CLIENT_SECRET, ME, startFakeUpstream } from '../../test/fake-upstream.ts';
import { createHarness, SESSION_SECRET } from '../../test/harness.ts';
import { postgresAvailable, startPostgres } from '../../test/postgres.ts';
import { createSealer, hashSessionId, newSessionId } from '../lib/crypto.ts';
import { ownerIdFor } from '../lib/identities.ts';
import { migrateTo, migrateToLatest } from './migrations.ts';
import { openStore, PGLITE_SHARED_BUFFERS_MB } from './store.ts';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const execFileAsync = promisify(execFile);
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
      expect.arrayContaining([
        'sessions',
        'saved_views',
        'user_preferences',
        'workspace_definitions',
      ]),
    );
    // A sweep removes sessions past their absolute expiry.
    expect(await second.sweep(Date.now() + 13 * 3_600_000, 0)).toBeGreaterThanOrEqual(1);
    expect((await after.api('/bff/session', { cookie })).status).toBe(200); // still cached in memory
    await second.close();
  });
});

describe('sessions from before the owner/profile columns (migration 0004)', () => {
  it('load as extended sessions of the /v1/me user, who keeps their saved views', async () => {
    const h = await createHarness({ upstream });
    const cookie = newSessionId();
    const idHash = hashSessionId(cookie);
    const sealer = createSealer(SESSION_SECRET);
    const now = h.clock.now();
    // The row exactly as an older BFF wrote it: the `/v1/me` reply as the user, no owner or
    // profile (what an older instance still writes during a rolling deploy).
    await h.store.db
      .insertInto('sessions')
      .values({
        id_hash: idHash,
        client_id: CLIENT_ID,
        secret_sealed: sealer.seal(CLIENT_SECRET, idHash),
        region: 'default',
        user_json: JSON.stringify(ME),
        owner_id: null,
        profile: null,
        token_sealed: null,
        token_refresh_at: null,
        created_at: now,
        last_seen_at: now,
        expires_at: now + 3_600_000,
      })
      .execute();
    const name = `Old view ${Date.now()}`;
    const view = await h.store.db
      .insertInto('saved_views')
      .values({
        user_id: ME.id,
        region: 'default',
        name,
        record_type: 'apps',
        alias: 'support',
        search: JSON.stringify({ filter: '', sort: '', columns: [] }),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const session = await h.api('/bff/session', { cookie });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({
      user: {
        id: ME.id,
        email: ME.email,
        firstName: ME.firstName,
        lastName: ME.lastName,
        clientId: CLIENT_ID,
        role: 'ADMIN',
        identity: 'api',
      },
      capabilities: capabilitiesFor('extended'),
    });
    expect((await h.api(`/bff/views/${view.id}`, { cookie })).status).toBe(200);
    // And the stored secret still gets a token for the proxy.
    expect((await h.api('/api/v1/users', { cookie })).status).toBe(200);
  });
});

describe('migration 0004 over existing sessions', () => {
  it('fills in the owner (the /v1/me id) and the extended profile of every earlier session', async () => {
    const db = new Kysely<BffDatabase>({ dialect: new PGliteDialect(await PGlite.create()) });
    try {
      await migrateTo(db as Kysely<unknown>, '0003_saved_views_per_definition');
      await sql`insert into sessions (id_hash, client_id, secret_sealed, region, user_json, created_at, last_seen_at, expires_at)
        values ('h1', ${CLIENT_ID}, 'v1.x', 'default', ${JSON.stringify(ME)}, 1, 1, 2)`.execute(db);
      await migrateToLatest(db as Kysely<unknown>);
      const row = await db
        .selectFrom('sessions')
        .select(['owner_id', 'profile'])
        .where('id_hash', '=', 'h1')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ owner_id: ME.id, profile: 'extended' });
    } finally {
      await db.destroy();
    }
  });
});

describe('the PGlite store memory', () => {
  it('starts PGlite with the small shared_buffers, or the one given', async () => {
    // PGlite's own default is 128MB, all of it resident in the BFF from the start.
    expect(PGLITE_SHARED_BUFFERS_MB).toBeLessThan(128);
    for (const [given, expected] of [
      [undefined, `${PGLITE_SHARED_BUFFERS_MB}MB`],
      [8, '8MB'],
    ] as const) {
      const store = await openStore({
        kind: 'pglite',
        dataDir: path.join(dataDir, `buffers-${given ?? 'default'}`),
        sharedBuffersMb: given,
      });
      try {
        const { rows } = await sql<{
          shared_buffers: string;
        }>`show shared_buffers`.execute(store.db);
        expect(rows[0]?.shared_buffers).toBe(expected);
      } finally {
        await store.close();
      }
    }
  });

  it('leaves no initdb high-water mark in the process that opens a new data folder', async () => {
    // A fresh process (this worker's VmHWM already holds other PGlite instances). initdb inside
    // it peaks at 900+ MiB and WASM memory never shrinks; opening a folder created by a child is
    // well under half of that (node + tsx + PGlite at 16 MB shared_buffers).
    const folder = path.join(dataDir, 'fresh', 'bff');
    const script = `
      import fs from 'node:fs';
      import { openStore } from './src/db/store.ts';
      const store = await openStore({ kind: 'pglite', dataDir: process.argv[1] });
      await store.ping();
      await store.close();
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      console.log(JSON.stringify({ hwmKiB: Number(/VmHWM:\\s+(\\d+)/.exec(status)?.[1]) }));
    `;
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, folder],
      { cwd: APP_DIR },
    );
    await expect(stat(path.join(folder, 'PG_VERSION'))).resolves.toBeTruthy();
    const { hwmKiB } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { hwmKiB: number };
    expect(hwmKiB / 1024).toBeGreaterThan(50);
    expect(hwmKiB / 1024).toBeLessThan(450);
  }, 120_000);
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

describe('migration 0006 over existing saved views', () => {
  it('keeps every view private, and removes shares with their view', async () => {
    const db = new Kysely<BffDatabase>({ dialect: new PGliteDialect(await PGlite.create()) });
    try {
      await migrateTo(db as Kysely<unknown>, '0005_login_failures');
      const { rows } = await sql<{ id: string }>`insert into saved_views
        (user_id, region, name, record_type, alias, search, created_at, updated_at)
        values ('u1', 'default', 'Open', 'apps', 'tickets', '{}', 1, 1) returning id`.execute(db);
      const id = rows[0]?.id ?? '';
      await migrateToLatest(db as Kysely<unknown>);
      const view = await db
        .selectFrom('saved_views')
        .select('shared_by')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(view.shared_by).toBeNull();
      expect(await db.selectFrom('saved_view_shares').selectAll().execute()).toEqual([]);

      await db
        .insertInto('saved_view_shares')
        .values({ view_id: id, region: 'default', group_id: '', group_name: '', created_at: 2 })
        .execute();
      await db.deleteFrom('saved_views').where('id', '=', id).execute();
      expect(await db.selectFrom('saved_view_shares').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

describe('migration 0010 over existing history, presence and shared views', () => {
  it('marks the rows of hosted owners (UUID v5) unverified, names included, and the others api; new rows default to unverified', async () => {
    const db = new Kysely<BffDatabase>({ dialect: new PGliteDialect(await PGlite.create()) });
    const hosted = ownerIdFor('default', 'client-1');
    const extended = '0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d';
    try {
      await migrateTo(db as Kysely<unknown>, '0009_record_history');
      for (const actor of [hosted, extended]) {
        await sql`insert into record_history (change_id, region, at, actor_id, actor_name, record_type, alias, record_id, kind, field, source)
          values (gen_random_uuid(), 'default', 1, ${actor}, 'Alex Morgan', 'apps', 'tickets', 'SUP-1', 'updated', 'Status', 'editor')`.execute(
          db,
        );
        await sql`insert into saved_views (user_id, region, name, record_type, alias, search, created_at, updated_at, shared_by)
          values (${actor}, 'default', ${actor}, 'apps', 'tickets', '{}', 1, 1, 'Alex Morgan')`.execute(
          db,
        );
      }
      await migrateToLatest(db as Kysely<unknown>);
      const history = await db
        .selectFrom('record_history')
        .select(['actor_id', 'actor_name', 'identity', 'not_kept'])
        .orderBy('id')
        .execute();
      expect(history).toEqual([
        {
          actor_id: hosted,
          actor_name: 'Alex Morgan (unverified)',
          identity: 'self',
          not_kept: false,
        },
        { actor_id: extended, actor_name: 'Alex Morgan', identity: 'api', not_kept: false },
      ]);
      const views = await db
        .selectFrom('saved_views')
        .select(['user_id', 'shared_by', 'shared_by_identity'])
        .orderBy('user_id')
        .execute();
      expect(views).toEqual(
        [
          { user_id: hosted, shared_by: 'Alex Morgan (unverified)', shared_by_identity: 'self' },
          { user_id: extended, shared_by: 'Alex Morgan', shared_by_identity: 'api' },
        ].sort((a, b) => a.user_id.localeCompare(b.user_id)),
      );
      // A row written by an instance that predates the column (a rolling deploy) is unverified.
      await sql`insert into presence (connection_id, session_hash, instance_id, region, user_id, user_name, since, expires_at)
        values ('c1', 'h', 'i', 'default', 'u', 'Ada', 1, 2)`.execute(db);
      const presence = await db.selectFrom('presence').select('user_identity').execute();
      expect(presence).toEqual([{ user_identity: 'self' }]);
    } finally {
      await db.destroy();
    }
  });
});
