// The record history's daily budget per person (issue 26 M3, ADR 0026): what one actor's changes
// may add to the history in one UTC day, in rows and in bytes. Past it the user's write still goes
// through (the history never fails a write); the history keeps one "not kept" entry for the change
// instead, so readers see that something happened, and past a bound on those too, nothing. The
// usage is counted in `history_budget` (one row per actor and day) in the transaction that writes
// the entries, so concurrent writes of one person, on any instance, cannot overrun it together.
import type { Kysely, Transaction } from 'kysely';

import type { BffDatabase } from '../../db/schema.ts';

/** The limits of one person's history per UTC day. */
export type HistoryBudget = {
  /** Entries (one per changed field) kept per person and day (BFF_HISTORY_DAILY_ROWS). */
  rowsPerDay: number;
  /** Bytes of those entries (see {@link entryBytes}) per person and day (BFF_HISTORY_DAILY_BYTES). */
  bytesPerDay: number;
  /** "Not kept" entries per person and day; past them a change leaves no entry at all. */
  markersPerDay: number;
};

/** What the budget allows for one change. */
export type BudgetOutcome = 'kept' | 'marker' | 'nothing';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What an entry costs beyond its texts: ids, names, the record's handle, the row and its index
 * entries (an estimate; the budget bounds growth, it does not measure the disk).
 */
export const ENTRY_OVERHEAD_BYTES = 160;

/**
 * The UTC day of a time, as days since 1970-01-01 (the budget's key).
 *
 * @example
 * utcDay(Date.parse('2025-03-01T23:59:59Z')); // 20148
 */
export function utcDay(at: number): number {
  return Math.floor(at / DAY_MS);
}

/**
 * What one entry counts against the budget: its field name and the JSON texts of its values in
 * UTF-8 bytes, plus {@link ENTRY_OVERHEAD_BYTES}.
 *
 * @example
 * entryBytes({ field: 'Status', before: '"New"', after: '"Open"' }); // 160 + 6 + 5 + 6
 */
export function entryBytes(entry: { field: string; before: string; after: string }): number {
  return (
    ENTRY_OVERHEAD_BYTES +
    Buffer.byteLength(entry.field) +
    Buffer.byteLength(entry.before) +
    Buffer.byteLength(entry.after)
  );
}

type Db = Kysely<BffDatabase> | Transaction<BffDatabase>;

/**
 * Takes `rows` and `bytes` from the actor's budget of the day when they fit, else one marker when
 * markers are left: says which (`kept`, `marker`) or `nothing`. Atomic: the upsert only adds
 * what fits, so two concurrent changes cannot both pass the last room.
 *
 * @example
 * const outcome = await spendBudget(trx, budget, { actorId, day: utcDay(at), rows: 3, bytes: 900 });
 */
export async function spendBudget(
  db: Db,
  budget: HistoryBudget,
  use: { actorId: string; day: number; rows: number; bytes: number },
): Promise<BudgetOutcome> {
  const fits = use.rows <= budget.rowsPerDay && use.bytes <= budget.bytesPerDay;
  if (fits && (await addUsage(db, budget, use))) return 'kept';
  return (await addMarker(db, budget, use)) ? 'marker' : 'nothing';
}

async function addUsage(
  db: Db,
  budget: HistoryBudget,
  use: { actorId: string; day: number; rows: number; bytes: number },
): Promise<boolean> {
  const row = await db
    .insertInto('history_budget')
    .values({ actor_id: use.actorId, day: use.day, rows: use.rows, bytes: use.bytes })
    .onConflict((oc) =>
      oc
        .columns(['actor_id', 'day'])
        .doUpdateSet((eb) => ({
          rows: eb('history_budget.rows', '+', eb.ref('excluded.rows')),
          bytes: eb('history_budget.bytes', '+', eb.ref('excluded.bytes')),
        }))
        .where((eb) =>
          eb.and([
            eb(eb('history_budget.rows', '+', eb.ref('excluded.rows')), '<=', budget.rowsPerDay),
            eb(eb('history_budget.bytes', '+', eb.ref('excluded.bytes')), '<=', budget.bytesPerDay),
          ]),
        ),
    )
    .returning('rows')
    .executeTakeFirst();
  return row !== undefined;
}

async function addMarker(
  db: Db,
  budget: HistoryBudget,
  use: { actorId: string; day: number },
): Promise<boolean> {
  if (budget.markersPerDay < 1) return false;
  const row = await db
    .insertInto('history_budget')
    .values({ actor_id: use.actorId, day: use.day, rows: 0, bytes: 0, markers: 1 })
    .onConflict((oc) =>
      oc
        .columns(['actor_id', 'day'])
        .doUpdateSet((eb) => ({ markers: eb('history_budget.markers', '+', 1) }))
        .where('history_budget.markers', '<', budget.markersPerDay),
    )
    .returning('markers')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the usage of days before yesterday (a change stamped just before midnight may still be
 * counted after it). Returns how many rows it deleted.
 *
 * @example
 * await sweepBudget(db, utcDay(now));
 */
export async function sweepBudget(db: Db, today: number): Promise<number> {
  const result = await db
    .deleteFrom('history_budget')
    .where('day', '<', today - 1)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
