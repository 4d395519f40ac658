// Sort keys of a record search (`sort=-Created At,Title`) and the keyset order they page in:
// ORDER BY items and the condition for the rows after or before a cursor.
import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';

import type { FieldResolver, FilterField } from './fields.ts';
import { sortExpression } from './fields.ts';
import { FilterError } from './filter.ts';

function fail(parameter: string, message: string, position: number): never {
  throw new FilterError(parameter, message, position);
}

export type SortKey = { field: FilterField; descending: boolean };

/**
 * The SQL a sort key is read from: its expression on `records` by default, or a column a query
 * has already computed it into (the search's materialized matches).
 */
export type KeyRef = (key: SortKey, index: number) => RawBuilder<unknown>;

/**
 * Parses `sort` (`-Created At,Title`): comma-separated field names, `-` for descending.
 *
 * @example
 * parseSort('-Created At,Title', resolver); // [{ field: CreatedAt, descending: true }, ...]
 */
export function parseSort(input: string, resolve: FieldResolver, parameter = 'sort'): SortKey[] {
  const keys: SortKey[] = [];
  let offset = 0;
  for (const raw of input.split(',')) {
    const leading = raw.length - raw.trimStart().length;
    let name = raw.trim();
    let descending = false;
    if (name.startsWith('-') || name.startsWith('+')) {
      descending = name.startsWith('-');
      name = name.slice(1).trim();
    }
    if (name === '') fail(parameter, 'Empty sort key', offset + leading);
    const field = resolve(name);
    if (!field) fail(parameter, `Unknown sort field "${name}"`, offset + leading);
    if (keys.some((key) => key.field.name === field.name))
      fail(parameter, `Duplicate sort field "${name}"`, offset + leading);
    keys.push({ field, descending });
    offset += raw.length + 1;
  }
  if (keys.length > 5) fail(parameter, 'At most 5 sort fields', 0);
  return keys;
}

/**
 * A lossless text form of a sort key's value, stored in cursors.
 *
 * @example
 * db.selectFrom('records').select(sortValueText(field).as('k0'));
 */
export function sortValueText(field: FilterField): RawBuilder<string | null> {
  if (field.kind === 'timestamp') {
    return sql<
      string | null
    >`to_char(${field.expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  }
  return sql<string | null>`(${field.expr})::text`;
}

/** A sort key's cursor value back into a SQL value of the key's type. */
function cursorValue(field: FilterField, value: string): RawBuilder<unknown> {
  if (field.kind === 'number') return sql`${value}::numeric`;
  if (field.kind === 'timestamp') return sql`${value}::timestamptz`;
  return sql`${value}`;
}

/**
 * Keyset condition for rows strictly after (`after`) or before (`before`) a cursor position, in
 * the order given by `keys` (each NULLS LAST) and then `seq` ascending.
 *
 * @example
 * keysetCondition(keys, ['2024-01-01...', null], 42, 'after', sql.ref('records.seq'));
 */
export function keysetCondition(
  keys: SortKey[],
  values: Array<string | null>,
  seq: number,
  side: 'after' | 'before',
  seqRef: RawBuilder<unknown>,
  keyRef: KeyRef = (key) => sortExpression(key.field),
): RawBuilder<SqlBool> {
  const alternatives: RawBuilder<SqlBool>[] = [];
  const equalities: RawBuilder<SqlBool>[] = [];
  keys.forEach((key, index) => {
    const expr = keyRef(key, index);
    const value = values[index] ?? null;
    // Moving after an ascending key means greater; after a descending key, or before an ascending one, less.
    const greater = (side === 'after') !== key.descending;
    let step: RawBuilder<SqlBool> | null;
    if (value === null) {
      // Nulls sort last: nothing is after a null key; every non-null is before it.
      step = side === 'after' ? null : sql<SqlBool>`(${expr} is not null)`;
    } else {
      const bound = cursorValue(key.field, value);
      const compare = greater ? sql<SqlBool>`${expr} > ${bound}` : sql<SqlBool>`${expr} < ${bound}`;
      step =
        side === 'after'
          ? sql<SqlBool>`(${compare} or ${expr} is null)`
          : sql<SqlBool>`(${compare})`;
    }
    if (step)
      alternatives.push(sql<SqlBool>`(${sql.join([...equalities, step], sql.raw(' and '))})`);
    equalities.push(
      value === null
        ? sql<SqlBool>`(${expr} is null)`
        : sql<SqlBool>`(${expr} = ${cursorValue(key.field, value)})`,
    );
  });
  const last =
    side === 'after' ? sql<SqlBool>`${seqRef} > ${seq}` : sql<SqlBool>`${seqRef} < ${seq}`;
  alternatives.push(sql<SqlBool>`(${sql.join([...equalities, last], sql.raw(' and '))})`);
  return sql<SqlBool>`(${sql.join(alternatives, sql.raw(' or '))})`;
}

/**
 * ORDER BY items for the keys (NULLS LAST) then seq; reversed for backward paging.
 *
 * @example
 * sql`order by ${orderByClause(keys, false, sql.ref('seq'))}`;
 */
export function orderByClause(
  keys: SortKey[],
  reverse: boolean,
  seqRef: RawBuilder<unknown>,
  keyRef: KeyRef = (key) => sortExpression(key.field),
): RawBuilder<unknown> {
  const items = keys.map((key, index) => {
    const descending = key.descending !== reverse;
    return sql`${keyRef(key, index)} ${sql.raw(descending ? 'desc' : 'asc')} nulls ${sql.raw(reverse ? 'first' : 'last')}`;
  });
  items.push(sql`${seqRef} ${sql.raw(reverse ? 'desc' : 'asc')}`);
  return sql.join(items);
}
