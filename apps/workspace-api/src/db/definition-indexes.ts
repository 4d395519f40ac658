// Per-definition partial expression indexes, derived from the workspace definitions at start-up.
// Each index is restricted to one alias (`where alias = '...'`), so it only holds that definition's
// rows and matches the expressions src/lib/rsql-sql.ts generates character for character.
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
        if (options.trgm) add(field.name, 'trgm', `using gin (${text} public.gin_trgm_ops)`);
        break;
      default:
        break;
    }
  }
  // `==` / `=in=` on exact-string fields compile to `data @> {"F": v}` (see rsql-sql.ts): one GIN
  // index serves every such field and, unlike the partial btrees above (whose statistics the
  // planner ignores), it finds only the matching rows, AND-ing several clauses inside the index.
  // jsonb_path_ops: smaller and faster than jsonb_ops, and containment is all it has to serve.
  if (definition.fields.some((field) => CONTAINMENT_TYPES.has(field.type))) {
    add('', 'containment', 'using gin (data jsonb_path_ops)');
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

/**
 * Creates any missing per-definition index (idempotent; existing ones are kept).
 *
 * @example
 * await ensureDefinitionIndexes(db, workspace.definitions, { trgm });
 */
export async function ensureDefinitionIndexes(
  db: Db,
  definitions: WorkspaceDefinition[],
  options: { trgm: boolean },
): Promise<void> {
  for (const definition of definitions) {
    for (const plan of planDefinitionIndexes(definition, options)) {
      await sql.raw(plan.ddl).execute(db);
    }
  }
}
