// Per-definition partial expression indexes, derived from the workspace definitions at start-up.
// Each index is restricted to one alias (`where alias = '...'`), so it only holds that definition's
// rows and matches the expressions src/search/filter.ts generates character for character.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';

import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import type { Db } from './client.ts';

/**
 * SQL string literal for DDL, where bound parameters are not allowed. Only used with names from
 * the validated workspace file, never with request input.
 *
 * @example
 * quoteLiteral("it's"); // "'it''s'"
 */
export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) throw new Error('NUL in SQL literal');
  return `'${value.replaceAll("'", "''")}'`;
}

/** The expression a field's value is read with (shared with the RSQL compiler). */
export function fieldTextExpression(fieldName: string): string {
  return `(data ->> ${quoteLiteral(fieldName)})`;
}

export type IndexPlan = { name: string; ddl: string };

/** The contrib extensions the server has (DatabaseHandle has both), which shape the indexes. */
export type IndexFeatures = { trgm: boolean; btreeGin: boolean };

/**
 * The index statements for one definition.
 *
 * @example
 * planDefinitionIndexes(definition, { trgm: true, btreeGin: true }).map((plan) => plan.ddl);
 */
export function planDefinitionIndexes(
  definition: WorkspaceDefinition,
  options: IndexFeatures,
): IndexPlan[] {
  const where = `where alias = ${quoteLiteral(definition.alias)}`;
  const plans: IndexPlan[] = [];
  const add = (field: string, kind: string, body: string) => {
    const digest = createHash('sha256')
      .update(`${definition.alias}\u0000${field}\u0000${kind}`)
      .digest('hex');
    const name = `rx_${digest.slice(0, 20)}`;
    plans.push({ name, ddl: `create index if not exists ${name} on records ${body} ${where}` });
  };
  const trigramColumns: string[] = [];
  const numberColumns: string[] = [];
  for (const field of definition.fields) {
    const text = fieldTextExpression(field.name);
    switch (field.type) {
      case 'PICKLIST':
      case 'USER_ID':
      case 'DATE':
      case 'DATETIME':
      case 'BOOLEAN':
        // Equality / range on the value, then creation order for the default sort.
        add(field.name, 'btree', `(${text}, seq)`);
        break;
      case 'NUMBER':
        add(field.name, 'numeric', `((${text}::numeric), seq)`);
        if (options.btreeGin) numberColumns.push(`(${text}::numeric)`);
        break;
      case 'MULTI_PICKLIST':
        add(field.name, 'array', `using gin ((string_to_array(${text}, ', ')))`);
        break;
      case 'TEXT':
        if (options.trgm) trigramColumns.push(`${text} public.gin_trgm_ops`);
        break;
      default:
        break;
    }
  }
  // One GIN index per definition serves `==` / `=in=` on exact-string fields (compiled to
  // `data @> {"F": v}`, see search/filter.ts), `=lk=` / `=lki=` on TEXT fields (a trigram column
  // per TEXT field) and, with btree_gin, comparisons of NUMBER fields (a numeric column each).
  // Unlike the partial btrees above (whose statistics the planner ignores), it finds only the
  // matching rows; and because every kind of column is in one index, a contains filter combined
  // with equalities (`Title=lk=SSO;Status=in=(New,Open)`) is AND-ed inside one index scan before
  // any heap row is read (10 ms instead of 113 ms at 1M: the planner does not BitmapAnd two
  // separate GIN indexes here). The numeric columns serve the arms of an OR of AND-groups (the
  // compiler distributes such filters, see search/filter.ts): `Status==Open;Priority=le=1` is one
  // scan instead of every Open row read and filtered (OR-groups query at 1M: 81 -> ~25 ms). A
  // NUMBER range scans one GIN entry per distinct value, which is cheap for the low-cardinality
  // numbers triage filters on (priorities, levels); the per-field btree above still serves sorts.
  // Dates stay out (a 30-day range is thousands of distinct values: 105 ms, ADR 0003).
  // jsonb_path_ops: smaller and faster than jsonb_ops, and containment is all it has to serve.
  // With btree_gin, the UTC month of `created_at` and `updated_at` too: a bounded range on them
  // next to a containment gets `month in (...)` added by the compiler (search/filter.ts
  // monthBuckets), a few equality entries the index ANDs with the rest, where the created_at
  // btree would read every record of the range (30 days at 1M: 55k rows, 21 ms -> 6.7 ms).
  const monthColumns = options.btreeGin
    ? MONTH_BUCKET_COLUMNS.map((column) => monthBucketExpression(column))
    : [];
  if (definition.fields.some((field) => CONTAINMENT_TYPES.has(field.type))) {
    const columns = ['data jsonb_path_ops', ...trigramColumns, ...numberColumns, ...monthColumns];
    const body = `using gin (${columns.join(', ')})`;
    // Containment alone is revision 1's index under its name; with more columns the name covers
    // the column list, so adding a field plans a new index (the old one is dropped as stale)
    // instead of keeping an index that lacks the field.
    if (columns.length === 1) add('', 'containment', body);
    else add(body, 'search', body);
  }
  return plans;
}

/** The timestamp columns whose UTC month the search GIN index holds (with btree_gin). */
export const MONTH_BUCKET_COLUMNS = ['created_at', 'updated_at'] as const;

/**
 * The UTC month of a timestamp column, as indexed (immutable: a fixed zone) and as the compiler
 * writes it (search/filter.ts monthBucket).
 *
 * @example
 * monthBucketExpression('created_at'); // "(date_trunc('month', (created_at at time zone 'UTC')))"
 */
export function monthBucketExpression(column: (typeof MONTH_BUCKET_COLUMNS)[number]): string {
  return `(date_trunc('month', (${column} at time zone 'UTC')))`;
}

/** Field types whose `==` compiles to JSONB containment (stored value = the exact string). */
export const CONTAINMENT_TYPES: ReadonlySet<string> = new Set([
  'TEXT',
  'PICKLIST',
  'USER_ID',
  'BOOLEAN',
]);

const INDEX_NAME_RE = /^rx_[0-9a-f]{20}$/;

/**
 * Creates any missing per-definition index and drops `rx_` indexes no definition plans any more
 * (a removed field or definition, or an index design replaced in a revision of ADR 0003).
 * Idempotent; existing planned indexes are kept.
 *
 * @example
 * await ensureDefinitionIndexes(db, workspace.definitions, database); // trgm, btreeGin
 */
export async function ensureDefinitionIndexes(
  db: Db,
  definitions: WorkspaceDefinition[],
  options: IndexFeatures,
): Promise<void> {
  const plans = definitions.flatMap((definition) => planDefinitionIndexes(definition, options));
  const planned = new Set(plans.map((plan) => plan.name));
  const existing = await sql<{ indexname: string }>`
    select indexname from pg_indexes
    where schemaname = current_schema() and tablename = 'records' and indexname like 'rx\_%'`.execute(
    db,
  );
  for (const { indexname } of existing.rows) {
    if (!planned.has(indexname) && INDEX_NAME_RE.test(indexname))
      await sql.raw(`drop index if exists ${indexname}`).execute(db);
  }
  for (const plan of plans) await sql.raw(plan.ddl).execute(db);
}
