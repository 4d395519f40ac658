// Compiles an RSQL filter (@wsc/rsql AST) into a SQL condition, typed by the fields it names.
// Every value is a bound parameter. Field expressions come only from the validated workspace
// definitions (never from the request), so they match the per-definition indexes exactly.
//
// Semantics: negated operators (!=, =out=, =nbt=, !lk=, !lki=) also match records where the field
// is empty, as a triager expects from "Status is not Closed".
import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';

import type { ComparisonNode, Dialect, Node } from '@wsc/rsql';
import { canonicalOperator, isRsqlError, parse } from '@wsc/rsql';

import { ProblemException } from './errors.ts';
import { badTextIndex } from './text.ts';

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

/** RSQL or sort problem: 400 with the character position in the parameter. */
export class FilterError extends ProblemException {
  constructor(parameter: string, message: string, position: number) {
    super(400, {
      detail: `${message} (at position ${position} of ${parameter})`,
      errors: [{ field: parameter, message }],
      extra: { position, parameter },
    });
  }
}

const OPERATORS_BY_KIND: Record<FilterKind, ReadonlySet<string>> = {
  text: new Set([
    '==',
    '!=',
    '=gt=',
    '=ge=',
    '=lt=',
    '=le=',
    '=bt=',
    '=nbt=',
    '=in=',
    '=out=',
    '=lk=',
    '!lk=',
    '=lki=',
    '!lki=',
  ]),
  user: new Set(['==', '!=', '=in=', '=out=', '=lk=', '!lk=', '=lki=', '!lki=']),
  handle: new Set(['==', '!=', '=in=', '=out=', '=lk=', '!lk=', '=lki=', '!lki=']),
  number: new Set(['==', '!=', '=gt=', '=ge=', '=lt=', '=le=', '=bt=', '=nbt=', '=in=', '=out=']),
  date: new Set(['==', '!=', '=gt=', '=ge=', '=lt=', '=le=', '=bt=', '=nbt=', '=in=', '=out=']),
  datetime: new Set(['==', '!=', '=gt=', '=ge=', '=lt=', '=le=', '=bt=', '=nbt=', '=in=', '=out=']),
  timestamp: new Set([
    '==',
    '!=',
    '=gt=',
    '=ge=',
    '=lt=',
    '=le=',
    '=bt=',
    '=nbt=',
    '=in=',
    '=out=',
  ]),
  picklist: new Set(['==', '!=', '=in=', '=out=']),
  'multi-picklist': new Set(['==', '!=', '=in=', '=out=']),
  boolean: new Set(['==', '!=']),
};

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * Whether `YYYY-MM-DD` names a real calendar day.
 *
 * @example
 * isValidDate('2024-02-30'); // false
 */
export function isValidDate(value: string): boolean {
  const match = DATE_RE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Normalizes a datetime to `YYYY-MM-DDTHH:MM:SS.SSSZ` (accepts a bare date as midnight UTC and
 * fewer fraction digits), or undefined when it is not one.
 *
 * @example
 * normalizeDateTime('2024-05-01'); // '2024-05-01T00:00:00.000Z'
 */
export function normalizeDateTime(value: string): string | undefined {
  if (isValidDate(value)) return `${value}T00:00:00.000Z`;
  if (!DATETIME_RE.exec(value)) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  // Reject rollovers such as 24:00:00 or 02-30: the normalized text must agree on date and time.
  return iso.slice(0, 19) === value.slice(0, 19) ? iso : undefined;
}

/**
 * LIKE pattern for "contains": LIKE metacharacters are escaped, `*` becomes a wildcard.
 *
 * @example
 * containsPattern('50%*off'); // '%50\%%off%'
 */
export function containsPattern(value: string): string {
  const escaped = value.replace(/[\\%_]/g, (char) => `\\${char}`).replaceAll('*', '%');
  return `%${escaped}%`;
}

type Ctx = { parameter: string };

function fail(ctx: Ctx, message: string, position: number): never {
  throw new FilterError(ctx.parameter, message, position);
}

/**
 * One RSQL value of a field, validated and normalised to the text stored or compared (a 400 at the
 * value's position when it is malformed).
 */
function normalizeValue(ctx: Ctx, field: FilterField, value: string, position: number): string {
  switch (field.kind) {
    case 'number':
      if (!NUMBER_RE.test(value) || value.length > 40)
        fail(ctx, `"${field.name}" expects a number`, position);
      // PostgreSQL's numeric overflows past about 1e131072 or 1e-16383 (and a stored JSON number
      // is a double): an exponent past +-1000 can match nothing, and must not reach the cast.
      if (Math.abs(Number(/[eE]([+-]?\d+)$/.exec(value)?.[1] ?? 0)) > 1000)
        fail(ctx, `"${field.name}" expects a number (exponent within +-1000)`, position);
      return value;
    case 'date':
      if (!isValidDate(value)) fail(ctx, `"${field.name}" expects a date YYYY-MM-DD`, position);
      return value;
    case 'datetime':
    case 'timestamp': {
      const normalized = normalizeDateTime(value);
      if (!normalized)
        fail(ctx, `"${field.name}" expects a date-time YYYY-MM-DDTHH:MM:SS.SSSZ`, position);
      return normalized;
    }
    case 'picklist':
    case 'multi-picklist':
      if (!field.values?.includes(value)) {
        fail(
          ctx,
          `"${value}" is not a value of "${field.name}" (${(field.values ?? []).join(', ')})`,
          position,
        );
      }
      return value;
    case 'boolean': {
      const lowered = value.toLowerCase();
      if (lowered !== 'true' && lowered !== 'false')
        fail(ctx, `"${field.name}" expects true or false`, position);
      return lowered;
    }
    default:
      return value;
  }
}

/** The typed SQL value for one RSQL value of a field, or a 400 at the value's position. */
function bindValue(
  ctx: Ctx,
  field: FilterField,
  value: string,
  position: number,
): RawBuilder<unknown> {
  const normalized = normalizeValue(ctx, field, value, position);
  if (field.kind === 'number') return sql`${normalized}::numeric`;
  if (field.kind === 'timestamp') return sql`${normalized}::timestamptz`;
  return sql`${normalized}`;
}

/**
 * The JSON object `{key: value}` for a containment filter (`data @> $1::jsonb`).
 *
 * @example
 * containmentJson('Status', 'Open'); // '{"Status":"Open"}'
 */
export function containmentJson(key: string, value: string): string {
  // A text parameter's lone surrogates reach PostgreSQL as U+FFFD (UTF-8 encoding), but JSON would
  // escape them as `\udXXX`, which jsonb rejects: replace them first so `==` behaves as `=` did.
  const wellFormed = (text: string) => text.replace(LONE_SURROGATE_RE, '\ufffd');
  return JSON.stringify({ [wellFormed(key)]: wellFormed(value) });
}

const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function orNull(expr: RawBuilder<unknown>, condition: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${expr} is null or ${condition})`;
}

function compileComparison(
  ctx: Ctx,
  node: ComparisonNode,
  resolve: FieldResolver,
): RawBuilder<SqlBool> {
  const field = resolve(node.selector);
  if (!field) fail(ctx, `Unknown field "${node.selector}"`, node.selectorSpan.start);
  const operator = canonicalOperator(node.operator);
  const operatorPosition = node.selectorSpan.end;
  if (!OPERATORS_BY_KIND[field.kind].has(operator)) {
    fail(
      ctx,
      `Operator ${node.operator} is not valid for "${field.name}" (${field.kind})`,
      operatorPosition,
    );
  }
  // Numbers compare as numbers (the expression matches the numeric expression indexes).
  const expr = sortExpression(field);
  const positions = node.valueSpans.map((span) => span.start);
  const at = (index: number) => positions[index] ?? operatorPosition;

  // `null` is only meaningful as "is empty" / "is not empty".
  const nullIndex = node.values.findIndex((value) => value === null);
  if (nullIndex >= 0) {
    if (operator === '==' && node.values.length === 1) return sql<SqlBool>`(${expr} is null)`;
    if (operator === '!=' && node.values.length === 1) return sql<SqlBool>`(${expr} is not null)`;
    fail(ctx, 'null is only allowed with == and !=', at(nullIndex));
  }
  const values = node.values as string[];
  const bound = (index: number) => bindValue(ctx, field, values[index] ?? '', at(index));

  if (field.kind === 'multi-picklist') {
    const array = sql`string_to_array(${expr}, ', ')`;
    const list = sql`array[${sql.join(values.map((_, index) => bound(index)))}]::text[]`;
    switch (operator) {
      case '==':
        return sql<SqlBool>`(${array} @> ${list})`;
      case '!=':
        return orNull(expr, sql<SqlBool>`not (${array} @> ${list})`);
      case '=in=':
        return sql<SqlBool>`(${array} && ${list})`;
      default:
        return orNull(expr, sql<SqlBool>`not (${array} && ${list})`);
    }
  }

  if (field.dataKey !== undefined && (operator === '==' || operator === '=in=')) {
    const key = field.dataKey;
    // Validated and normalised (booleans to lower case) exactly as for `=`; the JSON is built here
    // and bound as one parameter, so values never reach the SQL text.
    const contains = (index: number) => {
      const value = normalizeValue(ctx, field, values[index] ?? '', at(index));
      return sql<SqlBool>`(data @> ${containmentJson(key, value)}::jsonb)`;
    };
    if (operator === '==') return contains(0);
    return sql<SqlBool>`(${sql.join(
      values.map((_, index) => contains(index)),
      sql.raw(' or '),
    )})`;
  }

  switch (operator) {
    case '==':
      return sql<SqlBool>`(${expr} = ${bound(0)})`;
    case '!=':
      return orNull(expr, sql<SqlBool>`${expr} <> ${bound(0)}`);
    case '=gt=':
      return sql<SqlBool>`(${expr} > ${bound(0)})`;
    case '=ge=':
      return sql<SqlBool>`(${expr} >= ${bound(0)})`;
    case '=lt=':
      return sql<SqlBool>`(${expr} < ${bound(0)})`;
    case '=le=':
      return sql<SqlBool>`(${expr} <= ${bound(0)})`;
    case '=bt=':
      return sql<SqlBool>`(${expr} between ${bound(0)} and ${bound(1)})`;
    case '=nbt=':
      return orNull(expr, sql<SqlBool>`not (${expr} between ${bound(0)} and ${bound(1)})`);
    case '=in=':
      return sql<SqlBool>`(${expr} in (${sql.join(values.map((_, index) => bound(index)))}))`;
    case '=out=':
      return orNull(
        expr,
        sql<SqlBool>`${expr} not in (${sql.join(values.map((_, index) => bound(index)))})`,
      );
    case '=lk=':
      return sql<SqlBool>`(${expr} like ${containsPattern(values[0] ?? '')} escape '\\')`;
    case '!lk=':
      return orNull(
        expr,
        sql<SqlBool>`${expr} not like ${containsPattern(values[0] ?? '')} escape '\\'`,
      );
    case '=lki=':
      return sql<SqlBool>`(${expr} ilike ${containsPattern(values[0] ?? '')} escape '\\')`;
    case '!lki=':
      return orNull(
        expr,
        sql<SqlBool>`${expr} not ilike ${containsPattern(values[0] ?? '')} escape '\\'`,
      );
    default:
      return fail(ctx, `Operator ${node.operator} is not supported`, operatorPosition);
  }
}

function compileNode(ctx: Ctx, node: Node, resolve: FieldResolver): RawBuilder<SqlBool> {
  if (node.type === 'comparison') return compileComparison(ctx, node, resolve);
  const parts = node.children.map((child) => compileNode(ctx, child, resolve));
  return sql<SqlBool>`(${sql.join(parts, sql.raw(node.type === 'and' ? ' and ' : ' or '))})`;
}

export type CompileOptions = {
  /** The query parameter the filter came from, named in errors; default `filter`. */
  parameter?: string;
  /** `hosted`: only the published RSQL (no `=out=`, `=nbt=`, `(a,b)` lists or grouping). */
  dialect?: Dialect;
};

/**
 * Parses and compiles an RSQL filter. Throws FilterError (400 with `position`) for syntax errors,
 * syntax outside the dialect, unknown selectors, operators invalid for a field's type and
 * malformed values.
 *
 * @example
 * const where = compileFilter('Status==Open;Priority=gt=2', resolver);
 * db.selectFrom('records').selectAll().where(where);
 */
export function compileFilter(
  input: string,
  resolve: FieldResolver,
  options: CompileOptions = {},
): RawBuilder<SqlBool> {
  const ctx = { parameter: options.parameter ?? 'filter' };
  // Also refused at the edge (text.ts); here too, so that no caller can bind such a value.
  const bad = badTextIndex(input);
  if (bad >= 0) fail(ctx, 'A NUL character or an unpaired surrogate cannot be searched for', bad);
  let ast: Node;
  try {
    ast = parse(input, { dialect: options.dialect ?? 'extended' });
  } catch (error) {
    if (isRsqlError(error)) fail(ctx, error.message, error.position);
    throw error;
  }
  return compileNode(ctx, ast, resolve);
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
  const ctx = { parameter };
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
    if (name === '') fail(ctx, 'Empty sort key', offset + leading);
    const field = resolve(name);
    if (!field) fail(ctx, `Unknown sort field "${name}"`, offset + leading);
    if (keys.some((key) => key.field.name === field.name))
      fail(ctx, `Duplicate sort field "${name}"`, offset + leading);
    keys.push({ field, descending });
    offset += raw.length + 1;
  }
  if (keys.length > 5) fail(ctx, 'At most 5 sort fields', 0);
  return keys;
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
