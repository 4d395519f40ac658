// Realistic record generation and fast bulk insertion, shared by the demo seed and the benchmarks
// (which load 100k..1M records with seedRecords).
import { sql } from 'kysely';

import type { Db } from '../db/client.ts';
import type { IndexFeatures } from '../db/definition-indexes.ts';
import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import type { Rng } from './prng.ts';
import { ensureDefinitionIndexes, planDefinitionIndexes } from '../db/definition-indexes.ts';
import { reserveHandleNumbers } from '../records/records.ts';
import {
  BROWSERS,
  COMPANY_PREFIXES,
  COMPANY_SUFFIXES,
  DESCRIPTION_BODIES,
  DESCRIPTION_CLOSERS,
  DESCRIPTION_OPENERS,
  ERROR_CODES,
  EU_COMPANY_PREFIXES,
  EU_COMPANY_SUFFIXES,
  PRODUCT_AREAS,
  REFUND_REASONS,
  TASK_TITLES,
  TICKET_TITLES,
  WEEKDAYS,
} from './seed-data.ts';

const DAY_MS = 86_400_000;

/** What generated records may refer to. Empty lists simply leave those fields unset. */
export type SeedContext = {
  /** The newest creation time; records spread over `spanDays` before it. */
  now: Date;
  spanDays: number;
  region: 'default' | 'eu';
  /** Active support users: assignees, creators and updaters. */
  agents: string[];
  /** Account managers for customers. */
  managers: string[];
  /** Approvers for refunds. */
  billing: string[];
  /** Engineers, for task assignees. */
  engineers: string[];
  /** Customer names that tickets and refunds mention. */
  customers: string[];
};

/** A record before insertion (no id yet). */
export type GeneratedRecord = {
  data: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  updatedBy: string;
};

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

function fill(template: string, rng: Rng): string {
  return template
    .replaceAll('{area}', rng.pick(PRODUCT_AREAS))
    .replaceAll('{code}', rng.pick(ERROR_CODES))
    .replaceAll('{count}', String(rng.int(2, 60)))
    .replaceAll('{browser}', rng.pick(BROWSERS))
    .replaceAll('{weekday}', rng.pick(WEEKDAYS));
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function ageDays(ctx: SeedContext, createdAt: Date): number {
  return (ctx.now.getTime() - createdAt.getTime()) / DAY_MS;
}

/** A later moment between `from` and now, never after now. */
function later(ctx: SeedContext, from: Date, rng: Rng, maxDays: number): Date {
  const room = Math.min(maxDays * DAY_MS, ctx.now.getTime() - from.getTime());
  return new Date(from.getTime() + Math.floor(rng.next() * Math.max(room, 0)));
}

/** Customers picked with a long tail: a few big accounts file most tickets. */
function pickCustomer(ctx: SeedContext, rng: Rng): string | undefined {
  if (ctx.customers.length === 0) return undefined;
  return ctx.customers[Math.floor(rng.next() ** 2 * ctx.customers.length)];
}

function ticket(ctx: SeedContext, rng: Rng, createdAt: Date): GeneratedRecord {
  const age = ageDays(ctx, createdAt);
  const status =
    age > 30
      ? rng.weighted({ Closed: 62, Resolved: 28, Open: 4, Pending: 3, 'On Hold': 3 })
      : age > 7
        ? rng.weighted({ Resolved: 30, Closed: 15, Open: 22, Pending: 15, 'On Hold': 6, New: 12 })
        : rng.weighted({ New: 38, Open: 32, Pending: 14, 'On Hold': 4, Resolved: 12 });
  const severity = rng.weighted({ Low: 34, Medium: 41, High: 20, Critical: 5 });
  const basePriority = { Critical: 1, High: 2, Medium: 3, Low: 4 }[severity];
  const category = rng.weighted({
    Technical: 30,
    Bug: 20,
    Account: 15,
    Billing: 15,
    'Feature Request': 12,
    Other: 8,
  });
  const data: Record<string, string> = {
    Title: capitalize(fill(rng.pick(TICKET_TITLES[category]), rng)),
    Description: [
      rng.pick(DESCRIPTION_OPENERS),
      ...rng.sample(DESCRIPTION_BODIES, rng.int(2, 3)).map((body) => fill(body, rng)),
      rng.pick(DESCRIPTION_CLOSERS),
    ].join('\n\n'),
    Status: status,
    Severity: severity,
    Priority: String(Math.min(5, Math.max(1, basePriority + (rng.chance(0.15) ? 1 : 0)))),
    Category: category,
    'Due Date': isoDate(
      new Date(
        createdAt.getTime() + { Critical: 1, High: 3, Medium: 7, Low: 14 }[severity] * DAY_MS,
      ),
    ),
    Billable: rng.chance(0.18) ? 'true' : 'false',
  };
  const assigned = status === 'New' ? rng.chance(0.35) : rng.chance(0.96);
  if (assigned && ctx.agents.length > 0) data.Assignee = rng.pick(ctx.agents);
  const customer = pickCustomer(ctx, rng);
  if (customer) data.Customer = customer;
  if (rng.chance(0.22)) {
    const tags = rng.sample(
      ['urgent', 'vip', 'regression', 'documentation', 'security', 'onboarding'],
      rng.int(1, 2),
    );
    if (severity === 'Critical' && !tags.includes('urgent')) tags.unshift('urgent');
    data.Tags = tags.join(', ');
  }
  let updatedAt = later(ctx, createdAt, rng, 20);
  if (status === 'Resolved' || status === 'Closed') {
    const resolvedAt = later(ctx, createdAt, rng, rng.chance(0.7) ? 3 : 25);
    data['Resolved At'] = resolvedAt.toISOString();
    updatedAt = status === 'Closed' ? later(ctx, resolvedAt, rng, 7) : resolvedAt;
  }
  const createdBy = ctx.agents.length > 0 ? rng.pick(ctx.agents) : 'system@demo';
  return { data, createdAt, updatedAt, createdBy, updatedBy: data.Assignee ?? createdBy };
}

function companySlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The customer name at an index: distinct for every index, spread over the region's word pools (a
 * fixed stride walks all prefix/suffix pairs before any repeats, which are then numbered).
 *
 * @example
 * customerNameAt('eu', 0); // e.g. 'Nordlicht GmbH'
 */
export function customerNameAt(region: 'default' | 'eu', index: number): string {
  const [prefixes, suffixes] =
    region === 'eu'
      ? [EU_COMPANY_PREFIXES, EU_COMPANY_SUFFIXES]
      : [COMPANY_PREFIXES, COMPANY_SUFFIXES];
  const total = prefixes.length * suffixes.length;
  // 7919 is prime and larger than either pool, so the walk visits every pair once per round.
  const slot = (index * 7919) % total;
  const name = `${prefixes[Math.floor(slot / suffixes.length)] ?? ''} ${suffixes[slot % suffixes.length] ?? ''}`;
  const round = Math.floor(index / total);
  return round === 0 ? name : `${name} ${round + 1}`;
}

function customer(ctx: SeedContext, rng: Rng, createdAt: Date, name: string): GeneratedRecord {
  const plan = rng.weighted({ Free: 25, Starter: 35, Business: 28, Enterprise: 12 });
  const tld =
    ctx.region === 'eu'
      ? rng.pick(['de', 'fr', 'eu', 'nl', 'it', 'es', 'se'])
      : rng.pick(['com', 'com', 'io', 'co']);
  const data: Record<string, string> = {
    Name: name,
    Domain: `${companySlug(name.replace(/ (Inc\.|Corp|GmbH|AG|S\.A\.|S\.r\.l\.|B\.V\.|AB|Oy|Ltd|SAS|ApS|sp\. z o\.o\.)$/, ''))}.${tld}`,
    Plan: plan,
    Region:
      ctx.region === 'eu'
        ? rng.weighted({ Europe: 85, 'North America': 8, 'Asia Pacific': 4, 'Latin America': 3 })
        : rng.weighted({ 'North America': 60, Europe: 20, 'Asia Pacific': 12, 'Latin America': 8 }),
    Seats: String(
      {
        Free: rng.int(1, 5),
        Starter: rng.int(5, 25),
        Business: rng.int(25, 200),
        Enterprise: rng.int(200, 5000),
      }[plan],
    ),
    'Customer Since': isoDate(new Date(createdAt.getTime() - rng.int(0, 900) * DAY_MS)),
  };
  if (ctx.managers.length > 0 && plan !== 'Free') data['Account Manager'] = rng.pick(ctx.managers);
  const by = ctx.managers.length > 0 ? rng.pick(ctx.managers) : 'system@demo';
  return {
    data,
    createdAt,
    updatedAt: later(ctx, createdAt, rng, 200),
    createdBy: by,
    updatedBy: by,
  };
}

function task(ctx: SeedContext, rng: Rng, createdAt: Date): GeneratedRecord {
  const age = ageDays(ctx, createdAt);
  const status =
    age > 21
      ? rng.weighted({ Done: 85, Blocked: 5, 'In Progress': 5, 'To Do': 5 })
      : rng.weighted({ 'To Do': 35, 'In Progress': 35, Blocked: 10, Done: 20 });
  const people = [...ctx.engineers, ...ctx.agents];
  const data: Record<string, string> = {
    Title: capitalize(fill(rng.pick(TASK_TITLES), rng)),
    Status: status,
    'Due Date': isoDate(new Date(createdAt.getTime() + rng.int(2, 21) * DAY_MS)),
    'Estimate Hours': String(rng.pick([1, 2, 3, 4, 6, 8, 12, 16, 24, 40])),
  };
  if (people.length > 0 && rng.chance(0.9)) data.Assignee = rng.pick(people);
  if (rng.chance(0.4)) data.Notes = fill(rng.pick(DESCRIPTION_BODIES), rng);
  const by = people.length > 0 ? rng.pick(people) : 'system@demo';
  return {
    data,
    createdAt,
    updatedAt: later(ctx, createdAt, rng, 30),
    createdBy: by,
    updatedBy: data.Assignee ?? by,
  };
}

function refund(ctx: SeedContext, rng: Rng, createdAt: Date): GeneratedRecord {
  const age = ageDays(ctx, createdAt);
  const status =
    age > 14
      ? rng.weighted({ Paid: 70, Rejected: 20, Approved: 10 })
      : rng.weighted({ Requested: 45, Approved: 25, Paid: 20, Rejected: 10 });
  const currency =
    ctx.region === 'eu'
      ? rng.weighted({ EUR: 70, GBP: 20, USD: 10 })
      : rng.weighted({ USD: 75, EUR: 15, GBP: 10 });
  const data: Record<string, string> = {
    Reason: rng.pick(REFUND_REASONS),
    Amount: (rng.int(1_000, 250_000) / 100).toFixed(2),
    Currency: currency,
    Status: status,
  };
  const customerName = pickCustomer(ctx, rng);
  if (customerName) data.Customer = customerName;
  let updatedAt = later(ctx, createdAt, rng, 10);
  if ((status === 'Approved' || status === 'Paid') && ctx.billing.length > 0)
    data['Approved By'] = rng.pick(ctx.billing);
  if (status === 'Paid') {
    const processed = later(ctx, createdAt, rng, 10);
    data['Processed At'] = processed.toISOString();
    updatedAt = processed;
  }
  const by =
    ctx.billing.length > 0
      ? rng.pick(ctx.billing)
      : rng.pick(ctx.agents.length > 0 ? ctx.agents : ['system@demo']);
  return { data, createdAt, updatedAt, createdBy: by, updatedBy: data['Approved By'] ?? by };
}

/** Any other definition (custom workspace files): plausible values by field type. */
function generic(
  definition: WorkspaceDefinition,
  ctx: SeedContext,
  rng: Rng,
  createdAt: Date,
  index: number,
): GeneratedRecord {
  const data: Record<string, string> = {};
  for (const field of definition.fields) {
    if (!field.required && rng.chance(0.3)) continue;
    switch (field.type) {
      case 'NUMBER':
        data[field.name] = String(rng.int(0, 1000));
        break;
      case 'DATE':
        data[field.name] = isoDate(new Date(createdAt.getTime() + rng.int(-30, 30) * DAY_MS));
        break;
      case 'DATETIME':
        data[field.name] = later(ctx, createdAt, rng, 30).toISOString();
        break;
      case 'PICKLIST':
        data[field.name] = rng.pick(field.values ?? ['']);
        break;
      case 'MULTI_PICKLIST':
        data[field.name] = rng.sample(field.values ?? [], rng.int(1, 2)).join(', ');
        break;
      case 'USER_ID':
        if (ctx.agents.length > 0) data[field.name] = rng.pick(ctx.agents);
        break;
      case 'BOOLEAN':
        data[field.name] = rng.chance(0.5) ? 'true' : 'false';
        break;
      default:
        data[field.name] = `${definition.name} ${index + 1}: ${fill(rng.pick(TASK_TITLES), rng)}`;
    }
    if (data[field.name] === '') delete data[field.name];
  }
  const by = ctx.agents.length > 0 ? rng.pick(ctx.agents) : 'system@demo';
  return {
    data,
    createdAt,
    updatedAt: later(ctx, createdAt, rng, 30),
    createdBy: by,
    updatedBy: by,
  };
}

/**
 * Generates records `from..from+count-1` of `total` for a definition. Creation times increase with
 * the index across `ctx.spanDays` (so handle order is creation order), with per-record jitter.
 *
 * @example
 * const rows = generateRecords(definition, ctx, rng, 0, 500, 500);
 */
export function generateRecords(
  definition: WorkspaceDefinition,
  ctx: SeedContext,
  rng: Rng,
  from: number,
  count: number,
  total: number,
  window: { startFraction: number; endFraction: number } = { startFraction: 0, endFraction: 1 },
): GeneratedRecord[] {
  const span = ctx.spanDays * DAY_MS;
  const start = ctx.now.getTime() - span + span * window.startFraction;
  const width = span * (window.endFraction - window.startFraction);
  const rows: GeneratedRecord[] = [];
  for (let i = 0; i < count; i += 1) {
    const index = from + i;
    const createdAt = new Date(
      Math.floor(start + (width * (index + rng.next())) / Math.max(total, 1)),
    );
    switch (definition.alias) {
      case 'support-tickets':
        rows.push(ticket(ctx, rng, createdAt));
        break;
      case 'customers':
        rows.push(customer(ctx, rng, createdAt, customerNameAt(ctx.region, index)));
        break;
      case 'tasks':
        rows.push(task(ctx, rng, createdAt));
        break;
      case 'refunds':
        rows.push(refund(ctx, rng, createdAt));
        break;
      default:
        rows.push(generic(definition, ctx, rng, createdAt, index));
    }
  }
  return rows;
}

/**
 * Inserts generated records with consecutive handles, `batchSize` rows per multi-row INSERT.
 * Runs on whatever `db` is given: pass a transaction to make it all-or-nothing.
 *
 * @example
 * const ids = await insertGeneratedRecords(trx, definition, rows); // ['SUP-1', 'SUP-2', ...]
 */
export async function insertGeneratedRecords(
  db: Db,
  definition: WorkspaceDefinition,
  rows: GeneratedRecord[],
  batchSize = 500,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const numbers = await reserveHandleNumbers(db, definition.handle, rows.length);
  const ids = numbers.map((n) => `${definition.handle}-${n}`);
  for (let start = 0; start < rows.length; start += batchSize) {
    await db
      .insertInto('records')
      .values(
        rows.slice(start, start + batchSize).map((row, offset) => ({
          id: ids[start + offset] ?? '',
          record_type: definition.recordType,
          alias: definition.alias,
          data: JSON.stringify(row.data),
          created_at: row.createdAt,
          created_by: row.createdBy,
          updated_at: row.updatedAt,
          updated_by: row.updatedBy,
        })),
      )
      .execute();
  }
  return ids;
}

/**
 * Runs a bulk load with the definitions' expression indexes dropped, then builds them again in one
 * pass (far cheaper than maintaining a dozen GIN/btree indexes row by row). Inside a transaction
 * the whole swap is atomic; outside one, an interrupted load leaves indexes missing until the next
 * start, which recreates them (syncWorkspace).
 *
 * @example
 * await withDeferredIndexes(trx, workspace.definitions, deps, () => insertGeneratedRecords(trx, definition, rows));
 */
export async function withDeferredIndexes<T>(
  db: Db,
  definitions: WorkspaceDefinition[],
  features: IndexFeatures,
  load: () => Promise<T>,
): Promise<T> {
  for (const definition of definitions) {
    for (const plan of planDefinitionIndexes(definition, features))
      await sql`drop index if exists ${sql.id(plan.name)}`.execute(db);
  }
  const result = await load();
  await ensureDefinitionIndexes(db, definitions, features);
  return result;
}

export type SeedRecordsOptions = {
  /**
   * Drop the definition's expression indexes during the load and rebuild them at the end (much
   * faster for 100k+ rows; searches are slow until the rebuild finishes). Needs the server's
   * extensions to rebuild the same indexes it uses (`deps.trgm`, `deps.btreeGin`).
   */
  deferIndexes?: IndexFeatures;
  /** Rows generated and inserted per round (memory stays bounded for 1M). Default 5,000. */
  chunkSize?: number;
  /** Rows per INSERT statement. Default 500 (~4,000 bound parameters). */
  batchSize?: number;
  onProgress?: (inserted: number, total: number) => void;
};

/**
 * Bulk-loads `count` realistic records into a definition: generated in chunks, inserted with
 * multi-row INSERTs, handles reserved once up front. Each chunk runs in its own transaction, so
 * memory and transaction size stay bounded at 1M records (a failure keeps earlier chunks). For the
 * benchmarks: about 20-40k records/s on PGlite, more on PostgreSQL.
 *
 * @example
 * const definition = deps.workspace.find('apps', 'support-tickets');
 * await seedRecords(deps.db, definition, 100_000, createRng(7), { now: new Date(), spanDays: 540,
 *   region: 'default', agents: ['agent@helpdesk.example'], managers: [], billing: [], engineers: [],
 *   customers: ['Acme Inc.'] });
 */
export async function seedRecords(
  db: Db,
  definition: WorkspaceDefinition,
  count: number,
  rng: Rng,
  ctx: SeedContext,
  options: SeedRecordsOptions = {},
): Promise<{ first: string; last: string; count: number }> {
  const chunkSize = options.chunkSize ?? 5_000;
  const numbers = await reserveHandleNumbers(db, definition.handle, count);
  const firstNumber = numbers[0] ?? 0;
  const load = () => loadChunks(db, definition, count, rng, ctx, options, chunkSize, firstNumber);
  if (options.deferIndexes) await withDeferredIndexes(db, [definition], options.deferIndexes, load);
  else await load();
  return {
    first: `${definition.handle}-${firstNumber}`,
    last: `${definition.handle}-${firstNumber + count - 1}`,
    count,
  };
}

async function loadChunks(
  db: Db,
  definition: WorkspaceDefinition,
  count: number,
  rng: Rng,
  ctx: SeedContext,
  options: SeedRecordsOptions,
  chunkSize: number,
  firstNumber: number,
): Promise<void> {
  for (let from = 0; from < count; from += chunkSize) {
    const size = Math.min(chunkSize, count - from);
    const rows = generateRecords(definition, ctx, rng, from, size, count);
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += options.batchSize ?? 500) {
        const batch = rows.slice(start, start + (options.batchSize ?? 500));
        await trx
          .insertInto('records')
          .values(
            batch.map((row, offset) => ({
              id: `${definition.handle}-${firstNumber + from + start + offset}`,
              record_type: definition.recordType,
              alias: definition.alias,
              data: JSON.stringify(row.data),
              created_at: row.createdAt,
              created_by: row.createdBy,
              updated_at: row.updatedAt,
              updated_by: row.updatedBy,
            })),
          )
          .execute();
      }
    });
    options.onProgress?.(from + size, count);
  }
}
