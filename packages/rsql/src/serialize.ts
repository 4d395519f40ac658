import type { ComparisonNode, Node, StrippedNode, Value } from './ast.ts';
import { operatorInfo } from './operators.ts';
import { isPlainCode, KEYWORDS, quote } from './syntax.ts';

/**
 * Writes the canonical RSQL text of a node: `;` and `,` (never the keywords), parentheses only
 * around an OR inside an AND, multi-value operators always in the `(a,b)` form, `null` bare, and
 * single quotes exactly where the text would not read back identically (see `needsQuotes`).
 * `parse(serialize(node))` equals `node` up to spans for every canonical node.
 *
 * Logical nodes with one child are written as that child; with none they throw a RangeError.
 *
 * @example
 * serialize(and(eq('Status', 'Open'), or(inList('Severity', ['High', 'Critical']), isNull('Assignee'))));
 * // "Status==Open;(Severity=in=(High,Critical),Assignee==null)"
 * @example
 * serialize(eq('Due Date', "O'Brien")); // "Due Date=='O\\'Brien'"
 */
export function serialize(node: Node): string {
  const effective = unwrap(node);
  if (effective.type === 'comparison') return serializeComparison(effective);
  const separator = effective.type === 'and' ? ';' : ',';
  return effective.children
    .map((child) => {
      const text = serialize(child);
      return effective.type === 'and' && unwrap(child).type === 'or' ? `(${text})` : text;
    })
    .join(separator);
}

/** Skips logical nodes with a single child, which are written as that child. */
function unwrap(node: Node): Node {
  let current = node;
  while (current.type !== 'comparison') {
    const [only, ...rest] = current.children;
    if (only === undefined) throw new RangeError(`An '${current.type}' node needs children`);
    if (rest.length > 0) return current;
    current = only;
  }
  return current;
}

function serializeComparison(node: ComparisonNode): string {
  const [only, ...rest] = node.values;
  const values =
    operatorInfo(node.operator).arity === 'one' && only !== undefined && rest.length === 0
      ? serializeValue(only)
      : `(${node.values.map(serializeValue).join(',')})`;
  return `${serializeSelector(node.selector)}${node.operator}${values}`;
}

/**
 * A value is written bare unless it is empty, one of the words `null` / `and` / `or`, or holds a
 * character that is not plain (whitespace, a control character or one of `"'();,\=!<>~`). `:`
 * never needs quotes: a single value reads it as text and lists are written in parentheses, where
 * it is text too.
 */
function serializeValue(value: Value): string {
  if (value === null) return 'null';
  return needsQuotes(value) ? quote(value) : value;
}

function needsQuotes(value: string): boolean {
  if (value === '' || KEYWORDS.has(value)) return true;
  for (let i = 0; i < value.length; i++) if (!isPlainCode(value.charCodeAt(i))) return true;
  return false;
}

/**
 * A selector is written bare when it is words of plain characters separated by single spaces, none
 * of the words being `and` or `or` in any case (never ambiguous to this parser, but a reader could
 * take them for keywords). Anything else (leading, trailing, doubled or non-space whitespace,
 * reserved characters, the empty string) is quoted.
 */
function serializeSelector(selector: string): string {
  const bare =
    isPlainSelector(selector) &&
    selector.split(' ').every((word) => word !== '' && !LOGICAL_WORDS.has(word.toLowerCase()));
  return bare ? selector : quote(selector);
}

const LOGICAL_WORDS: ReadonlySet<string> = new Set(['and', 'or']);

function isPlainSelector(selector: string): boolean {
  for (let i = 0; i < selector.length; i++) {
    const c = selector.charCodeAt(i);
    if (c !== 0x20 && !isPlainCode(c)) return false;
  }
  return true;
}

/**
 * A position-free deep copy, for comparing trees parsed from different texts or built in code.
 *
 * @example
 * expect(stripSpans(parse('a==1 and b==2'))).toEqual(stripSpans(parse('a==1;b==2')));
 */
export function stripSpans(node: Node): StrippedNode {
  if (node.type === 'comparison') {
    return {
      type: 'comparison',
      selector: node.selector,
      operator: node.operator,
      values: [...node.values],
    };
  }
  return { type: node.type, children: node.children.map(stripSpans) };
}
