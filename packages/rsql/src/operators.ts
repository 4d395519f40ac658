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
