import type { ComparisonNode, Node, StrippedNode, Value } from './ast.ts';
import type { Dialect } from './options.ts';
import { RsqlError } from './errors.ts';
import { dialectOperator, operatorInfo } from './operators.ts';
import { DEFAULT_PARSE_OPTIONS } from './options.ts';
import { isPlainCode, KEYWORDS, quote } from './syntax.ts';

export interface SerializeOptions {
  /**
   * `extended` (default): the canonical text described below. `hosted`: the hosted API's published
   * dialect: the filter is rewritten as an OR of ANDs (no parentheses), `=out=` / `=nbt=` are
   * written `!in=` / `!bt=`, and every multi-value operator takes an `a:b` list.
   */
  dialect?: Dialect;
  /** Most comparisons the hosted rewrite may produce; default 100 (the parser's limit). */
  maxComparisons?: number;
}

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
export function serialize(node: Node, options: SerializeOptions = {}): string {
  if (options.dialect === 'hosted') return serializeHosted(node, options);
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
 * The hosted dialect has no parentheses, so a filter is written as its disjunctive normal form:
 * `(a,b);c` becomes `a;c,b;c` (AND binds tighter than OR, so the meaning is the same). The
 * expansion is multiplicative; past `maxComparisons` it throws `TOO_MANY_COMPARISONS` at 0.
 */
function serializeHosted(node: Node, options: SerializeOptions): string {
  const limit = options.maxComparisons ?? DEFAULT_PARSE_OPTIONS.maxComparisons;
  return toDnf(node, limit)
    .map((term) => term.map(serializeHostedComparison).join(';'))
    .join(',');
}

/** OR of ANDs, each AND a list of comparisons; duplicates within a term are dropped. */
function toDnf(node: Node, limit: number): ComparisonNode[][] {
  if (node.type === 'comparison') return [[node]];
  const parts = node.children.map((child) => toDnf(child, limit));
  let terms: ComparisonNode[][];
  if (node.type === 'or') {
    terms = parts.flat();
  } else {
    terms = [[]];
    for (const part of parts) {
      const next: ComparisonNode[][] = [];
      for (const left of terms) for (const right of part) next.push([...left, ...right]);
      terms = next;
      if (countOf(terms) > limit) break;
    }
  }
  if (terms.length === 0) throw new RangeError(`An '${node.type}' node needs children`);
  const count = countOf(terms);
  if (count > limit) {
    throw new RsqlError(
      'TOO_MANY_COMPARISONS',
      0,
      [],
      `Written without parentheses for the hosted API, this filter needs more than ${limit} comparisons; simplify its OR groups`,
    );
  }
  return terms;
}

function countOf(terms: ComparisonNode[][]): number {
  return terms.reduce((sum, term) => sum + term.length, 0);
}

function serializeHostedComparison(node: ComparisonNode): string {
  const operator = dialectOperator(node.operator, 'hosted');
  const [only, ...rest] = node.values;
  const values =
    operatorInfo(operator).arity === 'one' && only !== undefined && rest.length === 0
      ? serializeValue(only)
      : node.values.map(serializeListValue).join(':');
  return `${serializeSelector(node.selector)}${operator}${values}`;
}

/** A whole ISO timestamp with a zone: its colons never split an `a:b` list, and nothing follows. */
const ZONED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * An element of an `a:b` list: as a single value, and also quoted when it holds a `:`, unless it
 * is exactly a zoned ISO timestamp (`Created At=bt=2024-01-01T00:00:00.000Z:2024-12-31T23:59:59.999Z`).
 * A zone-less time is quoted too: `10:00` followed by `:00` would read back as `10:00:00`.
 */
function serializeListValue(value: Value): string {
  if (value === null) return 'null';
  if (needsQuotes(value)) return quote(value);
  return value.includes(':') && !ZONED_TIMESTAMP.test(value) ? quote(value) : value;
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
