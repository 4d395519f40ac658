// The fields a record search can filter and sort on: each field of a definition and the profile's
// read-only fields, with the SQL expression it is read from and how its values compare.
import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';

import type { Profile } from '../env.ts';
import type { SystemColumn, WorkspaceDefinition } from '../workspace/definitions.ts';
import { CONTAINMENT_TYPES, fieldTextExpression } from '../db/definition-indexes.ts';
import { systemFields } from '../workspace/definitions.ts';

/** How a field's values compare in SQL. */
export type FilterKind =
  | 'text'
  | 'number'
  | 'date'
  | 'datetime'
  | 'timestamp'
  | 'picklist'
  | 'multi-picklist'
  | 'user'
  | 'boolean'
  | 'handle';

/** A filterable, sortable field: its SQL expression and how it compares. */
export type FilterField = {
  name: string;
  kind: FilterKind;
  /**
   * The SQL expression of the value: text for every kind but `timestamp` (a timestamptz column).
   * Built only from trusted names (definition fields, column names).
   */
  expr: RawBuilder<unknown>;
  /**
   * The key in `records.data` when the field's stored value is exactly the string a filter names
   * (text, picklist, user email, `true|false`): `==` / `=in=` then compile to `data @> {key: v}`,
   * which the per-definition GIN index serves. Unset for columns and for values compared as
   * numbers, dates or arrays.
   */
  dataKey?: string;
  /** Allowed values for picklists. */
  values?: readonly string[];
};

export type FieldResolver = (selector: string) => FilterField | undefined;

const KIND_BY_TYPE: Record<string, FilterKind> = {
  TEXT: 'text',
  NUMBER: 'number',
  DATE: 'date',
  DATETIME: 'datetime',
  PICKLIST: 'picklist',
  MULTI_PICKLIST: 'multi-picklist',
  USER_ID: 'user',
  BOOLEAN: 'boolean',
};

const KIND_BY_COLUMN: Record<SystemColumn, FilterKind> = {
  id: 'handle',
  created_at: 'timestamp',
  created_by: 'user',
  updated_at: 'timestamp',
  updated_by: 'user',
};

const resolverCache: Record<Profile, WeakMap<WorkspaceDefinition, Map<string, FilterField>>> = {
  extended: new WeakMap(),
  hosted: new WeakMap(),
};

/**
 * Filter/sort fields of a definition (its fields plus the profile's read-only fields: `id`,
 * `Created At`, ... or the hosted names, both on the system columns), by name.
 *
 * @example
 * const resolve = recordFieldResolver(definition);
 * compileFilter('Status==Open', resolve);
 */
export function recordFieldResolver(
  definition: WorkspaceDefinition,
  profile: Profile = 'extended',
): (selector: string) => FilterField | undefined {
  let fields = resolverCache[profile].get(definition);
  if (!fields) {
    fields = new Map();
    for (const system of systemFields(definition, profile)) {
      fields.set(system.name, {
        name: system.name,
        kind: KIND_BY_COLUMN[system.column],
        expr: sql.ref(`records.${system.column}`),
      });
    }
    for (const field of definition.fields) {
      fields.set(field.name, {
        name: field.name,
        kind: KIND_BY_TYPE[field.type] ?? 'text',
        expr: sql.raw(fieldTextExpression(field.name)),
        ...(CONTAINMENT_TYPES.has(field.type) ? { dataKey: field.name } : {}),
        ...(field.values ? { values: field.values } : {}),
      });
    }
    resolverCache[profile].set(definition, fields);
  }
  const byName = fields;
  // Exact names first; a case-insensitive match forgives `status==Open`.
  return (selector) =>
    byName.get(selector) ??
    [...byName.values()].find((field) => field.name.toLowerCase() === selector.toLowerCase());
}

/**
 * The expression a sort key orders by (numbers as numbers, dates in ISO text order).
 *
 * @example
 * sortExpression(key.field); // (data ->> 'Priority')::numeric
 */
export function sortExpression(field: FilterField): RawBuilder<unknown> {
  return field.kind === 'number' ? sql`(${field.expr})::numeric` : field.expr;
}
