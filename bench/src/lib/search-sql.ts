// The SQL the API runs for a record search, built by the API's own statement builder
// (workspace-api src/search/statements.ts, which the route uses) for the first page, so that the
// benchmark can time exactly that SQL directly against the same database.
import type { Db, SearchStatements, WorkspaceDefinition } from 'workspace-api/tools';
import { parseSearch, runSearch, searchStatements } from 'workspace-api/tools';

export type SearchSql = SearchStatements;

/**
 * The statements of a first-page search (limit first+1): one for a filtered search, page + count
 * for an unfiltered list.
 *
 * @example
 * const statements = searchSql(db, definition, 'Status==Open', '', 100);
 */
export function searchSql(
  db: Db,
  definition: WorkspaceDefinition,
  filterText: string,
  sortText: string,
  first: number,
): SearchSql {
  return searchStatements(db, {
    alias: definition.alias,
    ...parseSearch(definition, filterText, sortText),
    forward: true,
    limit: first + 1,
  });
}

/**
 * Runs the statements as the API does and returns the elapsed milliseconds, ids and total.
 *
 * @example
 * const { ms, ids, total } = await runSearchSql(db, statements);
 */
export async function runSearchSql(
  db: Db,
  statements: SearchSql,
): Promise<{ ms: number; ids: string[]; total: number }> {
  const started = performance.now();
  const { rows, total } = await runSearch(db, statements);
  const ms = performance.now() - started;
  return { ms, ids: rows.map((row) => row.id), total };
}
