// The record history's table: append-only. Rows are inserted after the upstream accepted a write
// and never updated; the only delete is the retention sweep of rows older than the configured
// age (BFF_HISTORY_RETENTION_DAYS). Every query is scoped to one region. ADR 0024.
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';

import type { RecordType } from '@wsc/api-client';
import type { HistoryEntry, HistoryKind } from '@wsc/api-client/bff-history';

import type { BffDatabase, RecordHistoryTable } from '../../db/schema.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { inDefinitions } from '../../db/in-definitions.ts';

/** A kept value's JSON text at most; a longer one is cut and marked (see {@link boundedValue}). */
export const MAX_HISTORY_VALUE_CHARS = 2_000;
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
 * boundedValue('x'.repeat(5000)); // 'xxx…' (2,000 chars) + '… [truncated]'
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

const jsonOf = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

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
    // Rows are only written by the proxy's capture, which checks the record type.
    recordType: row.record_type as RecordType,
    alias: row.alias,
    recordId: row.record_id,
    kind: row.kind as HistoryKind,
    field: row.field,
    before: jsonOf(row.before) ?? null,
    after: jsonOf(row.after) ?? null,
    source: row.source,
  };
}

/** The administrators' filters (all optional); times in epoch ms, `to` exclusive. */
export type HistoryFilter = {
  user?: string | undefined;
  recordType?: string | undefined;
  alias?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** Only these definitions (a hosted administrator's visible ones); none given: all. */
  definitions?: readonly { recordType: string; alias: string }[] | undefined;
};

/** Sweep at most this often per process: a write does not pay for a delete every time. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The table's queries.
 *
 * @example
 * const history = historyStore(store.db, { retentionMs: config.historyRetentionMs });
 * await history.append(change);
 */
export function historyStore(db: Kysely<BffDatabase>, options: { retentionMs: number }) {
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    /**
     * Writes one change: a row per field (at most MAX_HISTORY_FIELDS_PER_CHANGE), all in one
     * insert. Returns how many rows it wrote.
     */
    async append(change: RecordChange, changeId: string): Promise<number> {
      const fields = change.fields.slice(0, MAX_HISTORY_FIELDS_PER_CHANGE);
      if (fields.length === 0) return 0;
      await db
        .insertInto('record_history')
        .values(
          fields.map((f) => ({
            change_id: changeId,
            region: change.region,
            at: change.at,
            actor_id: change.actor.id,
            actor_name: change.actor.name,
            record_type: change.recordType,
            alias: change.alias,
            record_id: change.recordId,
            kind: change.kind,
            field: String(boundedValue(f.field)),
            before: JSON.stringify(boundedValue(f.before)),
            after: JSON.stringify(boundedValue(f.after)),
            source: change.source,
          })),
        )
        .execute();
      if (change.at - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = change.at;
        await this.sweep(change.at);
      }
      return fields.length;
    },

    /** Deletes the entries older than the retention (every region). The only delete there is. */
    async sweep(now: number): Promise<number> {
      const result = await db
        .deleteFrom('record_history')
        .where('at', '<', now - options.retentionMs)
        .executeTakeFirst();
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
      let query = db.selectFrom('record_history').selectAll().where('region', '=', region);
      if (filter.user !== undefined) {
        // An id as entries carry it, or the name shown (what an administrator can type).
        const user = filter.user;
        query = query.where((eb) =>
          eb.or([
            eb('actor_id', '=', user),
            eb(sql<string>`lower(actor_name)`, '=', user.toLowerCase()),
          ]),
        );
      }
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
      return query.orderBy('id', 'desc').limit(page.first).execute();
    },
  };
}

export type HistoryStore = ReturnType<typeof historyStore>;
