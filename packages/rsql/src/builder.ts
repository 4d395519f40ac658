import type { ComparisonNode, ComparisonOperator, LogicalNode, Node, Span, Value } from './ast.ts';
import { operatorInfo } from './operators.ts';

/** Builder nodes have no source text; every span is a fresh `{ start: 0, end: 0 }`. */
function noSpan(): Span {
  return { start: 0, end: 0 };
}

function logical(type: LogicalNode['type'], nodes: Node[]): Node {
  const children = nodes.flatMap((n) => (n.type === type ? n.children : [n]));
  const [only, ...rest] = children;
  if (only === undefined) throw new RangeError(`${type}() needs at least one node`);
  if (rest.length === 0) return only;
  return { type, children, span: noSpan() };
}

/**
 * Joins nodes with AND, flattening nested ANDs; a single node is returned as is. Throws a
 * RangeError when given no node.
 *
 * @example
 * serialize(and(eq('Status', 'Open'), inList('Severity', ['High', 'Critical'])));
 * // 'Status==Open;Severity=in=(High,Critical)'
 */
export function and(...nodes: Node[]): Node {
  return logical('and', nodes);
}

/**
 * Joins nodes with OR, flattening nested ORs; a single node is returned as is. Throws a RangeError
 * when given no node.
 *
 * @example
 * serialize(and(eq('Status', 'Open'), or(eq('Severity', 'High'), isNull('Assignee'))));
 * // 'Status==Open;(Severity==High,Assignee==null)'
 */
export function or(...nodes: Node[]): Node {
  return logical('or', nodes);
}

/**
 * Any comparison, for UIs that pick the operator at run time. Throws a RangeError when the number
 * of values does not fit the operator (one, two, or at least one).
 *
 * @example
 * serialize(comparison('Severity', '=out=', ['Low'])); // 'Severity=out=(Low)'
 */
export function comparison(
  selector: string,
  operator: ComparisonOperator,
  values: readonly Value[],
): ComparisonNode {
  const { arity } = operatorInfo(operator);
  const fits =
    arity === 'one'
      ? values.length === 1
      : arity === 'two'
        ? values.length === 2
        : values.length >= 1;
  if (!fits) {
    throw new RangeError(`Operator '${operator}' cannot take ${values.length} value(s)`);
  }
  return {
    type: 'comparison',
    selector,
    operator,
    values: [...values],
    span: noSpan(),
    selectorSpan: noSpan(),
    valueSpans: values.map(noSpan),
  };
}

/**
 * @example
 * serialize(eq('Status', 'Open')); // 'Status==Open'
 */
export function eq(selector: string, value: Value): ComparisonNode {
  return comparison(selector, '==', [value]);
}

/**
 * @example
 * serialize(ne('Status', 'Closed')); // 'Status!=Closed'
 */
export function ne(selector: string, value: Value): ComparisonNode {
  return comparison(selector, '!=', [value]);
}

/**
 * @example
 * serialize(gt('Story Points', '3')); // 'Story Points=gt=3'
 */
export function gt(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=gt=', [value]);
}

/**
 * @example
 * serialize(ge('Created At', '2024-01-01')); // 'Created At=ge=2024-01-01'
 */
export function ge(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=ge=', [value]);
}

/**
 * @example
 * serialize(lt('Story Points', '8')); // 'Story Points=lt=8'
 */
export function lt(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=lt=', [value]);
}

/**
 * @example
 * serialize(le('Due Date', '2024-12-31')); // 'Due Date=le=2024-12-31'
 */
export function le(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=le=', [value]);
}

/**
 * @example
 * serialize(between('Number', '1', '10')); // 'Number=bt=(1,10)'
 */
export function between(selector: string, from: string, to: string): ComparisonNode {
  return comparison(selector, '=bt=', [from, to]);
}

/**
 * Uses `=nbt=` (parsing also accepts its synonym `!bt=`).
 *
 * @example
 * serialize(notBetween('Number', '1', '10')); // 'Number=nbt=(1,10)'
 */
export function notBetween(selector: string, from: string, to: string): ComparisonNode {
  return comparison(selector, '=nbt=', [from, to]);
}

/**
 * Throws a RangeError for an empty list.
 *
 * @example
 * serialize(inList('Severity', ['High', 'Critical'])); // 'Severity=in=(High,Critical)'
 */
export function inList(selector: string, values: readonly string[]): ComparisonNode {
  return comparison(selector, '=in=', values);
}

/**
 * Uses `=out=` (parsing also accepts its synonym `!in=`); throws a RangeError for an empty list.
 *
 * @example
 * serialize(outList('Status', ['Closed'])); // 'Status=out=(Closed)'
 */
export function outList(selector: string, values: readonly string[]): ComparisonNode {
  return comparison(selector, '=out=', values);
}

/**
 * Contains, case-sensitive; `*` is a wildcard.
 *
 * @example
 * serialize(like('Title', 'printer')); // 'Title=lk=printer'
 */
export function like(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=lk=', [value]);
}

/**
 * @example
 * serialize(notLike('Title', 'test')); // 'Title!lk=test'
 */
export function notLike(selector: string, value: string): ComparisonNode {
  return comparison(selector, '!lk=', [value]);
}

/**
 * Contains, ignoring case.
 *
 * @example
 * serialize(ilike('Title', 'Printer')); // 'Title=lki=Printer'
 */
export function ilike(selector: string, value: string): ComparisonNode {
  return comparison(selector, '=lki=', [value]);
}

/**
 * @example
 * serialize(notIlike('Title', 'test')); // 'Title!lki=test'
 */
export function notIlike(selector: string, value: string): ComparisonNode {
  return comparison(selector, '!lki=', [value]);
}

/**
 * @example
 * serialize(isNull('Assignee')); // 'Assignee==null'
 */
export function isNull(selector: string): ComparisonNode {
  return comparison(selector, '==', [null]);
}

/**
 * @example
 * serialize(notNull('Assignee')); // 'Assignee!=null'
 */
export function notNull(selector: string): ComparisonNode {
  return comparison(selector, '!=', [null]);
}
