// The demo support desk, seeded on first start with an empty store: people in the demo groups,
// 5,000 records with comments, watchers (a group among them), relations and a few real
// attachments, and demo credentials for an admin and a support agent. Deterministic: the same seed
// gives the same data.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';

import type { Db } from '../db/client.ts';
import type { AppDeps } from '../lib/types.ts';
import type { Workspace, WorkspaceDefinition } from '../workspace/definitions.ts';
import type { Rng } from './prng.ts';
import type { SeededRecords } from './seed-activity.ts';
import type { SeedContext } from './seed-records.ts';
import { createCredential } from '../identity/credentials.ts';
import { DEMO_GROUPS } from '../workspace/demo-workspace.ts';
import { demoUsers } from './demo-people.ts';
import { createRng } from './prng.ts';
import {
  seedAttachments,
  seedCommentsAndWatchers,
  seedGroupWatchers,
  seedRelations,
} from './seed-activity.ts';
import { generateRecords, insertGeneratedRecords, withDeferredIndexes } from './seed-records.ts';

const DAY_MS = 86_400_000;

/** How much demo data to make; the defaults are the product's demo. */
export type SeedOptions = {
  seed?: number;
  /** Newest record time; default: now (rounded down to the minute). */
  now?: Date;
  spanDays?: number;
  counts?: { customers: number; tickets: number; tasks: number; refunds: number };
  /** Where demo-credentials.json is written; default `config.dataDir`. Null: not written. */
  credentialsDir?: string | null;
};

export type DemoCredentials = Record<
  'admin' | 'agent',
  { email: string; clientId: string; clientSecret: string }
>;

export type SeedResult =
  | { seeded: false }
  | { seeded: true; credentials: DemoCredentials; counts: Record<string, number>; ms: number };

export const DEFAULT_COUNTS = { customers: 300, tickets: 4_000, tasks: 500, refunds: 200 };

function definitionFor(
  workspace: Workspace,
  recordType: string,
  alias: string,
): WorkspaceDefinition | undefined {
  return workspace.find(recordType, alias);
}

/**
 * Seeds the demo on an empty store (no users and no records) and writes demo credentials to
 * `$DATA_DIR/demo-credentials.json` (mode 0600). Does nothing on a store that has data. All rows go
 * in one transaction under an advisory lock, so a crash or a concurrent start never half-seeds.
 *
 * @example
 * const result = await seedIfEmpty(deps);
 * if (result.seeded) console.log(result.credentials.admin.clientId);
 */
export async function seedIfEmpty(deps: AppDeps, options: SeedOptions = {}): Promise<SeedResult> {
  const started = performance.now();
  const { db, config } = deps;
  const region = config.region;
  const rng = createRng(options.seed ?? (region === 'eu' ? 2_024_10 : 2_024_01));
  const now = options.now ?? new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const spanDays = options.spanDays ?? 540;
  const counts = options.counts ?? DEFAULT_COUNTS;

  const outcome = await db.transaction().execute(async (trx) => {
    // Serializes concurrent first starts on one PostgreSQL; the loser sees a non-empty store.
    await sql`select pg_advisory_xact_lock(727274)`.execute(trx);
    const existing = await sql<{ users: number; records: number }>`
      select (select count(*) from users)::int as users, (select count(*) from records)::int as records`.execute(
      trx,
    );
    const row = existing.rows[0];
    if (!row || row.users > 0 || row.records > 0) return undefined;
    // An empty store: build the expression indexes once after loading, not row by row.
    return withDeferredIndexes(trx, deps.workspace.definitions, deps, () =>
      seedStore(trx, deps, rng, now, spanDays, counts),
    );
  });
  if (!outcome) return { seeded: false };

  const credentialsDir =
    options.credentialsDir === undefined ? config.dataDir : options.credentialsDir;
  if (credentialsDir !== null) await writeDemoCredentials(credentialsDir, outcome.credentials);
  return {
    seeded: true,
    credentials: outcome.credentials,
    counts: outcome.counts,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Writes demo-credentials.json readable by the owner only.
 *
 * @example
 * await writeDemoCredentials(config.dataDir, result.credentials);
 */
export async function writeDemoCredentials(
  dir: string,
  credentials: DemoCredentials,
): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'demo-credentials.json');
  await fs.writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600); // an existing file keeps its mode on write
  return file;
}

async function seedStore(
  trx: Db,
  deps: AppDeps,
  rng: Rng,
  now: Date,
  spanDays: number,
  counts: NonNullable<SeedOptions['counts']>,
): Promise<{ credentials: DemoCredentials; counts: Record<string, number> }> {
  const { workspace, config } = deps;
  const region = config.region;

  // ---- people -------------------------------------------------------------------------------
  const users = demoUsers(rng, region);
  const joined = new Date(now.getTime() - (spanDays + 60) * DAY_MS);
  await trx
    .insertInto('users')
    .values(
      users.map(({ groups: _groups, ...user }) => ({
        ...user,
        email_lower: user.email.toLowerCase(),
        created_at: joined,
      })),
    )
    .execute();
  const groupRows = await trx.selectFrom('groups').select(['id', 'name']).execute();
  const groupId = new Map(groupRows.map((group) => [group.name, group.id]));
  const memberships = users.flatMap((user) =>
    user.groups.flatMap((group) => {
      const id = groupId.get(DEMO_GROUPS[group]);
      return id ? [{ group_id: id, user_id: user.id, added_at: joined }] : [];
    }),
  );
  if (memberships.length > 0) await trx.insertInto('group_members').values(memberships).execute();

  const active = users.filter((user) => user.status === 'ACTIVE');
  const inGroup = (group: keyof typeof DEMO_GROUPS) =>
    active.filter((user) => user.groups.includes(group)).map((user) => user.email);
  const ctx: SeedContext = {
    now,
    spanDays,
    region,
    agents: [...inGroup('tier1'), ...inGroup('tier2')],
    managers: inGroup('success'),
    billing: inGroup('billing'),
    engineers: inGroup('engineering'),
    customers: [],
  };

  // ---- records ------------------------------------------------------------------------------
  const made: Record<string, SeededRecords> = {};
  const load = async (
    recordType: string,
    alias: string,
    count: number,
    window?: { startFraction: number; endFraction: number },
  ) => {
    const definition = definitionFor(workspace, recordType, alias);
    if (!definition || count === 0) return [];
    const rows = generateRecords(definition, ctx, rng, 0, count, count, window);
    const ids = await insertGeneratedRecords(trx, definition, rows);
    made[alias] = rows.map((row, index) => ({ id: ids[index] ?? '', row }));
    return made[alias];
  };
  // Customers signed up in the first months; tickets and refunds then name them.
  const customers = await load('elements', 'customers', counts.customers, {
    startFraction: 0,
    endFraction: 0.25,
  });
  ctx.customers = customers.map((item) => item.row.data.Name ?? '').filter((name) => name !== '');
  const tickets = await load('apps', 'support-tickets', counts.tickets);
  const tasks = await load('tasks', 'tasks', counts.tasks);
  const refunds = await load('transactions', 'refunds', counts.refunds);
  // Other definitions of a custom workspace get a few generic records.
  for (const definition of workspace.definitions) {
    if (!made[definition.alias]) await load(definition.recordType, definition.alias, 50);
  }

  // ---- what happens around them --------------------------------------------------------------
  const relations = await seedRelations(trx, rng, { customers, tickets, tasks, refunds });
  const activity = await seedCommentsAndWatchers(trx, rng, tickets, users);
  const attachments = await seedAttachments(trx, rng, tickets, config.blobDir, region);
  const groupWatched = await seedGroupWatchers(trx, rng, workspace, groupId, tickets, made);

  // ---- demo credentials -----------------------------------------------------------------------
  const [admin, agent] = users;
  if (!admin || !agent) throw new Error('demo users missing');
  const adminCredential = await createCredential(trx, admin.id, 'demo');
  const agentCredential = await createCredential(trx, agent.id, 'demo');
  await trx
    .insertInto('settings')
    .values({ key: 'demo_seeded_at', value: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();

  return {
    credentials: {
      admin: { email: admin.email, ...adminCredential },
      agent: { email: agent.email, ...agentCredential },
    },
    counts: {
      users: users.length,
      records: Object.values(made).reduce((sum, list) => sum + list.length, 0),
      relations,
      comments: activity.comments,
      watchers: activity.watchers + groupWatched,
      attachments,
    },
  };
}
