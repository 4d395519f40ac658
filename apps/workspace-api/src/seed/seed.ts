// The demo support desk, seeded on first start with an empty store: people in the demo groups,
// 5,000 records with comments, watchers (a group among them), relations and a few real
// attachments, and demo credentials for an admin and a support agent. Deterministic: the same seed
// gives the same data.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { sql } from 'kysely';

import type { Db } from '../db/client.ts';
import type { Role, UserStatus } from '../db/schema.ts';
import type { Config } from '../env.ts';
import type { AppDeps } from '../lib/types.ts';
import type { Workspace, WorkspaceDefinition } from '../workspace/definitions.ts';
import type { Rng } from './prng.ts';
import type { GeneratedRecord, SeedContext } from './seed-records.ts';
import { sweepBlobDir, writeBlob } from '../attachments/blobs.ts';
import { createCredential } from '../identity/credentials.ts';
import { DEMO_GROUPS } from '../workspace/demo-workspace.ts';
import { createRng } from './prng.ts';
import {
  COMMENT_TEXTS,
  EU_FIRST_NAMES,
  EU_LAST_NAMES,
  FIRST_NAMES,
  JOB_TITLES,
  LAST_NAMES,
} from './seed-data.ts';
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

/** How many records (the newest critical tickets) a support group watches. */
const GROUP_WATCHED_RECORDS = 6;

/** Demo people per group (the admin and the agent come on top). */
const GROUP_SIZES: Array<[keyof typeof DEMO_GROUPS, number]> = [
  ['admins', 2],
  ['tier1', 19],
  ['tier2', 10],
  ['billing', 6],
  ['engineering', 11],
  ['success', 10],
];

/**
 * The demo email domain of a region.
 *
 * @example
 * demoDomain('eu'); // 'eu.helpdesk.example'
 */
export function demoDomain(region: 'default' | 'eu'): string {
  return region === 'eu' ? 'eu.helpdesk.example' : 'helpdesk.example';
}

function uuidFrom(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rng.next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const emailPart = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

type DemoUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  job_title: string;
  status: UserStatus;
  role: Role;
  groups: Array<keyof typeof DEMO_GROUPS>;
};

function demoUsers(rng: Rng, region: 'default' | 'eu'): DemoUser[] {
  const domain = demoDomain(region);
  const firsts = region === 'eu' ? EU_FIRST_NAMES : FIRST_NAMES;
  const lasts = region === 'eu' ? EU_LAST_NAMES : LAST_NAMES;
  const users: DemoUser[] = [
    {
      id: uuidFrom(rng),
      email: `admin@${domain}`,
      first_name: 'Alex',
      last_name: 'Morgan',
      job_title: 'Head of Support',
      status: 'ACTIVE',
      role: 'ADMIN',
      groups: ['admins'],
    },
    {
      id: uuidFrom(rng),
      email: `agent@${domain}`,
      first_name: 'Sam',
      last_name: 'Rivera',
      job_title: 'Support Agent',
      status: 'ACTIVE',
      role: 'MEMBER',
      groups: ['tier1'],
    },
  ];
  const taken = new Set<string>();
  for (const [group, size] of GROUP_SIZES) {
    for (let i = 0; i < size; i += 1) {
      let first = rng.pick(firsts);
      let last = rng.pick(lasts);
      while (taken.has(`${first} ${last}`)) {
        first = rng.pick(firsts);
        last = rng.pick(lasts);
      }
      taken.add(`${first} ${last}`);
      const groups: DemoUser['groups'] = [group];
      // Some overlap, as in real teams: senior agents also sit with engineering, managers with billing.
      if (group === 'tier2' && rng.chance(0.3)) groups.push('engineering');
      if (group === 'success' && rng.chance(0.2)) groups.push('billing');
      users.push({
        id: uuidFrom(rng),
        email: `${emailPart(first)}.${emailPart(last)}@${domain}`,
        first_name: first,
        last_name: last,
        job_title: rng.pick(JOB_TITLES[group]),
        // A few people have left: their accounts stay, inactive.
        status: group !== 'admins' && rng.chance(0.07) ? 'INACTIVE' : 'ACTIVE',
        role: group === 'admins' && i === 0 ? 'ADMIN' : 'MEMBER',
        groups,
      });
    }
  }
  return users;
}

/** A small valid PNG (a colour gradient), as a screenshot stand-in. */
function demoPng(seed: number): Buffer {
  const size = 32;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const at = y * (size * 3 + 1) + 1 + x * 3;
      raw[at] = (x * 8 + seed * 40) % 256;
      raw[at + 1] = (y * 8) % 256;
      raw[at + 2] = 180;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function demoFile(
  rng: Rng,
  ticketId: string,
  at: Date,
  index: number,
): { name: string; mediaType: string; bytes: Buffer; description: string | null } {
  const kind = rng.pick(['log', 'csv', 'png'] as const);
  if (kind === 'png')
    return {
      name: `screenshot-${index + 1}.png`,
      mediaType: 'image/png',
      bytes: demoPng(index),
      description: 'Screenshot of the error',
    };
  if (kind === 'csv') {
    const lines = ['date,user,action,status'];
    for (let i = 0; i < rng.int(5, 30); i += 1) {
      lines.push(
        `${new Date(at.getTime() - i * 3_600_000).toISOString()},user${rng.int(1, 40)},${rng.pick(['login', 'export', 'sync', 'upload'])},${rng.pick(['ok', 'ok', 'ok', 'error'])}`,
      );
    }
    return {
      name: `export-${ticketId.toLowerCase()}.csv`,
      mediaType: 'text/csv',
      bytes: Buffer.from(`${lines.join('\n')}\n`),
      description: 'Export showing the failed rows',
    };
  }
  const lines: string[] = [];
  for (let i = 0; i < rng.int(10, 40); i += 1) {
    const level = rng.pick(['INFO', 'INFO', 'WARN', 'ERROR']);
    lines.push(
      `${new Date(at.getTime() - i * 61_000).toISOString()} ${level} request_id=${uuidFrom(rng).slice(0, 8)} ${level === 'ERROR' ? 'upstream timed out after 30000 ms' : 'handled in ' + String(rng.int(5, 900)) + ' ms'}`,
    );
  }
  return {
    name: `${ticketId.toLowerCase()}-app.log`,
    mediaType: 'text/plain',
    bytes: Buffer.from(`${lines.reverse().join('\n')}\n`),
    description: null,
  };
}

async function insertInBatches<T>(
  items: T[],
  size: number,
  insert: (batch: T[]) => Promise<unknown>,
): Promise<void> {
  for (let start = 0; start < items.length; start += size)
    await insert(items.slice(start, start + size));
}

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
    return withDeferredIndexes(trx, deps.workspace.definitions, deps.trgm, () =>
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
  const idByEmail = new Map(users.map((user) => [user.email, user.id]));
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
  const made: Record<string, Array<{ id: string; row: GeneratedRecord }>> = {};
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

  // ---- relations (both directions) ------------------------------------------------------------
  const customerId = new Map(customers.map((item) => [item.row.data.Name ?? '', item.id]));
  const pairs: Array<[string, string, Date, string]> = [];
  for (const ticket of tickets) {
    const customer = customerId.get(ticket.row.data.Customer ?? '');
    if (customer && rng.chance(0.7))
      pairs.push([ticket.id, customer, ticket.row.createdAt, ticket.row.createdBy]);
  }
  tasks.forEach((task, index) => {
    if (tickets.length === 0 || !rng.chance(0.75)) return;
    // A task is opened for a ticket of about the same time.
    const near = Math.min(
      tickets.length - 1,
      Math.floor((index / Math.max(tasks.length, 1)) * tickets.length) + rng.int(-3, 0),
    );
    const ticket = tickets[Math.max(0, near)];
    if (ticket) pairs.push([ticket.id, task.id, task.row.createdAt, task.row.createdBy]);
  });
  for (const refund of refunds) {
    const customer = customerId.get(refund.row.data.Customer ?? '');
    if (customer) pairs.push([refund.id, customer, refund.row.createdAt, refund.row.createdBy]);
  }
  const relationRows = pairs.flatMap(([a, b, at, by]) => [
    { record_id: a, related_id: b, created_at: at, created_by: by },
    { record_id: b, related_id: a, created_at: at, created_by: by },
  ]);
  await insertInBatches(relationRows, 1000, (batch) =>
    trx
      .insertInto('record_relations')
      .values(batch)
      .onConflict((oc) => oc.columns(['record_id', 'related_id']).doNothing())
      .execute(),
  );

  // ---- comments and watchers ------------------------------------------------------------------
  const commentRows: Array<{
    id: string;
    record_id: string;
    contents: string;
    source: string;
    created_at: Date;
    created_by: string;
  }> = [];
  const watcherRows: Array<{ id: string; record_id: string; user_id: string; created_at: Date }> =
    [];
  const activeIds = active.map((user) => user.id);
  for (const ticket of tickets) {
    if (rng.chance(0.45)) {
      let at = ticket.row.createdAt;
      const end = Math.max(ticket.row.updatedAt.getTime(), at.getTime() + 60_000);
      for (let i = 0, n = rng.int(1, 4); i < n; i += 1) {
        at = new Date(at.getTime() + Math.floor(rng.next() * ((end - at.getTime()) / (n - i))));
        const author = idByEmail.get(
          i === 0 ? ticket.row.createdBy : (ticket.row.data.Assignee ?? ticket.row.createdBy),
        );
        commentRows.push({
          id: uuidFrom(rng),
          record_id: ticket.id,
          contents: rng.pick(COMMENT_TEXTS),
          source: rng.chance(0.8) ? 'API' : 'EMAIL',
          created_at: at,
          created_by: author ?? rng.pick(activeIds),
        });
      }
    }
    if (rng.chance(0.3) && activeIds.length > 0) {
      for (const userId of rng.sample(activeIds, rng.int(1, 3))) {
        watcherRows.push({
          id: uuidFrom(rng),
          record_id: ticket.id,
          user_id: userId,
          created_at: ticket.row.createdAt,
        });
      }
    }
  }
  await insertInBatches(commentRows, 1000, (batch) =>
    trx.insertInto('comments').values(batch).execute(),
  );
  await insertInBatches(watcherRows, 1000, (batch) =>
    trx.insertInto('watchers').values(batch).execute(),
  );

  // ---- a few real attachments on recent tickets -------------------------------------------------
  const recent = tickets
    .slice(-200)
    .filter((ticket) => ['Technical', 'Bug'].includes(ticket.row.data.Category ?? ''));
  const attachmentRows = [];
  for (const [index, ticket] of rng.sample(recent, 24).entries()) {
    const file = demoFile(rng, ticket.id, ticket.row.createdAt, index);
    const id = uuidFrom(rng);
    await writeBlob(config.blobDir, id, file.bytes);
    attachmentRows.push({
      id,
      record_id: ticket.id,
      name: file.name,
      description: file.description,
      media_type: file.mediaType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      blob_key: id,
      url: null,
      state: 'VALID' as const,
      view_state: 'PRIVATE' as const,
      created_at: new Date(ticket.row.createdAt.getTime() + 60_000),
      created_by: ticket.row.createdBy,
    });
  }
  const links = rng.sample(tickets.slice(-400), 12).map((ticket) => {
    const url = `https://status.${demoDomain(region)}/incidents/${rng.int(100, 999)}`;
    return {
      id: uuidFrom(rng),
      record_id: ticket.id,
      name: url,
      description: 'Status page incident',
      media_type: 'text/uri-list',
      size: 0,
      sha256: null,
      blob_key: null,
      url,
      state: 'VALID' as const,
      view_state: 'PRIVATE' as const,
      created_at: new Date(ticket.row.createdAt.getTime() + 120_000),
      created_by: ticket.row.createdBy,
    };
  });
  const allAttachments = [...attachmentRows, ...links].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime(),
  );
  if (allAttachments.length > 0)
    await trx.insertInto('attachments').values(allAttachments).execute();

  // ---- a group among some records' watchers ----------------------------------------------------
  // The published contract lists Group watcher targets; clients must show them. Made after
  // everything else the rng feeds, so the rest of the demo stays as it was.
  const watchingGroup =
    workspace.groups.find((group) => group.name === DEMO_GROUPS.tier2) ??
    workspace.groups.find((group) => group.watchable);
  const watchingGroupId = watchingGroup ? groupId.get(watchingGroup.name) : undefined;
  // The newest critical tickets; in a custom workspace without tickets, the newest records.
  const groupWatched = (
    tickets.length > 0
      ? tickets.filter((ticket) => ticket.row.data.Severity === 'Critical')
      : Object.values(made).flat()
  ).slice(-GROUP_WATCHED_RECORDS);
  const groupWatcherRows = watchingGroupId
    ? groupWatched.map((item) => ({
        id: uuidFrom(rng),
        record_id: item.id,
        group_id: watchingGroupId,
        created_at: item.row.createdAt,
      }))
    : [];
  if (groupWatcherRows.length > 0)
    await trx.insertInto('watchers').values(groupWatcherRows).execute();

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
      relations: relationRows.length / 2,
      comments: commentRows.length,
      watchers: watcherRows.length + groupWatcherRows.length,
      attachments: allAttachments.length,
    },
  };
}

/**
 * Whether start-up may seed the demo into an empty store: `SEED_DEMO=1` always, `SEED_DEMO=0`
 * never, unset only for the embedded store. A `DATABASE_URL` store is a real deployment's: an
 * empty one must not receive demo people and an ADMIN credential nobody asked for.
 *
 * @example
 * demoSeedWanted(parseEnv({ DATABASE_URL: 'postgres://db/prod' })); // false
 */
export function demoSeedWanted(config: Pick<Config, 'seedDemo' | 'databaseUrl'>): boolean {
  return config.seedDemo ?? config.databaseUrl === undefined;
}

/** Where start-up writes what it tells the operator; only a terminal is shown secrets. */
export type Console = { isTTY?: boolean; write: (text: string) => unknown };

export type PrepareOptions = {
  /** Seed the demo into an empty store; default demoSeedWanted(config). */
  seed?: boolean;
  /** Default process.stdout. */
  out?: Console;
  /** Passed to seedIfEmpty (tests seed a smaller demo). */
  seedOptions?: SeedOptions;
};

/**
 * Start-up store preparation, the one call in index.ts: recovers the blob folder (see
 * sweepBlobDir) and, when wanted (demoSeedWanted), seeds the demo into an empty store. The demo
 * secrets go to demo-credentials.json (mode 0600) and are printed only when stdout is a terminal:
 * captured output (a service's log, a CI job) gets the file's path instead.
 *
 * @example
 * const { deps } = await initDeps(config);
 * await prepareStore(deps);
 */
export async function prepareStore(
  deps: AppDeps,
  options: PrepareOptions = {},
): Promise<SeedResult> {
  await sweepBlobDir(deps.db, deps.config.blobDir, deps.logger);
  if (!(options.seed ?? demoSeedWanted(deps.config))) {
    const users = await deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(users.n) === 0) {
      deps.logger.info('empty store: demo data not seeded', {
        hint: 'create the first ADMIN with the CLI (create-user, create-credentials), or set SEED_DEMO=1',
      });
    }
    return { seeded: false };
  }
  const result = await seedIfEmpty(deps, options.seedOptions);
  if (result.seeded) {
    deps.logger.info('demo data seeded', {
      region: deps.config.region,
      durationMs: result.ms,
      ...result.counts,
    });
    if (deps.config.logLevel !== 'silent') {
      const out = options.out ?? process.stdout;
      const file = path.join(deps.config.dataDir, 'demo-credentials.json');
      const lines = out.isTTY
        ? [
            '',
            `  DEMO credentials (${deps.config.region} region; demo data only, do not use in production):`,
            ...Object.entries(result.credentials).map(
              ([who, c]) =>
                `    ${who.padEnd(6)} ${c.email.padEnd(30)} client ID ${c.clientId}  secret ${c.clientSecret}`,
            ),
            `  Saved to ${file} (mode 0600).`,
            '',
          ]
        : [
            `DEMO credentials (${deps.config.region} region) written to ${file} (mode 0600); secrets are printed only to a terminal.`,
          ];
      out.write(`${lines.join('\n')}\n`);
    }
  }
  return result;
}
