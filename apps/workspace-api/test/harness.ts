// Test harness: a real app on a fresh database (in-memory PGlite, or a throw-away schema on
// TEST_DATABASE_URL), seeded with a few users, credentials and tokens. One per test file.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';

import type { App } from '../src/app.ts';
import type { DatabaseHandle, Db } from '../src/db/client.ts';
import type { UserRow } from '../src/db/schema.ts';
import type { Config } from '../src/env.ts';
import type { AppDeps } from '../src/lib/types.ts';
import { buildApp, initDeps } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { createCredential, insertUser, issueToken } from '../src/identity/credentials.ts';
import { DEMO_GROUPS } from '../src/workspace/demo-workspace.ts';

export type SeededUser = 'admin' | 'member' | 'billing' | 'inactive';

export type TestResponse = {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else undefined. */
  json: unknown;
  text: string;
};

export type RequestOptions = {
  /** Bearer token; omit for none. */
  token?: string;
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
};

export type Harness = {
  app: App;
  deps: AppDeps;
  db: Db;
  config: Config;
  users: Record<SeededUser, UserRow>;
  credentials: Record<SeededUser, { clientId: string; clientSecret: string }>;
  /** Valid access tokens (none for `inactive`, whose token is revoked/unissuable). */
  tokens: Record<Exclude<SeededUser, 'inactive'>, string>;
  request: (method: string, path: string, options?: RequestOptions) => Promise<TestResponse>;
  close: () => Promise<void>;
};

/**
 * A Config for tests: quiet, no rate limits, temp folders, the extended profile. Override what a
 * test needs (`{ profile: 'hosted' }` for the published contract only).
 *
 * @example
 * const config = testConfig({ tokenTtlSeconds: 1 });
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = path.join(os.tmpdir(), `wsa-test-${randomBytes(6).toString('hex')}`);
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    region: 'default',
    tokenTtlSeconds: 3600,
    rateLimit: { ratePerSecond: 0, burst: 0 },
    tokenFailureLimit: { ratePerSecond: 0, burst: 0 },
    tokenFailureAddressLimit: { ratePerSecond: 0, burst: 0 },
    secretCheck: { concurrency: 2, queue: 16, cacheTtlSeconds: 300 },
    // Tests run on whatever disk the machine has; the free-space rule has its own tests.
    blobMinFreeBytes: 0,
    searchTimeoutMs: 5_000,
    searchTimeBudget: { ratePerSecond: 0, burst: 0 },
    // On, as in production: every test that revokes or deactivates checks it is forgotten.
    tokenCache: { maxEntries: 10_000, maxAgeMs: 60_000 },
    seedDemo: undefined,
    server: {
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      bodyIdleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_000,
    },
    tokenPurgeIntervalSeconds: 3_600,
    metrics: undefined,
    blobDir: path.join(dataDir, 'blobs'),
    workspaceFile: undefined,
    logLevel: 'silent',
    profile: 'extended',
    ...overrides,
  };
}

/**
 * A fresh, empty test database: in-memory PGlite from the run's template, or a throw-away schema
 * on TEST_DATABASE_URL (initDeps migrates it). `drop` closes it (and drops the schema).
 *
 * @example
 * const { database, drop } = await openTestDatabase();
 */
export async function openTestDatabase(): Promise<{
  database: DatabaseHandle;
  drop: () => Promise<void>;
}> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const templatePath = databaseUrl ? '' : inject('pgliteTemplate');
  const pgliteTemplate = templatePath ? new Blob([await fs.readFile(templatePath)]) : undefined;
  const database = await openDatabase({ databaseUrl, schema, poolSize: 4, pgliteTemplate });
  const drop = async () => {
    if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
  };
  return { database, drop };
}

/**
 * Builds a seeded app on a fresh database. Call once per file in `beforeAll`, `close` in `afterAll`.
 *
 * @example
 * let h: Harness;
 * beforeAll(async () => { h = await createHarness(); });
 * afterAll(() => h.close());
 * it('reads me', async () => {
 *   const res = await h.request('GET', '/v1/me', { token: h.tokens.member });
 *   expect(res.status).toBe(200);
 * });
 */
export async function createHarness(overrides: Partial<Config> = {}): Promise<Harness> {
  const config = testConfig(overrides);
  await fs.mkdir(config.blobDir, { recursive: true });
  const { database, drop } = await openTestDatabase();
  const { deps } = await initDeps(config, { database });
  const db = deps.db;

  const groups = await db.selectFrom('groups').select(['id', 'name']).execute();
  const groupId = (name: string) => groups.find((group) => group.name === name)?.id ?? '';
  const users = {
    admin: await insertUser(db, {
      email: 'admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
      jobTitle: 'Administrator',
      role: 'ADMIN',
    }),
    member: await insertUser(db, {
      email: 'agent@example.com',
      firstName: 'Sam',
      lastName: 'Agent',
      jobTitle: 'Support Agent',
    }),
    billing: await insertUser(db, {
      email: 'billing@example.com',
      firstName: 'Bea',
      lastName: 'Biller',
      jobTitle: 'Billing Specialist',
    }),
    inactive: await insertUser(db, {
      email: 'gone@example.com',
      firstName: 'Gus',
      lastName: 'Gone',
      status: 'INACTIVE',
    }),
  };
  const memberships: Array<[UserRow, string]> = [
    [users.admin, DEMO_GROUPS.admins],
    [users.member, DEMO_GROUPS.tier1],
    [users.billing, DEMO_GROUPS.billing],
    [users.inactive, DEMO_GROUPS.tier1],
  ];
  await db
    .insertInto('group_members')
    .values(
      memberships.map(([user, group]) => ({
        group_id: groupId(group),
        user_id: user.id,
        added_at: new Date(),
      })),
    )
    .execute();
  const [admin, member, billing, inactive] = await Promise.all([
    createCredential(db, users.admin.id, 'test'),
    createCredential(db, users.member.id, 'test'),
    createCredential(db, users.billing.id, 'test'),
    createCredential(db, users.inactive.id, 'test'),
  ]);
  const credentials = { admin, member, billing, inactive } as Harness['credentials'];
  const ttl = config.tokenTtlSeconds;
  const tokens = {
    admin: await issueToken(db, admin.clientId, users.admin.id, ttl),
    member: await issueToken(db, member.clientId, users.member.id, ttl),
    billing: await issueToken(db, billing.clientId, users.billing.id, ttl),
  };

  const app = buildApp(deps);
  const request: Harness['request'] = async (method, target, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string') body = options.body;
      else {
        body = JSON.stringify(options.body);
        headers['Content-Type'] ??= 'application/json';
      }
    }
    const res = await app.request(target, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await res.text();
    const type = res.headers.get('Content-Type') ?? '';
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: type.includes('json') && text ? JSON.parse(text) : undefined,
    };
  };

  const close = async () => {
    await drop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  };
  return { app, deps, db, config, users, credentials, tokens, request, close };
}
