import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  AttachmentListSchema,
  RecordPagedListSchema,
  TokenResponseSchema,
} from '@wsc/api-client/strict';

import type { DatabaseHandle } from '../db/client.ts';
import type { AppDeps } from '../lib/types.ts';
import type { SeedContext } from './seed-records.ts';
import type { SeedResult } from './seed.ts';
import { testConfig } from '../../test/harness.ts';
import { buildApp, initDeps } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { planDefinitionIndexes } from '../db/definition-indexes.ts';
import { validateRecordInput } from '../records/records.ts';
import { prepareStore } from './prepare-store.ts';
import { createRng } from './prng.ts';
import { generateRecords, seedRecords } from './seed-records.ts';
import { seedIfEmpty } from './seed.ts';

const NOW = new Date('2025-06-30T12:00:00.000Z');
let deps: AppDeps;
let database: DatabaseHandle;
let result: SeedResult;
let schema: string | undefined;

beforeAll(async () => {
  const config = testConfig();
  schema = process.env.TEST_DATABASE_URL ? `t_seed_${Date.now().toString(36)}` : undefined;
  database = await openDatabase({
    databaseUrl: process.env.TEST_DATABASE_URL,
    schema,
    poolSize: 4,
  });
  ({ deps } = await initDeps(config, { database }));
  result = await seedIfEmpty(deps, { now: NOW });
});
afterAll(async () => {
  if (schema) await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
  await database.close();
  await fs.rm(deps.config.dataDir, { recursive: true, force: true });
});

async function count(
  table: 'users' | 'records' | 'comments' | 'watchers' | 'record_relations' | 'attachments',
) {
  const row = await deps.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('demo seed', () => {
  it('seeds people, 5,000 records and their activity quickly, in one go', async () => {
    if (!result.seeded) throw new Error('not seeded');
    expect(await count('users')).toBe(60);
    expect(await count('records')).toBe(5_000);
    expect(await count('comments')).toBeGreaterThan(1_000);
    expect(await count('watchers')).toBeGreaterThan(500);
    expect(await count('record_relations')).toBeGreaterThan(2_000);
    expect(await count('attachments')).toBeGreaterThan(10);
    expect(result.ms).toBeLessThan(20_000);
    const inactive = await deps.db
      .selectFrom('users')
      .select('email')
      .where('status', '=', 'INACTIVE')
      .execute();
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.length).toBeLessThan(10);
  });

  it('makes a support group watch a few critical tickets', async () => {
    const rows = await deps.db
      .selectFrom('watchers')
      .innerJoin('groups', 'groups.id', 'watchers.group_id')
      .innerJoin('records', 'records.id', 'watchers.record_id')
      .select(['groups.name', 'records.alias', 'records.data'])
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row).toMatchObject({ name: 'Support Tier 2', alias: 'support-tickets' });
      expect(row.data.Severity).toBe('Critical');
    }
  });

  it('rebuilds every per-definition index it deferred during the load', async () => {
    const planned = deps.workspace.definitions.flatMap((definition) =>
      planDefinitionIndexes(definition, deps).map((plan) => plan.name),
    );
    const { rows } = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'records'`.execute(deps.db);
    const present = new Set(rows.map((row) => row.indexname));
    expect(planned.length).toBeGreaterThan(10);
    expect(planned.filter((name) => !present.has(name))).toEqual([]);
  });

  it('is idempotent: a second start changes nothing', async () => {
    expect(await seedIfEmpty(deps, { now: NOW })).toEqual({ seeded: false });
    expect((await prepareStore(deps)).seeded).toBe(false);
    expect(await count('records')).toBe(5_000);
  });

  it('writes working demo credentials to demo-credentials.json with mode 0600', async () => {
    const file = path.join(deps.config.dataDir, 'demo-credentials.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(await fs.readFile(file, 'utf8')) as Record<
      'admin' | 'agent',
      { email: string; clientId: string; clientSecret: string }
    >;
    expect(creds.admin.email).toBe('admin@helpdesk.example');
    expect(creds.agent.email).toBe('agent@helpdesk.example');
    const app = buildApp(deps);
    const token = async (c: { clientId: string; clientSecret: string }) => {
      const res = await app.request('/oauth/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: c.clientId,
          client_secret: c.clientSecret,
        }),
      });
      return TokenResponseSchema.parse(await res.json()).access_token;
    };
    const me = await app.request('/v1/me', {
      headers: { Authorization: `Bearer ${await token(creds.admin)}` },
    });
    expect(((await me.json()) as { role: string }).role).toBe('ADMIN');

    // The agent sees tickets (a MEMBER of a support group) but not refunds.
    const agent = { Authorization: `Bearer ${await token(creds.agent)}` };
    const tickets = RecordPagedListSchema.parse(
      await (await app.request('/v1/apps/support-tickets?first=5', { headers: agent })).json(),
    );
    expect(tickets.total).toBe(4_000);
    expect((await app.request('/v1/transactions/refunds', { headers: agent })).status).toBe(403);

    // Seeded attachments are real: listed and downloadable with their sha256.
    const withFile = await deps.db
      .selectFrom('attachments')
      .select('record_id')
      .where('blob_key', 'is not', null)
      .executeTakeFirstOrThrow();
    const list = AttachmentListSchema.parse(
      await (
        await app.request(`/v1/apps/support-tickets/${withFile.record_id}/attachments`, {
          headers: agent,
        })
      ).json(),
    );
    const file0 = list.find((item) => item.contentUrl);
    const content = await app.request(file0?.contentUrl ?? '', { headers: agent });
    expect(content.status).toBe(200);
    expect(content.headers.get('ETag')).toBe(`"${file0?.sha256 ?? ''}"`);
    await content.arrayBuffer();
  });

  it('writes only valid records: every seeded record passes the API’s own validation', async () => {
    for (const definition of deps.workspace.definitions) {
      const rows = await deps.db
        .selectFrom('records')
        .select(['id', 'data'])
        .where('alias', '=', definition.alias)
        .orderBy('seq')
        .limit(150)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) await validateRecordInput(deps.db, definition, row.data, 'create');
    }
  });

  it('spreads tickets over 18 months with realistic statuses, oldest first by handle', async () => {
    const rows = await deps.db
      .selectFrom('records')
      .select(['id', 'data', 'created_at', 'updated_at'])
      .where('alias', '=', 'support-tickets')
      .orderBy('seq')
      .execute();
    const first = rows[0];
    const last = rows.at(-1);
    expect(first?.id).toBe('SUP-1');
    expect(first && first.created_at.getTime()).toBeLessThan(NOW.getTime() - 500 * 86_400_000);
    expect(last && last.created_at.getTime()).toBeGreaterThan(NOW.getTime() - 5 * 86_400_000);
    expect(
      rows.every(
        (row) =>
          row.updated_at.getTime() >= row.created_at.getTime() &&
          row.updated_at.getTime() <= NOW.getTime(),
      ),
    ).toBe(true);
    const closed = rows.filter((row) =>
      ['Resolved', 'Closed'].includes(row.data.Status ?? ''),
    ).length;
    expect(closed / rows.length).toBeGreaterThan(0.6);
    const critical = rows.filter((row) => row.data.Severity === 'Critical').length;
    expect(critical / rows.length).toBeLessThan(0.1);
  });
});

describe('generation', () => {
  const ctx: SeedContext = {
    now: NOW,
    spanDays: 540,
    region: 'eu',
    agents: ['a@x.example'],
    managers: [],
    billing: [],
    engineers: [],
    customers: ['Acme'],
  };
  it('is deterministic for a seed', () => {
    const definition = deps.workspace.find('apps', 'support-tickets');
    if (!definition) throw new Error('no tickets');
    expect(generateRecords(definition, ctx, createRng(5), 0, 20, 20)).toEqual(
      generateRecords(definition, ctx, createRng(5), 0, 20, 20),
    );
    expect(generateRecords(definition, ctx, createRng(5), 0, 20, 20)).not.toEqual(
      generateRecords(definition, ctx, createRng(6), 0, 20, 20),
    );
  });

  it('seedRecords bulk-loads a definition in chunks with consecutive handles', async () => {
    const definition = deps.workspace.find('tasks', 'tasks');
    if (!definition) throw new Error('no tasks');
    const progress: number[] = [];
    const loaded = await seedRecords(deps.db, definition, 2_500, createRng(9), ctx, {
      chunkSize: 1_000,
      deferIndexes: deps,
      onProgress: (n) => progress.push(n),
    });
    expect(progress).toEqual([1_000, 2_000, 2_500]);
    const ids = await deps.db
      .selectFrom('records')
      .select('id')
      .where('id', 'in', [loaded.first, loaded.last])
      .execute();
    expect(ids).toHaveLength(2);
    expect(Number(loaded.last.split('-')[1]) - Number(loaded.first.split('-')[1])).toBe(2_499);
  });
});
