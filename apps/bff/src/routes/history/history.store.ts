// The record history's table: append-only. Rows are inserted after the upstream accepted a write
// and never updated; they are deleted by the retention sweep of rows older than the configured
// age (BFF_HISTORY_RETENTION_DAYS) and by an administrator's erase (history.erase.ts). Each
// person's rows per UTC day are bounded by a budget (history.budget.ts). Every query is scoped to
// one region. ADR 0024, ADR 0026.
import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';

import type { RecordType } from '@wsc/api-client';
import type { HistoryActor, HistoryEntry, HistoryKind } from '@wsc/api-client/bff-history';
import { ShownIdentitySchema } from '@wsc/api-client/bff-events';
import { NOT_KEPT_FIELD } from '@wsc/api-client/bff-history';

import type { BffDatabase, RecordHistoryTable } from '../../db/schema.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import type { BudgetOutcome, HistoryBudget } from './history.budget.ts';
import { inDefinitions } from '../../db/in-definitions.ts';
import { entryBytes, spendBudget, sweepBudget, utcDay } from './history.budget.ts';

/**
 * A kept value's JSON text at most; a longer one is cut and marked (see {@link boundedValue}).
 * 500 (2,000 before issue 26): the history says what changed, the record holds the text; a long
 * description edited often is what made the history grow fastest.
 */
export const MAX_HISTORY_VALUE_CHARS = 500;
/** Rows one change writes at most (a create or update of more fields keeps the first ones). */
export const MAX_HISTORY_FIELDS_PER_CHANGE = 200;
/** The marker a cut value ends with. */
export const TRUNCATED_MARKER = '… [truncated]';

export type HistoryRow = Selectable<RecordHistoryTable>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text jsonb accepts: NUL and unpaired surrogates become U+FFFD. */
const storable = (text: string) =>
  text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');

/**
 * A value as the history keeps it: text PostgreSQL's jsonb can hold (no NUL, no lone surrogate),
 * at most MAX_HISTORY_VALUE_CHARS of it; anything that is not text, a number, a boolean or null is
 * kept as its JSON text. `undefined` (no value) is null.
 *
 * @example
 * boundedValue('x'.repeat(5000)); // 'xxx…' (500 chars) + '… [truncated]'
 */
export function boundedValue(value: unknown): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  const text = storable(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  if (text.length <= MAX_HISTORY_VALUE_CHARS) return text;
  // Cut on a code point boundary: a pair's first half left alone would not be storable.
  const cut = text.slice(0, MAX_HISTORY_VALUE_CHARS);
  const whole = /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
  return `${whole}${TRUNCATED_MARKER}`;
}

/**
 * A row as the API answers it.
 *
 * @example
 * c.json({ items: rows.map(toEntry), next });
 */
export function toEntry(row: HistoryRow): HistoryEntry {
  return {
    id: String(row.id),
    changeId: row.change_id,
    at: new Date(Number(row.at)).toISOString(),
    actor: { id: row.actor_id, name: row.actor_name },
    identity: ShownIdentitySchema.parse(row.identity),
    // Rows are only written by the proxy's capture, which checks the record type.
    recordType: row.record_type as RecordType,
    alias: row.alias,
    recordId: row.record_id,
    kind: row.kind as HistoryKind,
    field: row.field,
    // jsonb comes back parsed from both drivers (PGlite, node-postgres): a string here is a text
    // value ("42", "null"), never JSON to parse again.
    before: row.before ?? null,
    after: row.after ?? null,
    source: row.source,
    ...(row.not_kept ? { notKept: true as const } : {}),
  };
}

/** The administrators' filters (all optional); `user` an actor id; times in epoch ms, `to` exclusive. */
export type HistoryFilter = {
  user?: string | undefined;
  recordType?: string | undefined;
  alias?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** Only these definitions (a hosted administrator's visible ones); none given: all. */
  definitions?: readonly { recordType: string; alias: string }[] | undefined;
};

type NewEntry = Insertable<RecordHistoryTable> & { field: string; before: string; after: string };

/** A change's rows as kept: one per field, values bounded (MAX_HISTORY_VALUE_CHARS). */
function entryRows(change: RecordChange, changeId: string): NewEntry[] {
  return change.fields.slice(0, MAX_HISTORY_FIELDS_PER_CHANGE).map((f) => ({
    change_id: changeId,
    region: change.region,
    at: change.at,
    actor_id: change.actor.id,
    actor_name: change.actor.name,
    identity: change.actor.identity,
    record_type: change.recordType,
    alias: change.alias,
    record_id: change.recordId,
    kind: change.kind,
    field: String(boundedValue(f.field)),
    before: JSON.stringify(boundedValue(f.before)),
    after: JSON.stringify(boundedValue(f.after)),
    source: change.source,
  }));
}

/** The one entry kept for a change past its author's budget: who, when, where; no values. */
function notKeptRow(first: NewEntry): NewEntry {
  return { ...first, field: NOT_KEPT_FIELD, before: 'null', after: 'null', not_kept: true };
}

/** Sweep at most this often per process: a write does not pay for a delete every time. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The table's queries.
 *
 * @example
 * const history = historyStore(store.db, { retentionMs: config.historyRetentionMs });
 * await history.append(change);
 */
export function historyStore(
  db: Kysely<BffDatabase>,
  options: { retentionMs: number; budget?: HistoryBudget | undefined },
) {
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    /**
     * Writes one change: a row per field (at most MAX_HISTORY_FIELDS_PER_CHANGE), all in one
     * insert, when its author's daily budget has room; else one "not kept" entry, or nothing
     * once those are used up too (history.budget.ts). Says what it wrote.
     */
    async append(
      change: RecordChange,
      changeId: string,
    ): Promise<{ written: number; outcome: BudgetOutcome }> {
      const rows = entryRows(change, changeId);
      const first = rows[0];
      if (!first) return { written: 0, outcome: 'kept' };
      const outcome = await db.transaction().execute(async (trx) => {
        const spent = options.budget
          ? await spendBudget(trx, options.budget, {
              actorId: change.actor.id,
              day: utcDay(change.at),
              rows: rows.length,
              bytes: rows.reduce((sum, row) => sum + entryBytes(row), 0),
            })
          : 'kept';
        const written = spent === 'kept' ? rows : spent === 'marker' ? [notKeptRow(first)] : [];
        if (written.length > 0) await trx.insertInto('record_history').values(written).execute();
        return spent;
      });
      if (change.at - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = change.at;
        await this.sweep(change.at);
      }
      return { written: outcome === 'kept' ? rows.length : outcome === 'marker' ? 1 : 0, outcome };
    },

    /**
     * Deletes the entries older than the retention (every region), and the budget's usage of
     * past days. The administrators' erase (history.erase.ts) is the only other delete.
     */
    async sweep(now: number): Promise<number> {
      const result = await db
        .deleteFrom('record_history')
        .where('at', '<', now - options.retentionMs)
        .executeTakeFirst();
      await sweepBudget(db, utcDay(now));
      return Number(result.numDeletedRows);
    },

    /** One record's entries, newest first, after the cursor (an entry id). */
    forRecord(
      region: string,
      record: { recordType: string; alias: string; recordId: string },
      page: { after?: string | undefined; first: number },
    ): Promise<HistoryRow[]> {
      let query = db
        .selectFrom('record_history')
        .selectAll()
        .where('region', '=', region)
        .where('record_type', '=', record.recordType)
        .where('alias', '=', record.alias)
        .where('record_id', '=', record.recordId);
      if (page.after) query = query.where('id', '<', sql<string>`${page.after}::bigint`);
      return query.orderBy('id', 'desc').limit(page.first).execute();
    },

    /** The region's entries matching the filter, newest first, after the cursor. */
    search(
      region: string,
      filter: HistoryFilter,
      page: { after?: string | undefined; first: number },
    ): Promise<HistoryRow[]> {
      return this.searchQuery(region, filter, page).execute();
    },

    /**
     * The people the region's history names (at most `limit`), each with the name and identity
     * of their newest entry. A skip scan of the actor index: one index probe per person, never a
     * pass over the entries.
     */
    async actors(region: string, limit: number): Promise<HistoryActor[]> {
      const { rows } = await sql<{ actor_id: string; actor_name: string; identity: string }>`
        with recursive ids as (
          (select actor_id from record_history where region = ${region} order by actor_id limit 1)
          union all
          select (select h.actor_id from record_history h
                   where h.region = ${region} and h.actor_id > ids.actor_id
                   order by h.actor_id limit 1)
          from ids where ids.actor_id is not null
        )
        select ids.actor_id, latest.actor_name, latest.identity
        from ids cross join lateral (
          select actor_name, identity from record_history h
          where h.region = ${region} and h.actor_id = ids.actor_id
          order by h.id desc limit 1
        ) latest
        where ids.actor_id is not null
        limit ${limit}`.execute(db);
      return rows.map((row) => ({
        id: row.actor_id,
        name: row.actor_name,
        identity: ShownIdentitySchema.parse(row.identity),
      }));
    },

    /** The query {@link search} runs (the index test EXPLAINs it). */
    searchQuery(
      region: string,
      filter: HistoryFilter,
      page: { after?: string | undefined; first: number },
    ) {
      let query = db.selectFrom('record_history').selectAll().where('region', '=', region);
      // The stable id only: a name can be imitated by anyone who types an email at sign-in (and
      // the id has an index, record_history_actor).
      if (filter.user !== undefined) query = query.where('actor_id', '=', filter.user);
      if (filter.recordType !== undefined)
        query = query.where('record_type', '=', filter.recordType);
      if (filter.alias !== undefined) query = query.where('alias', '=', filter.alias);
      if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('at', '<', filter.to);
      const definitions = filter.definitions;
      if (definitions !== undefined) {
        query = query.where(inDefinitions(definitions));
      }
      if (page.after) query = query.where('id', '<', sql<string>`${page.after}::bigint`);
      return query.orderBy('id', 'desc').limit(page.first);
    },
  };
}

export type HistoryStore = ReturnType<typeof historyStore>;
