// Compiles an RSQL filter (@wsc/rsql AST) into a SQL condition, typed by the fields it names.
// Every value is a bound parameter. Field expressions come only from the validated workspace
// definitions (never from the request), so they match the per-definition indexes exactly.
//
// Semantics: negated operators (!=, =out=, =nbt=, !lk=, !lki=) also match records where the field
// is empty, as a triager expects from "Status is not Closed".
import type { RawBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';

import type { ComparisonNode, Dialect, FilterFieldType, Node } from '@wsc/rsql';
import { canonicalOperator, isRsqlError, OPERATORS_BY_FIELD_TYPE, parse } from '@wsc/rsql';

import type { FieldResolver, FilterField, FilterKind } from './fields.ts';
import { isValidDate, normalizeDateTime } from '../lib/dates.ts';
import { ProblemException } from '../lib/errors.ts';
import { badTextIndex } from '../lib/text.ts';
import { sortExpression } from './fields.ts';

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

/** The field type whose operators (@wsc/rsql's OPERATORS_BY_FIELD_TYPE) a kind takes. */
const FIELD_TYPE_OF_KIND: Record<FilterKind, FilterFieldType> = {
  text: 'TEXT',
  number: 'NUMBER',
  date: 'DATE',
  datetime: 'DATETIME',
  timestamp: 'DATETIME',
  picklist: 'PICKLIST',
  'multi-picklist': 'MULTI_PICKLIST',
  user: 'USER_ID',
  handle: 'HANDLE',
  boolean: 'BOOLEAN',
};

const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

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

type Ctx = {
  parameter: string;
  /** Whether the node being compiled is AND-ed with other conditions (under an AND). */
  inAnd: boolean;
  /** The NUMBER ranges met under an AND, by key (collected while compiling). */
  ranges: Map<string, NumberRange>;
  /** Enumerated ranges: the distinct stored values each range holds (FilterPlan.compile). */
  values: ReadonlyMap<string, readonly string[]> | undefined;
  /** Whether to add month buckets to bounded timestamp ranges (FilterPlan.compile). */
  buckets: boolean;
};

/** The NUMBER operators that bound a range (`=bt=` bounds it on both sides). */
const RANGE_OPERATORS: ReadonlySet<string> = new Set(['=gt=', '=ge=', '=lt=', '=le=', '=bt=']);

/**
 * A range on a NUMBER field that a filter ANDs with other conditions, e.g. `Priority=le=1` in
 * `Status==Open;Priority=le=1`. Such a range can be answered by the few distinct values the field
 * holds in it (statements.ts resolveFilter enumerates them): inside the definition's GIN index an
 * equality is a lookup that skips through the other conditions' entries, while a range is a
 * partial match that collects every row in the range first (see compileComparison).
 */
export type NumberRange = {
  /** The field, operator and bounds: the key of the range's values in FilterPlan.compile. */
  key: string;
  field: FilterField;
  lower?: { value: string; inclusive: boolean };
  upper?: { value: string; inclusive: boolean };
};

function numberRange(field: FilterField, operator: string, values: string[]): NumberRange {
  const key = [field.name, operator, ...values].join('\u0000');
  const [first = '', second = ''] = values;
  switch (operator) {
    case '=gt=':
      return { key, field, lower: { value: first, inclusive: false } };
    case '=ge=':
      return { key, field, lower: { value: first, inclusive: true } };
    case '=lt=':
      return { key, field, upper: { value: first, inclusive: false } };
    case '=le=':
      return { key, field, upper: { value: first, inclusive: true } };
    default:
      return {
        key,
        field,
        lower: { value: first, inclusive: true },
        upper: { value: second, inclusive: true },
      };
  }
}

function fail(ctx: Pick<Ctx, 'parameter'>, message: string, position: number): never {
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
 * The JSON object `{key: value, ...}` for a containment filter (`data @> $1::jsonb`): one pair, or
 * the pairs of several equalities AND-ed together (distinct keys).
 *
 * @example
 * containmentJson('Status', 'Open'); // '{"Status":"Open"}'
 * containmentJson([['Status', 'Open'], ['Severity', 'High']]); // '{"Status":"Open","Severity":"High"}'
 */
export function containmentJson(
  keyOrPairs: string | ReadonlyArray<readonly [string, string]>,
  value = '',
): string {
  // A text parameter's lone surrogates reach PostgreSQL as U+FFFD (UTF-8 encoding), but JSON would
  // escape them as `\udXXX`, which jsonb rejects: replace them first so `==` behaves as `=` did.
  const wellFormed = (text: string) => text.replace(LONE_SURROGATE_RE, '\ufffd');
  const pairs = typeof keyOrPairs === 'string' ? [[keyOrPairs, value] as const] : keyOrPairs;
  return JSON.stringify(
    Object.fromEntries(pairs.map(([key, text]) => [wellFormed(key), wellFormed(text)])),
  );
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
  if (!OPERATORS_BY_FIELD_TYPE[FIELD_TYPE_OF_KIND[field.kind]].includes(operator)) {
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

  // A NUMBER range AND-ed with other conditions: noted for enumeration, and once enumerated
  // compiled as an equality on the values found. Inside the GIN index (btree_gin column) the
  // range is a partial match that reads every row in it (~190k for `Priority=le=1` at 1M: 10-12
  // ms per AND-group), while `Priority in (1)` skips through the other conditions' entries (2.5
  // ms); the same rows either way, since the values are exactly those stored in the range.
  if (field.kind === 'number' && ctx.inAnd && RANGE_OPERATORS.has(operator)) {
    const normalized = values.map((value, index) => normalizeValue(ctx, field, value, at(index)));
    const range = numberRange(field, operator, normalized);
    ctx.ranges.set(range.key, range);
    const enumerated = ctx.values?.get(range.key);
    if (enumerated) {
      if (enumerated.length === 0) return sql<SqlBool>`false`;
      return sql<SqlBool>`(${expr} in (${sql.join(enumerated.map((value) => sql`${value}::numeric`))}))`;
    }
  }

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

/**
 * `==` or `=in=` of non-null values on an exact-string field: compiled as containment, one
 * `data @> {key: value}` per value (see compileComparison).
 */
function isContainment(node: ComparisonNode, resolve: FieldResolver): boolean {
  const operator = canonicalOperator(node.operator);
  return (
    (operator === '==' || operator === '=in=') &&
    !node.values.includes(null) &&
    resolve(node.selector)?.dataKey !== undefined
  );
}

/** `==` (or a one-value `=in=`) on an exact-string field: its containment pair `[key, value]`. */
function containmentPair(
  ctx: Ctx,
  node: Node,
  resolve: FieldResolver,
): readonly [string, string] | undefined {
  if (node.type !== 'comparison' || node.values.length !== 1 || !isContainment(node, resolve))
    return undefined;
  const field = resolve(node.selector);
  const [value] = node.values;
  if (field?.dataKey === undefined || value === null || value === undefined) return undefined;
  const position = node.valueSpans[0]?.start ?? node.span.start;
  return [field.dataKey, normalizeValue(ctx, field, value, position)];
}

/**
 * The compiled children of one AND, its equalities on exact-string fields merged into one
 * containment: `data @> {"Status":"Open"} and data @> {"Severity":"High"}` becomes
 * `data @> {"Status":"Open","Severity":"High"}`, the same rows (an object contains several pairs
 * exactly when it contains each) and the same single GIN scan, but one clause for the planner to
 * estimate instead of several: each containment estimate tests the 1,000-value statistics sample,
 * and the six AND-groups of `Status=in=(New,Open,Pending);Severity=in=(High,Critical);
 * Assignee==x` took ~9 ms to plan with 18 clauses, ~3.4 ms with 6 (1M, PostgreSQL 15). Left as
 * they are when a key appears twice.
 */
function andClauses(
  ctx: Ctx,
  children: readonly Node[],
  compiled: RawBuilder<SqlBool>[],
  resolve: FieldResolver,
): RawBuilder<SqlBool>[] {
  const pairs = children.map((child) => containmentPair(ctx, child, resolve));
  const found = pairs.filter((pair) => pair !== undefined);
  if (found.length < 2 || new Set(found.map(([key]) => key)).size !== found.length) return compiled;
  const merged = sql<SqlBool>`(data @> ${containmentJson(found)}::jsonb)`;
  return [merged, ...compiled.filter((_, index) => pairs[index] === undefined)];
}

/** At most this many AND-groups when an AND of OR-groups is distributed (see distribute). */
export const MAX_DISTRIBUTED_ARMS = 16;

/** A multi-valued `=in=` on a containment field: the compiler makes it an OR of containments. */
function isContainmentIn(node: ComparisonNode, resolve: FieldResolver): boolean {
  return (
    canonicalOperator(node.operator) === '=in=' &&
    node.values.length > 1 &&
    isContainment(node, resolve)
  );
}

/** Whether a child of an AND is itself an OR (an OR node, or an `=in=` compiled as one). */
function isDisjunction(node: Node, resolve: FieldResolver): boolean {
  return node.type === 'or' || (node.type === 'comparison' && isContainmentIn(node, resolve));
}

/**
 * The node as an OR of AND-groups of comparisons (disjunctive normal form), `=in=` on containment
 * fields split into one `==` per value; undefined when that takes more than MAX_DISTRIBUTED_ARMS
 * groups. Exact in SQL's three-valued logic too (AND and OR distribute over each other).
 */
function distribute(node: Node, resolve: FieldResolver): ComparisonNode[][] | undefined {
  if (node.type === 'comparison') {
    if (!isContainmentIn(node, resolve)) return [[node]];
    return node.values.map((value, index) => [
      {
        ...node,
        operator: '==',
        values: [value],
        valueSpans: [node.valueSpans[index] ?? node.span],
      },
    ]);
  }
  let arms: ComparisonNode[][] = node.type === 'and' ? [[]] : [];
  for (const child of node.children) {
    const childArms = distribute(child, resolve);
    if (!childArms) return undefined;
    if (node.type === 'or') arms = [...arms, ...childArms];
    else arms = arms.flatMap((arm) => childArms.map((childArm) => [...arm, ...childArm]));
    if (arms.length > MAX_DISTRIBUTED_ARMS) return undefined;
  }
  return arms;
}

/** A bounded `Created At` / `Updated At` range spanning more months than this gets no bucket. */
export const MAX_RANGE_MONTHS = 16;

/**
 * The SQL expression of a timestamp column's UTC month, as the definition's GIN index holds it
 * (db/definition-indexes.ts `monthBucketExpression`).
 *
 * @example
 * sql`${monthBucket(createdAt)} in ('2025-01-01T00:00:00'::timestamp)`;
 */
export function monthBucket(field: FilterField): RawBuilder<unknown> {
  return sql`date_trunc('month', (${field.expr} at time zone 'UTC'))`;
}

/** `YYYY-MM-01T00:00:00` of each UTC month from `from` to `to`; undefined past `max`. */
function monthsBetween(from: Date, to: Date, max: number): string[] | undefined {
  const months: string[] = [];
  const last = to.getUTCFullYear() * 12 + to.getUTCMonth();
  for (let index = from.getUTCFullYear() * 12 + from.getUTCMonth(); index <= last; index += 1) {
    if (months.length === max) return undefined;
    const year = String(Math.floor(index / 12)).padStart(4, '0');
    months.push(`${year}-${String((index % 12) + 1).padStart(2, '0')}-01T00:00:00`);
  }
  return months;
}

/**
 * For each timestamp column (`Created At`, `Updated At`) that the AND-ed comparisons bound on both
 * sides, an extra condition `month(column) in (m1, ..., mk)` naming the UTC months the range
 * touches, when the same comparisons also hold a containment (`==` / `=in=` on an exact-string
 * field) for the GIN index to intersect it with. Implied by the range (which stays), so the rows
 * are the same; it lets the definition's GIN index find `Created At=bt=(30 days);Status=in=(...);
 * Severity==Critical` as a few equality lookups (6.7 ms at 1M) instead of reading every record of
 * the 30 days from the created_at btree and testing its JSON (21 ms: 55k rows).
 */
function monthBuckets(
  ctx: Ctx,
  comparisons: ComparisonNode[],
  resolve: FieldResolver,
): RawBuilder<SqlBool>[] {
  if (!ctx.buckets) return [];
  if (!comparisons.some((node) => isContainment(node, resolve))) return [];
  const bounds = new Map<string, { field: FilterField; lower?: number; upper?: number }>();
  for (const node of comparisons) {
    const field = resolve(node.selector);
    if (field?.kind !== 'timestamp' || node.values.includes(null)) continue;
    const operator = canonicalOperator(node.operator);
    const times = node.values.map((value) => Date.parse(normalizeDateTime(value ?? '') ?? ''));
    if (times.some((time) => Number.isNaN(time))) continue;
    const [first = Number.NaN, second = first] = times;
    const lower = ['=gt=', '=ge=', '=bt=', '=='].includes(operator) ? first : undefined;
    const upper = ['=lt=', '=le=', '=='].includes(operator)
      ? first
      : operator === '=bt='
        ? second
        : undefined;
    const entry = bounds.get(field.name) ?? { field };
    if (lower !== undefined) entry.lower = Math.max(entry.lower ?? lower, lower);
    if (upper !== undefined) entry.upper = Math.min(entry.upper ?? upper, upper);
    bounds.set(field.name, entry);
  }
  const extra: RawBuilder<SqlBool>[] = [];
  for (const { field, lower, upper } of bounds.values()) {
    if (lower === undefined || upper === undefined || lower > upper) continue;
    const months = monthsBetween(new Date(lower), new Date(upper), MAX_RANGE_MONTHS);
    if (!months) continue;
    const list = sql.join(months.map((month) => sql`${month}::timestamp`));
    extra.push(sql<SqlBool>`(${monthBucket(field)} in (${list}))`);
  }
  return extra;
}

function compileNode(ctx: Ctx, node: Node, resolve: FieldResolver): RawBuilder<SqlBool> {
  if (node.type === 'comparison') return compileComparison(ctx, node, resolve);
  // The children of an AND are AND-ed with each other; an OR's children with what the OR is.
  const inner = node.type === 'and' && !ctx.inAnd ? { ...ctx, inAnd: true } : ctx;
  // An AND of two or more OR-groups, e.g. `(Status==New,Status==Open);(Severity==Critical,
  // Priority=le=1)`, is distributed into an OR of AND-groups. PostgreSQL serves one OR with a
  // BitmapOr, but will not intersect two of them: it reads every row of one group and filters the
  // other on the heap (61k rows, 81 ms at 1M). Distributed, each AND-group is one scan of the
  // definition's GIN index, which ANDs its conditions inside the index (containments, trigrams
  // and NUMBER columns, see db/definition-indexes.ts): ~6k rows read, ~25 ms. A single OR-group
  // is left alone (its BitmapOr is already the plan), and so is a filter that would need more
  // than MAX_DISTRIBUTED_ARMS groups. The filter is compiled as written first, so that a problem
  // is reported at the leftmost bad value whatever the distribution's order.
  const parts = node.children.map((child) => compileNode(inner, child, resolve));
  if (
    node.type === 'and' &&
    node.children.filter((child) => isDisjunction(child, resolve)).length >= 2
  ) {
    const arms = distribute(node, resolve);
    if (arms) {
      const groups = arms.map(
        (arm) =>
          sql<SqlBool>`(${sql.join(
            [
              ...andClauses(
                inner,
                arm,
                arm.map((comparison) => compileComparison(inner, comparison, resolve)),
                resolve,
              ),
              ...monthBuckets(inner, arm, resolve),
            ],
            sql.raw(' and '),
          )})`,
      );
      return sql<SqlBool>`(${sql.join(groups, sql.raw(' or '))})`;
    }
  }
  if (node.type === 'or') return sql<SqlBool>`(${sql.join(parts, sql.raw(' or '))})`;
  const comparisons = node.children.filter((child) => child.type === 'comparison');
  const buckets = monthBuckets(inner, comparisons, resolve);
  const clauses = andClauses(inner, node.children, parts, resolve);
  return sql<SqlBool>`(${sql.join([...clauses, ...buckets], sql.raw(' and '))})`;
}

export type CompileOptions = {
  /** The query parameter the filter came from, named in errors; default `filter`. */
  parameter?: string;
  /** `hosted`: only the published RSQL (no `=out=`, `=nbt=`, `(a,b)` lists or grouping). */
  dialect?: Dialect;
};

/** A parsed and validated filter, to compile once its NUMBER ranges are known (or not). */
export type FilterPlan = {
  /** The NUMBER ranges AND-ed with other conditions, which may be enumerated. */
  ranges: NumberRange[];
  /**
   * The SQL condition, as written without `resolution`. With it, a range whose key `values` has
   * is compiled as equality on those values (none: false), and with `buckets` a bounded
   * timestamp range next to a containment gets its month buckets (see monthBuckets): the forms
   * the definition's GIN index serves when it has btree_gin columns.
   */
  compile: (resolution?: FilterResolution) => RawBuilder<SqlBool>;
};

/** What statements.ts resolveFilter learned: enumerated ranges, and whether to add buckets. */
export type FilterResolution = {
  values: ReadonlyMap<string, readonly string[]>;
  buckets: boolean;
};

/**
 * Parses and validates an RSQL filter. Throws FilterError (400 with `position`) for syntax errors,
 * syntax outside the dialect, unknown selectors, operators invalid for a field's type and
 * malformed values.
 *
 * @example
 * const plan = planFilter('Status==Open;Priority=le=1', resolver);
 * plan.ranges; // [{ key, field: Priority, upper: { value: '1', inclusive: true } }]
 * const where = plan.compile({ values: new Map([[plan.ranges[0].key, ['0', '1']]]), buckets: true });
 */
export function planFilter(
  input: string,
  resolve: FieldResolver,
  options: CompileOptions = {},
): FilterPlan {
  const parameter = options.parameter ?? 'filter';
  const base = { parameter, inAnd: false, values: undefined, buckets: false };
  // Also refused at the edge (text.ts); here too, so that no caller can bind such a value.
  const bad = badTextIndex(input);
  if (bad >= 0) fail(base, 'A NUL character or an unpaired surrogate cannot be searched for', bad);
  let ast: Node;
  try {
    ast = parse(input, { dialect: options.dialect ?? 'extended' });
  } catch (error) {
    if (isRsqlError(error)) fail(base, error.message, error.position);
    throw error;
  }
  const ranges = new Map<string, NumberRange>();
  // Compiled once here, which validates every value and collects the ranges.
  const written = compileNode({ ...base, ranges }, ast, resolve);
  return {
    ranges: [...ranges.values()],
    compile: (resolution) =>
      resolution && (resolution.values.size > 0 || resolution.buckets)
        ? compileNode({ ...base, ...resolution, ranges: new Map() }, ast, resolve)
        : written,
  };
}

/**
 * Parses and compiles an RSQL filter, every range as written. Throws FilterError as planFilter.
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
  return planFilter(input, resolve, options).compile();
}
