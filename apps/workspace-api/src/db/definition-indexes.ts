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

/**
 * The index statements for one definition.
 *
 * @example
 * planDefinitionIndexes(definition, { trgm: true }).map((plan) => plan.ddl);
 */
export function planDefinitionIndexes(
  definition: WorkspaceDefinition,
  options: { trgm: boolean },
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
  // `data @> {"F": v}`, see search/filter.ts) and `=lk=` / `=lki=` on TEXT fields (a trigram column
  // per TEXT field). Unlike the partial btrees above (whose statistics the planner ignores), it
  // finds only the matching rows; and because both kinds of column are in one index, a contains
  // filter combined with equalities (`Title=lk=SSO;Status=in=(New,Open)`) is AND-ed inside one
  // index scan before any heap row is read (10 ms instead of 113 ms at 1M: the planner does not
  // BitmapAnd two separate GIN indexes here). A containment-only lookup reads the same pages as
  // in a containment-only index (207 vs 208 buffers at 1M). jsonb_path_ops: smaller and faster
  // than jsonb_ops, and containment is all it has to serve. Ranges stay on the btrees: a GIN
  // range (btree_gin) reads one entry per distinct value.
  if (definition.fields.some((field) => CONTAINMENT_TYPES.has(field.type))) {
    const body = `using gin (${['data jsonb_path_ops', ...trigramColumns].join(', ')})`;
    // Without trigram columns this is revision 1's index under its name; with them the name
    // covers the column list, so adding a TEXT field plans a new index (the old one is dropped
    // as stale) instead of keeping an index that lacks the field.
    if (trigramColumns.length === 0) add('', 'containment', body);
    else add(body, 'search', body);
  }
  return plans;
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
 * await ensureDefinitionIndexes(db, workspace.definitions, { trgm });
 */
export async function ensureDefinitionIndexes(
  db: Db,
  definitions: WorkspaceDefinition[],
  options: { trgm: boolean },
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
