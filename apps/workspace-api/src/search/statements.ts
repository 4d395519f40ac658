// The SQL of a record search (`GET /v1/{recordType}/{alias}`): one page in keyset order plus the
// exact total. Shared by the route and the benchmark that times it against the raw SQL.
//
// A filtered search is one statement that finds the matches once (a MATERIALIZED CTE of their seq
// and sort keys, planned like a count: from the indexes that fit the filter), counts them, sorts
// them and joins the page's rows back. Asking PostgreSQL for "the first 101 matches in seq order"
// instead lets it walk the seq index from the oldest row, filtering as it goes, on the assumption
// that matches are spread evenly; when they are all recent (a `Created At` range, a new queue) that
// walk reads most of the table (515 ms for 1,008 matches out of 1M, docs/benchmarks.md). An
// unfiltered list keeps that walk, which is then the right plan, and counts separately.
import type { CompiledQuery, RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';

import type { Db } from '../db/client.ts';
import type { RecordRow } from '../db/schema.ts';
import type { Profile } from '../env.ts';
import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import type { FilterPlan, NumberRange } from './filter.ts';
import type { SortKey } from './sort.ts';
import { recordFieldResolver, sortExpression } from './fields.ts';
import { planFilter } from './filter.ts';
import { keysetCondition, orderByClause, parseSort, sortValueText } from './sort.ts';

export type RecordSearch = {
  alias: string;
  /** The compiled RSQL filter, if any. */
  filter?: RawBuilder<SqlBool>;
  keys: SortKey[];
  /** Keyset position to continue from: the sort values and seq of the cursor's row. */
  cursor?: { values: Array<string | null>; seq: number };
  /** Forward pages go after the cursor in sort order; backward ones before it (rows reversed). */
  forward: boolean;
  /** Rows to fetch: the page size plus one, to learn whether more rows exist. */
  limit: number;
};

/** A page row: the record plus the lossless text of each sort key (`k0`, `k1`, ...). */
export type SearchRow = RecordRow & Record<`k${number}`, string | null>;

export type SearchStatements =
  | { kind: 'single'; query: CompiledQuery }
  | { kind: 'pair'; page: CompiledQuery; count: CompiledQuery };

/**
 * The filter and sort keys of a search from its `filter` and `sort` parameters (blank means none).
 * Throws FilterError (400 with the position) as compileFilter and parseSort do. In the hosted
 * profile the filter is read in the published dialect over the hosted field names.
 *
 * @example
 * const { filter, keys } = parseSearch(definition, 'Status==Open', '-Created At');
 */
export function parseSearch(
  definition: WorkspaceDefinition,
  filterText: string | undefined,
  sortText: string | undefined,
  profile: Profile = 'extended',
): { filter?: FilterPlan; keys: SortKey[] } {
  const resolve = recordFieldResolver(definition, profile);
  const keys = sortText && sortText.trim() !== '' ? parseSort(sortText, resolve) : [];
  if (!filterText || filterText.trim() === '') return { keys };
  return { filter: planFilter(filterText, resolve, { dialect: profile }), keys };
}

/** A range holding more distinct values than this is searched as written. */
export const MAX_RANGE_VALUES = 16;

/**
 * The distinct values (as text, ascending) a definition's records hold for a NUMBER field within
 * a range, or undefined when there are more than `limit`. A loose index scan of the field's
 * btree (db/definition-indexes.ts): one descent per distinct value, ~0.6 ms for a few at 1M.
 *
 * @example
 * await distinctNumbersInRange(db, 'support-tickets', priorityAtMost1); // ['1']
 */
export async function distinctNumbersInRange(
  db: Db,
  alias: string,
  range: NumberRange,
  limit: number = MAX_RANGE_VALUES,
): Promise<string[] | undefined> {
  const expr = sortExpression(range.field);
  const bound = (side: { value: string; inclusive: boolean } | undefined, strict: string) =>
    side
      ? sql`${expr} ${sql.raw(side.inclusive ? `${strict}=` : strict)} ${side.value}::numeric`
      : sql`${expr} is not null`;
  const upper = bound(range.upper, '<');
  const { rows } = await sql<{ x: string }>`with recursive v(x) as (
  (select ${expr} from records
   where records.alias = ${alias} and ${bound(range.lower, '>')} and ${upper}
   order by 1 limit 1)
  union all
  select (select ${expr} from records
          where records.alias = ${alias} and ${expr} > v.x and ${upper}
          order by 1 limit 1)
  from v where v.x is not null
)
select x::text as x from v where x is not null limit ${limit + 1}`.execute(db);
  return rows.length > limit ? undefined : rows.map((row) => row.x);
}

/**
 * The SQL of a filter for one definition's records, in the forms the definition's GIN index
 * serves when it has btree_gin columns (`btreeGin`; ADR 0003 revision 4): each NUMBER range the
 * filter ANDs with other conditions is replaced by the few values the records hold in it
 * (distinctNumbersInRange), and a bounded `Created At` / `Updated At` range next to a
 * containment gets its UTC months (filter.ts monthBuckets). Run it in the same snapshot as the
 * search (withSearchLimits' repeatable-read transaction), so that the values and the matches
 * agree.
 *
 * @example
 * const where = await resolveFilter(trx, definition.alias, plan, { btreeGin: true });
 */
export async function resolveFilter(
  db: Db,
  alias: string,
  plan: FilterPlan,
  options: { btreeGin: boolean; maxValues?: number },
): Promise<RawBuilder<SqlBool>> {
  if (!options.btreeGin) return plan.compile();
  const values = new Map<string, string[]>();
  for (const range of plan.ranges) {
    const found = await distinctNumbersInRange(db, alias, range, options.maxValues);
    if (found) values.set(range.key, found);
  }
  return plan.compile({ values, buckets: true });
}

/**
 * The statements of a search whose filter is still a plan: the filter resolved against `db`
 * (resolveFilter), then searchStatements. What the route runs, inside withSearchLimits'
 * transaction, and what the bench times as the raw SQL.
 *
 * @example
 * const statements = await resolvedSearchStatements(trx, { alias, filter: plan, keys, forward: true, limit: 101 }, deps);
 */
export async function resolvedSearchStatements(
  db: Db,
  search: Omit<RecordSearch, 'filter'> & { filter?: FilterPlan | undefined },
  options: { btreeGin: boolean },
): Promise<SearchStatements> {
  const { filter, ...rest } = search;
  const where = filter ? await resolveFilter(db, search.alias, filter, options) : undefined;
  return searchStatements(db, { ...rest, ...(where ? { filter: where } : {}) });
}

/** `, <sort key text> as k0, ...`: the lossless text of each sort key, for the page's cursors. */
function keyColumns(keys: SortKey[]): RawBuilder<unknown> {
  return sql.join(
    keys.map((key, index) => sql`, ${sortValueText(key.field)} as ${sql.ref(`k${index}`)}`),
    sql``,
  );
}

/**
 * The statements of a search: one for a filtered search, page + count for an unfiltered list.
 *
 * @example
 * const statements = searchStatements(db, { alias, filter, keys: [], forward: true, limit: 101 });
 */
export function searchStatements(db: Db, search: RecordSearch): SearchStatements {
  const { alias, filter, keys, cursor, forward, limit } = search;
  const side = forward ? 'after' : 'before';

  if (filter === undefined) {
    const seqRef = sql.ref('records.seq');
    const page = sql`select records.*${keyColumns(keys)} from records where records.alias = ${alias}${
      cursor ? sql` and ${keysetCondition(keys, cursor.values, cursor.seq, side, seqRef)}` : sql``
    } order by ${orderByClause(keys, !forward, seqRef)} limit ${limit}`;
    const count = sql`select count(*) as total from records where records.alias = ${alias}`;
    return { kind: 'pair', page: page.compile(db), count: count.compile(db) };
  }

  const matchKey = (_: SortKey, index: number) => sql.ref(`m.s${index}`);
  const pageKey = (_: SortKey, index: number) => sql.ref(`p.s${index}`);
  const sortColumns = keys.map(
    (key, index) => sql`, ${sortExpression(key.field)} as ${sql.ref(`s${index}`)}`,
  );
  const query = sql`with m as materialized (
  select records.seq${sql.join(sortColumns, sql``)}
  from records where records.alias = ${alias} and ${filter}
), p as (
  select * from m${
    cursor
      ? sql` where ${keysetCondition(keys, cursor.values, cursor.seq, side, sql.ref('m.seq'), matchKey)}`
      : sql``
  }
  order by ${orderByClause(keys, !forward, sql.ref('m.seq'), matchKey)} limit ${limit}
)
select c.total, records.*${keyColumns(keys)}
from (select count(*) as total from m) as c
left join p on true
left join records on records.seq = p.seq
order by ${orderByClause(keys, !forward, sql.ref('p.seq'), pageKey)}`;
  return { kind: 'single', query: query.compile(db) };
}

/**
 * Runs a search: its page rows (in the order fetched; reverse them for a backward page) and total.
 *
 * @example
 * const { rows, total } = await runSearch(db, searchStatements(db, search));
 */
export async function runSearch(
  db: Db,
  statements: SearchStatements,
): Promise<{ rows: SearchRow[]; total: number }> {
  if (statements.kind === 'pair') {
    // Two pool connections on PostgreSQL; queued one after the other on single-connection PGlite.
    const [page, count] = await Promise.all([
      db.executeQuery<SearchRow>(statements.page),
      db.executeQuery<{ total: number | string | bigint }>(statements.count),
    ]);
    return { rows: page.rows, total: Number(count.rows[0]?.total ?? 0) };
  }
  const result = await db.executeQuery<SearchRow & { total: number | string | bigint }>(
    statements.query,
  );
  const total = Number(result.rows[0]?.total ?? 0);
  // An empty page still returns the count's row, with no record joined to it.
  const rows = result.rows
    .filter((row) => row.seq !== null)
    .map(({ total: _total, ...row }) => row as SearchRow);
  return { rows, total };
}
