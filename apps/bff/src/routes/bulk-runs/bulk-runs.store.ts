// The bulk runs' table: every query is scoped to an owner (the session's owner id and region), so
// another user's run is simply not found, and to rows not yet expired, so a run older than 7 days
// is gone even before the purge deletes it. The handlers decide what a result means.
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import { z } from 'zod';

import type { BulkRun, BulkRunSummary, BulkUndoResult, RecordType } from '@wsc/api-client';
import { BulkRunRecordSchema, BulkUndoResultSchema } from '@wsc/api-client';

import type { BffDatabase, BulkRunsTable } from '../../db/schema.ts';

/** How long a run can be undone: the issue's 7 days. */
export const BULK_RUN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Runs kept per owner and region: a new run beyond this pushes out the oldest (a user is never
 * stopped from changing records because they changed many before). With the byte limit below, one
 * owner holds at most MAX_RUNS_PER_USER x MAX_BULK_RUN_BYTES.
 */
export const MAX_RUNS_PER_USER = 20;

/** A stored run's body at most (its records' previous values): the request body limit. */
export const MAX_BULK_RUN_BYTES = 1024 * 1024;

export type BulkRunRow = Selectable<BulkRunsTable>;

/** Whose runs: the session's owner id (never an email someone typed) and region. */
export type RunOwner = { userId: string; region: string };

const jsonOf = (value: unknown): unknown =>
  typeof value === 'string' ? (JSON.parse(value) as unknown) : value;

const StoredUndoSchema = BulkUndoResultSchema.extend({ at: z.number() }).nullable().catch(null);

/**
 * A row as the list answers it (no records).
 *
 * @example
 * c.json({ items: rows.map(toSummary) });
 */
export function toSummary(row: BulkRunRow): BulkRunSummary {
  const undo = StoredUndoSchema.parse(jsonOf(row.undo) ?? null);
  return {
    id: row.id,
    // Rows are only written through CreateBulkRunSchema, which checks the record type.
    recordType: row.record_type as RecordType,
    alias: row.alias,
    changes: z.record(z.string(), z.string()).catch({}).parse(jsonOf(row.changes)),
    count: Number(row.record_count),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    expiresAt: new Date(Number(row.expires_at)).toISOString(),
    undo: undo ? { ...undo, at: new Date(undo.at).toISOString() } : null,
  };
}

/**
 * A row with its records, as `GET /bff/bulk-runs/{id}` answers it.
 *
 * @example
 * c.json(toRun(row));
 */
export function toRun(row: BulkRunRow): BulkRun {
  return {
    ...toSummary(row),
    records: z.array(BulkRunRecordSchema).catch([]).parse(jsonOf(row.records)),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The table's queries.
 *
 * @example
 * const runs = bulkRunsStore(store.db);
 * await runs.list(owner, now);
 */
export function bulkRunsStore(db: Kysely<BffDatabase>) {
  return {
    /** The owner's unexpired runs, newest first (one definition's, or all). */
    list(owner: RunOwner, now: number, definition?: { recordType: string; alias: string }) {
      let query = db
        .selectFrom('bulk_runs')
        .select([
          'id',
          'user_id',
          'region',
          'record_type',
          'alias',
          'changes',
          // The list shows no records: they stay in the database.
          sql<string>`'[]'::jsonb`.as('records'),
          'record_count',
          'undo',
          'created_at',
          'expires_at',
        ])
        .where('user_id', '=', owner.userId)
        .where('region', '=', owner.region)
        .where('expires_at', '>', now);
      if (definition) {
        query = query
          .where('record_type', '=', definition.recordType)
          .where('alias', '=', definition.alias);
      }
      return query.orderBy('created_at', 'desc').orderBy('id').limit(MAX_RUNS_PER_USER).execute();
    },

    /** One of the owner's unexpired runs, or undefined (also for an id that is not a UUID). */
    async findOwned(owner: RunOwner, id: string, now: number): Promise<BulkRunRow | undefined> {
      if (!UUID.test(id)) return undefined;
      return db
        .selectFrom('bulk_runs')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', owner.userId)
        .where('region', '=', owner.region)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /**
     * Stores a run (records as JSON text, checked for size by the caller) and keeps the owner at
     * MAX_RUNS_PER_USER by deleting the oldest; every expired run of anyone goes too.
     */
    create(
      owner: RunOwner,
      run: { recordType: string; alias: string; changes: string; records: string; count: number },
      now: number,
    ): Promise<BulkRunRow> {
      const { userId, region } = owner;
      return db.transaction().execute(async (trx) => {
        // One writer per owner at a time, so two concurrent creates cannot both keep 21 runs.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`bulk_runs:${region}:${userId}`}, 0))`.execute(
          trx,
        );
        await trx.deleteFrom('bulk_runs').where('expires_at', '<=', now).execute();
        const row = await trx
          .insertInto('bulk_runs')
          .values({
            user_id: userId,
            region,
            record_type: run.recordType,
            alias: run.alias,
            changes: run.changes,
            records: run.records,
            record_count: run.count,
            undo: null,
            created_at: now,
            expires_at: now + BULK_RUN_TTL_MS,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        // The new run, and the newest others up to the cap.
        const keep = trx
          .selectFrom('bulk_runs')
          .select('id')
          .where('user_id', '=', userId)
          .where('region', '=', region)
          .where('id', '!=', row.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(MAX_RUNS_PER_USER - 1);
        await trx
          .deleteFrom('bulk_runs')
          .where('user_id', '=', userId)
          .where('region', '=', region)
          .where('id', 'not in', keep)
          .where('id', '!=', row.id)
          .execute();
        return row;
      });
    },

    /** Records how the last undo of a run went. */
    recordUndo(id: string, result: BulkUndoResult, now: number): Promise<BulkRunRow> {
      return db
        .updateTable('bulk_runs')
        .set({ undo: JSON.stringify({ ...result, at: now }) })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type BulkRunsStore = ReturnType<typeof bulkRunsStore>;
