// The SQL the API runs for a record search, built by the API's own code (workspace-api
// src/search/statements.ts, which the route uses) for the first page, so that the benchmark can
// time exactly that SQL directly against the same database: the filter resolved as the route
// resolves it (a NUMBER range AND-ed with other conditions becomes the values stored in it, read
// with one small index query each), then the search statement, in one repeatable-read transaction.
import type { Db, SearchStatements, WorkspaceDefinition } from 'workspace-api/tools';
import { parseSearch, resolvedSearchStatements, runSearch } from 'workspace-api/tools';

/** A first-page search: the definition, RSQL filter, sort and page size. */
export type SearchRequest = {
  definition: WorkspaceDefinition;
  filter: string;
  sort: string;
  first: number;
};

/** The server's contrib extensions that shape the SQL (DatabaseHandle has it). */
export type SearchFeatures = { btreeGin: boolean };

/**
 * The statements of a first-page search (limit first+1), its filter resolved against `db`: one
 * statement for a filtered search, page + count for an unfiltered list.
 *
 * @example
 * const statements = await searchSql(db, { definition, filter: 'Status==Open', sort: '', first: 100 }, handle);
 */
export async function searchSql(
  db: Db,
  request: SearchRequest,
  features: SearchFeatures,
): Promise<SearchStatements> {
  const { filter, keys } = parseSearch(request.definition, request.filter, request.sort);
  return resolvedSearchStatements(
    db,
    { alias: request.definition.alias, filter, keys, forward: true, limit: request.first + 1 },
    features,
  );
}

/**
 * Runs the search's SQL as the API does (one repeatable-read transaction) and returns the elapsed
 * milliseconds, ids and total.
 *
 * @example
 * const { ms, ids, total } = await runSearchSql(db, request, handle);
 */
export async function runSearchSql(
  db: Db,
  request: SearchRequest,
  features: SearchFeatures,
): Promise<{ ms: number; ids: string[]; total: number }> {
  const started = performance.now();
  const { rows, total } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => runSearch(trx, await searchSql(trx, request, features)));
  const ms = performance.now() - started;
  return { ms, ids: rows.map((row) => row.id), total };
}
