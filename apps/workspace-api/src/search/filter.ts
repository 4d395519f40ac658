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

/** At most this many AND-groups when an AND of OR-groups is distributed (see distribute). */
export const MAX_DISTRIBUTED_ARMS = 16;

/** A multi-valued `=in=` on a containment field: the compiler makes it an OR of containments. */
function isContainmentIn(node: ComparisonNode, resolve: FieldResolver): boolean {
  return (
    canonicalOperator(node.operator) === '=in=' &&
    node.values.length > 1 &&
    !node.values.includes(null) &&
    resolve(node.selector)?.dataKey !== undefined
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

function compileNode(ctx: Ctx, node: Node, resolve: FieldResolver): RawBuilder<SqlBool> {
  if (node.type === 'comparison') return compileComparison(ctx, node, resolve);
  // An AND of two or more OR-groups, e.g. `(Status==New,Status==Open);(Severity==Critical,
  // Priority=le=1)`, is distributed into an OR of AND-groups. PostgreSQL serves one OR with a
  // BitmapOr, but will not intersect two of them: it reads every row of one group and filters the
  // other on the heap (61k rows, 81 ms at 1M). Distributed, each AND-group is one scan of the
  // definition's GIN index, which ANDs its conditions inside the index (containments, trigrams
  // and NUMBER columns, see db/definition-indexes.ts): ~6k rows read, ~25 ms. A single OR-group
  // is left alone (its BitmapOr is already the plan), and so is a filter that would need more
  // than MAX_DISTRIBUTED_ARMS groups. The filter is compiled as written first, so that a problem
  // is reported at the leftmost bad value whatever the distribution's order.
  const parts = node.children.map((child) => compileNode(ctx, child, resolve));
  if (
    node.type === 'and' &&
    node.children.filter((child) => isDisjunction(child, resolve)).length >= 2
  ) {
    const arms = distribute(node, resolve);
    if (arms) {
      const groups = arms.map(
        (arm) =>
          sql<SqlBool>`(${sql.join(
            arm.map((comparison) => compileComparison(ctx, comparison, resolve)),
            sql.raw(' and '),
          )})`,
      );
      return sql<SqlBool>`(${sql.join(groups, sql.raw(' or '))})`;
    }
  }
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
