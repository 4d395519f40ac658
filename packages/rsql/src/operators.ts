import type { ComparisonOperator } from './ast.ts';

/** How many values an operator takes: exactly one, exactly two, or one or more. */
export type OperatorArity = 'one' | 'two' | 'many';

export interface OperatorInfo {
  op: ComparisonOperator;
  arity: OperatorArity;
  /** A short English label for pickers, e.g. `equals`, `between`, `contains`. */
  label: string;
}

const entry = (op: ComparisonOperator, arity: OperatorArity, label: string): OperatorInfo =>
  Object.freeze({ op, arity, label });

/**
 * Every comparison operator, in the order a filter builder would offer them. `!bt=` / `=nbt=` and
 * `=out=` / `!in=` are synonyms; `canonicalOperator` maps them onto `=nbt=` and `=out=`.
 *
 * @example
 * OPERATORS.filter((o) => o.arity === 'many').map((o) => o.op); // ['=in=', '=out=', '!in=']
 */
export const OPERATORS: readonly OperatorInfo[] = Object.freeze([
  entry('==', 'one', 'equals'),
  entry('!=', 'one', 'does not equal'),
  entry('=gt=', 'one', 'greater than'),
  entry('=ge=', 'one', 'greater than or equal to'),
  entry('=lt=', 'one', 'less than'),
  entry('=le=', 'one', 'less than or equal to'),
  entry('=bt=', 'two', 'between'),
  entry('!bt=', 'two', 'not between'),
  entry('=nbt=', 'two', 'not between'),
  entry('=in=', 'many', 'in'),
  entry('=out=', 'many', 'not in'),
  entry('!in=', 'many', 'not in'),
  entry('=lk=', 'one', 'contains'),
  entry('!lk=', 'one', 'does not contain'),
  entry('=lki=', 'one', 'contains (ignoring case)'),
  entry('!lki=', 'one', 'does not contain (ignoring case)'),
]);

const BY_OP = new Map<string, OperatorInfo>(OPERATORS.map((info) => [info.op, info]));

/**
 * @example
 * isComparisonOperator('=in='); // true
 * isComparisonOperator('=foo='); // false
 */
export function isComparisonOperator(s: string): s is ComparisonOperator {
  return BY_OP.has(s);
}

/**
 * @example
 * operatorInfo('=bt=').arity; // 'two'
 */
export function operatorInfo(op: ComparisonOperator): OperatorInfo {
  const info = BY_OP.get(op);
  if (info === undefined) throw new TypeError(`Not an RSQL operator: ${String(op)}`);
  return info;
}

/**
 * Maps the synonyms onto one spelling (`!bt=` -> `=nbt=`, `!in=` -> `=out=`), so that a consumer
 * such as a SQL translator needs one case per meaning.
 *
 * @example
 * canonicalOperator('!in='); // '=out='
 * canonicalOperator('=='); // '=='
 */
export function canonicalOperator(op: ComparisonOperator): ComparisonOperator {
  if (op === '!bt=') return '=nbt=';
  if (op === '!in=') return '=out=';
  return op;
}

/** The operators of the hosted API's published dialect: all but the `=nbt=` / `=out=` spellings. */
const HOSTED: ReadonlySet<ComparisonOperator> = new Set(
  OPERATORS.map((info) => info.op).filter((op) => op !== '=nbt=' && op !== '=out='),
);

/**
 * True for the operators the hosted API's published contract shows (`!bt=` and `!in=`, never
 * `=nbt=` and `=out=`).
 *
 * @example
 * isHostedOperator('!in='); // true
 * isHostedOperator('=out='); // false
 */
export function isHostedOperator(op: ComparisonOperator): boolean {
  return HOSTED.has(op);
}

/**
 * The spelling of an operator in a dialect: `hosted` writes the synonyms as `!bt=` and `!in=`.
 *
 * @example
 * dialectOperator('=out=', 'hosted'); // '!in='
 * dialectOperator('=out=', 'extended'); // '=out='
 */
export function dialectOperator(
  op: ComparisonOperator,
  dialect: 'extended' | 'hosted',
): ComparisonOperator {
  if (dialect !== 'hosted') return op;
  if (op === '=nbt=') return '!bt=';
  if (op === '=out=') return '!in=';
  return op;
}

/**
 * The workspace field types (AspectFieldType) a filter can name, as far as they differ in the
 * operators they take. Read-only fields use them too: a record's handle is `HANDLE`, its audit
 * stamps `DATETIME` and `USER_ID`. Any other type compares as text.
 */
export type FilterFieldType =
  | 'TEXT'
  | 'NUMBER'
  | 'DATE'
  | 'DATETIME'
  | 'PICKLIST'
  | 'MULTI_PICKLIST'
  | 'USER_ID'
  | 'HANDLE'
  | 'BOOLEAN';

const RANGES: readonly ComparisonOperator[] = ['=gt=', '=ge=', '=lt=', '=le=', '=bt=', '=nbt='];
const LIKES: readonly ComparisonOperator[] = ['=lk=', '!lk=', '=lki=', '!lki='];
const CHOICES: readonly ComparisonOperator[] = Object.freeze(['==', '!=', '=in=', '=out=']);
const ORDERED: readonly ComparisonOperator[] = Object.freeze([
  '==',
  '!=',
  ...RANGES,
  '=in=',
  '=out=',
]);
const NAMES: readonly ComparisonOperator[] = Object.freeze([...CHOICES, ...LIKES]);

/**
 * The operators each field type takes, in the order a filter builder offers them, each meaning
 * once (canonical spellings: `=nbt=` and `=out=`, never their synonyms `!bt=` and `!in=`). The
 * one table of the project: the API refuses any other operator on a field of the type (400) and
 * the web filter builder offers exactly these. On a boolean, `!=` matches the other value and the
 * empty field, as every negation does. Text compares in code-point order for `=gt=` ... `=nbt=`;
 * a multi-picklist's `==` means "has all of" and `=in=` "has any of".
 *
 * @example
 * OPERATORS_BY_FIELD_TYPE.BOOLEAN; // ['==', '!=']
 */
export const OPERATORS_BY_FIELD_TYPE: Readonly<
  Record<FilterFieldType, readonly ComparisonOperator[]>
> = Object.freeze({
  TEXT: Object.freeze<ComparisonOperator[]>(['==', '!=', ...LIKES, '=in=', '=out=', ...RANGES]),
  NUMBER: ORDERED,
  DATE: ORDERED,
  DATETIME: ORDERED,
  PICKLIST: CHOICES,
  MULTI_PICKLIST: CHOICES,
  USER_ID: NAMES,
  HANDLE: NAMES,
  BOOLEAN: Object.freeze(['==', '!='] satisfies ComparisonOperator[]),
});

/**
 * The operators a field of this type takes (OPERATORS_BY_FIELD_TYPE); a type the table does not
 * name (`HTML`, `JSON`, ...) compares as text.
 *
 * @example
 * operatorsForFieldType('PICKLIST'); // ['==', '!=', '=in=', '=out=']
 * operatorsForFieldType('HTML'); // the TEXT operators
 */
export function operatorsForFieldType(type: string): readonly ComparisonOperator[] {
  return Object.hasOwn(OPERATORS_BY_FIELD_TYPE, type)
    ? OPERATORS_BY_FIELD_TYPE[type as FilterFieldType]
    : OPERATORS_BY_FIELD_TYPE.TEXT;
}
