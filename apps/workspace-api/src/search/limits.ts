// Time limits on searches, so that one expensive filter cannot stall a region.
//
// Each search runs in its own short transaction, one repeatable-read snapshot. On PostgreSQL it
// sets `statement_timeout` locally (SEARCH_TIMEOUT_MS); a statement past it is cancelled by the
// server (SQLSTATE 57014) and the answer is 503 with Retry-After. The connection goes back to the
// pool at once.
//
// PGlite runs SQL synchronously on the API's own thread, in WASM: nothing can interrupt a running
// statement (its statement_timeout relies on a timer signal that cannot fire while the statement
// holds the thread; measured: a 1.5 s pg_sleep under a 200 ms statement_timeout runs 1.5 s, and
// no timer of the process ticks meanwhile). What stands in for the interruption there is a budget:
// every search's duration is charged to the credential's search-time bucket (half a second per
// second, burst two timeouts), a search is refused with 429 while its credential's bucket is in
// debt, and a search that ran past the timeout is answered 503 like on PostgreSQL. One slow
// search still holds the thread for its own duration, once; it cannot be repeated back to back,
// so one credential cannot keep the region stalled. Both stores charge the budget, so a
// credential's share of the database is bounded everywhere.
import { sql } from 'kysely';

import type { Db } from '../db/client.ts';
import type { AppDeps } from '../lib/types.ts';
import { ProblemException, serviceUnavailable } from '../lib/errors.ts';

/** SQLSTATE query_canceled: statement_timeout (or a cancel request) stopped the statement. */
const QUERY_CANCELED = '57014';

function isQueryCanceled(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === QUERY_CANCELED;
}

/**
 * Runs a search's statements under the search time limits of the app (see the file comment):
 * 429 while the credential's search-time budget is spent, 503 with Retry-After when a statement
 * hits SEARCH_TIMEOUT_MS. The budget is the credential's (`clientId`). `run` gets the connection
 * to use (a transaction on PostgreSQL).
 *
 * @example
 * const { rows, total } = await withSearchLimits(deps, clientId, (db) => runSearch(db, statements));
 */
export async function withSearchLimits<T>(
  deps: AppDeps,
  clientId: string,
  run: (db: Db) => Promise<T>,
): Promise<T> {
  const budget = deps.limiters.searchTime;
  const key = clientId;
  if (budget.enabled) {
    const state = budget.peek(key);
    if (!state.allowed) {
      throw new ProblemException(429, {
        detail: `This credential's searches used their time budget; retry in ${state.retryAfter} s`,
        headers: { 'Retry-After': String(state.retryAfter) },
      });
    }
  }
  const timeoutMs = deps.config.searchTimeoutMs;
  const hook = deps.hooks?.beforeSearch;
  const started = performance.now();
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    // One snapshot for all of a search's statements (repeatable read): the values of its NUMBER
    // ranges and its matches (statements.ts resolveFilter), or an unfiltered page and its count,
    // agree. On PGlite the transaction also holds the one connection until the search is done.
    const value = await deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        if (deps.dbKind === 'postgres') {
          // set_config(..., true) is SET LOCAL with a bound parameter: it ends with the transaction.
          await sql`select set_config('statement_timeout', ${String(timeoutMs)}, true)`.execute(
            trx,
          );
        }
        if (hook) await hook(trx);
        return run(trx);
      });
    outcome = { ok: true, value };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const elapsed = performance.now() - started;
  const after = budget.enabled ? budget.charge(key, elapsed) : undefined;
  const retryAfter = Math.max(1, after && !after.allowed ? after.retryAfter : 1);
  // PostgreSQL cancels a statement at the limit; PGlite can only be judged once it is done.
  const timedOut = outcome.ok
    ? deps.dbKind === 'pglite' && elapsed > timeoutMs
    : isQueryCanceled(outcome.error);
  if (timedOut) {
    throw serviceUnavailable(
      retryAfter,
      `The search took longer than ${timeoutMs} ms; narrow the filter or retry later`,
    );
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
