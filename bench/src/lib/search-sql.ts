// The SQL the API runs for a record search, built with the API's own compiler functions the same
// way src/routes/records/records.handlers.ts searchRecords builds it (first page, no cursor), so
// that the benchmark can time that SQL directly against the same database.
import type { CompiledQuery } from 'kysely';
import type { Db } from 'workspace-api/src/db/client.ts';
import type { WorkspaceDefinition } from 'workspace-api/src/workspace/definitions.ts';
import { sql } from 'kysely';
import { recordFieldResolver } from 'workspace-api/src/lib/records.ts';
import {
  compileFilter,
  orderByClause,
  parseSort,
  sortValueText,
} from 'workspace-api/src/lib/rsql-sql.ts';

export type SearchSql = { page: CompiledQuery; count: CompiledQuery };

/**
 * The page query (limit first+1) and the total count(*) of a search.
 *
 * @example
 * const { page, count } = searchSql(db, definition, 'Status==Open', '', 100);
 * await db.executeQuery(page);
 */
export function searchSql(
  db: Db,
  definition: WorkspaceDefinition,
  filterText: string,
  sortText: string,
  first: number,
): SearchSql {
  const resolve = recordFieldResolver(definition);
  const filter = filterText.trim() !== '' ? compileFilter(filterText, resolve) : undefined;
  const keys = sortText.trim() !== '' ? parseSort(sortText, resolve) : [];
  const seqRef = sql.ref('records.seq');
  const base = db
    .selectFrom('records')
    .where('records.alias', '=', definition.alias)
    .$if(filter !== undefined, (q) => q.where(filter ?? sql<boolean>`true`));
  const page = base
    .selectAll('records')
    .$if(keys.length > 0, (q) =>
      q.select(keys.map((key, index) => sortValueText(key.field).as(`k${index}`))),
    )
    .orderBy(orderByClause(keys, false, seqRef))
    .limit(first + 1)
    .compile();
  const count = base.select((eb) => eb.fn.countAll<number>().as('n')).compile();
  return { page, count };
}

/**
 * Runs both statements as the API does (concurrently: two pool connections on PostgreSQL, one
 * after the other on single-connection PGlite) and returns the elapsed milliseconds.
 *
 * @example
 * const { ms, ids, total } = await runSearchSql(db, statements);
 */
export async function runSearchSql(
  db: Db,
  statements: SearchSql,
): Promise<{ ms: number; ids: string[]; total: number }> {
  const started = performance.now();
  const [page, count] = await Promise.all([
    db.executeQuery(statements.page),
    db.executeQuery(statements.count),
  ]);
  const ms = performance.now() - started;
  const ids = (page.rows as Array<{ id: string }>).map((row) => row.id);
  return { ms, ids, total: Number((count.rows[0] as { n: number | string } | undefined)?.n ?? 0) };
}

/**
 * Times only the page statement (what a search without `total` would cost).
 *
 * @example
 * const ms = await runPageSql(db, statements);
 */
export async function runPageSql(db: Db, statements: SearchSql): Promise<number> {
  const started = performance.now();
  await db.executeQuery(statements.page);
  return performance.now() - started;
}
