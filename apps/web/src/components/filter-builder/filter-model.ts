import type { ComparisonNode, ComparisonOperator, LogicalNode, Node, Value } from '@wsc/rsql';
import { parse, serialize } from '@wsc/rsql';

import type { OperatorChoice } from './operators.ts';

/** One row of the builder: `field operator values`. */
export interface FilterCondition {
  kind: 'condition';
  id: string;
  field: string;
  operator: ComparisonOperator;
  /** `[null]` with `==` / `!=` is a null check; empty strings mark unfinished inputs. */
  values: Value[];
}

/** A nested AND/OR group of conditions and groups. */
export interface FilterGroup {
  kind: 'group';
  id: string;
  combinator: 'and' | 'or';
  children: FilterItem[];
}

export type FilterItem = FilterCondition | FilterGroup;

let nextId = 0;
/** Stable React keys for builder rows; never part of the filter's meaning. */
export function newId(): string {
  nextId += 1;
  return `f${nextId}`;
}

/**
 * An empty root group.
 *
 * @example
 * emptyGroup(); // { kind: 'group', combinator: 'and', children: [] }
 */
export function emptyGroup(combinator: 'and' | 'or' = 'and'): FilterGroup {
  return { kind: 'group', id: newId(), combinator, children: [] };
}

/**
 * The builder's view of a parsed RSQL tree: always a root group, so that the user can add
 * conditions next to a single comparison.
 *
 * @example
 * astToGroup(parse('Status==Open;Severity=in=(High,Critical)')).children.length; // 2
 */
export function astToGroup(node: Node | null): FilterGroup {
  if (node === null) return emptyGroup();
  if (node.type === 'comparison') return { ...emptyGroup(), children: [toItem(node)] };
  return toItem(node) as FilterGroup;
}

function toItem(node: Node): FilterItem {
  if (node.type === 'comparison') {
    return {
      kind: 'condition',
      id: newId(),
      field: node.selector,
      operator: node.operator,
      values: [...node.values],
    };
  }
  return { kind: 'group', id: newId(), combinator: node.type, children: node.children.map(toItem) };
}

/**
 * True when a condition has every value it needs (null checks need none).
 *
 * @example
 * isComplete({ kind: 'condition', id: 'a', field: 'Title', operator: '=lk=', values: [''] }); // false
 */
export function isComplete(condition: FilterCondition): boolean {
  if (condition.field === '') return false;
  if (condition.values.length === 0) return false;
  return condition.values.every((value) => value === null || value !== '');
}

const NO_SPAN = { start: 0, end: 0 };

/**
 * The RSQL tree of a builder group, or `null` when it holds no finished condition. Groups with a
 * single child collapse into it and same-kind nesting flattens, which is exactly how `parse`
 * reads the text back: builder -> RSQL -> builder is therefore lossless.
 *
 * @example
 * serialize(groupToAst(group) ?? ...);
 */
export function groupToAst(group: FilterGroup): Node | null {
  const children: Node[] = [];
  for (const child of group.children) {
    const node = child.kind === 'condition' ? conditionToAst(child) : groupToAst(child);
    if (node === null) continue;
    // `a;(b;c)` parses as one `and` of three: build it that way so that the round trip is exact.
    if (node.type === group.combinator) children.push(...(node as LogicalNode).children);
    else children.push(node);
  }
  if (children.length === 0) return null;
  if (children.length === 1) return children[0] ?? null;
  const logical: LogicalNode = { type: group.combinator, children, span: NO_SPAN };
  return logical;
}

function conditionToAst(condition: FilterCondition): ComparisonNode | null {
  if (!isComplete(condition)) return null;
  return {
    type: 'comparison',
    selector: condition.field,
    operator: condition.operator,
    values: condition.values,
    span: NO_SPAN,
    selectorSpan: NO_SPAN,
    valueSpans: condition.values.map(() => NO_SPAN),
  };
}

/**
 * The RSQL text of a builder group; '' when there is nothing to filter on.
 *
 * @example
 * groupToRsql(astToGroup(parse('Status==Open'))); // 'Status==Open'
 */
export function groupToRsql(group: FilterGroup): string {
  const node = groupToAst(group);
  return node === null ? '' : serialize(node);
}

/**
 * Parses RSQL text into a builder group; '' gives an empty group. Throws `RsqlError` (with
 * `position`) on bad text.
 *
 * @example
 * rsqlToGroup('Priority=gt=2').children[0]; // { field: 'Priority', operator: '=gt=', values: ['2'] }
 */
export function rsqlToGroup(text: string): FilterGroup {
  return text.trim() === '' ? emptyGroup() : astToGroup(parse(text));
}

/**
 * The builder's menu choice for a condition: null checks show as "is empty" / "is not empty".
 *
 * @example
 * operatorChoiceOf({ ..., operator: '==', values: [null] }); // 'is-empty'
 */
export function operatorChoiceOf(
  condition: Pick<FilterCondition, 'operator' | 'values'>,
): OperatorChoice {
  if (condition.values.length === 1 && condition.values[0] === null) {
    if (condition.operator === '==') return 'is-empty';
    if (condition.operator === '!=') return 'is-not-empty';
  }
  return condition.operator;
}

/**
 * Applies an operator choice to a condition, keeping the values that still fit the new arity.
 *
 * @example
 * withOperator(condition, '=bt=').values; // ['10', '']
 */
export function withOperator(condition: FilterCondition, choice: OperatorChoice): FilterCondition {
  if (choice === 'is-empty') return { ...condition, operator: '==', values: [null] };
  if (choice === 'is-not-empty') return { ...condition, operator: '!=', values: [null] };
  const current = condition.values.filter((value): value is string => value !== null);
  const first = current[0] ?? '';
  switch (choice) {
    case '=bt=':
    case '!bt=':
    case '=nbt=':
      return { ...condition, operator: choice, values: [first, current[1] ?? ''] };
    case '=in=':
    case '=out=':
    case '!in=':
      return { ...condition, operator: choice, values: current.length > 0 ? current : [''] };
    default:
      return { ...condition, operator: choice, values: [first] };
  }
}

/**
 * Replaces the item with `id` anywhere in the tree (or removes it when `next` is null).
 *
 * @example
 * updateItem(root, condition.id, { ...condition, field: 'Status' });
 */
export function updateItem(group: FilterGroup, id: string, next: FilterItem | null): FilterGroup {
  const children: FilterItem[] = [];
  for (const child of group.children) {
    if (child.id === id) {
      if (next !== null) children.push(next);
    } else if (child.kind === 'group') {
      children.push(updateItem(child, id, next));
    } else {
      children.push(child);
    }
  }
  return { ...group, children };
}

/**
 * Counts finished conditions, for the toolbar's "Filter (3)" badge.
 *
 * @example
 * countConditions(rsqlToGroup('a==1;(b==2,c==3)')); // 3
 */
export function countConditions(group: FilterGroup): number {
  return group.children.reduce(
    (sum, child) =>
      sum + (child.kind === 'group' ? countConditions(child) : isComplete(child) ? 1 : 0),
    0,
  );
}

/**
 * Whether any condition of the group or of its nested groups is unfinished (it is left out of
 * the filter).
 *
 * @example
 * hasIncomplete(rsqlToGroup('Status==Open')); // false
 */
export function hasIncomplete(group: FilterGroup): boolean {
  return group.children.some((child) =>
    child.kind === 'group' ? hasIncomplete(child) : !isComplete(child),
  );
}
