/**
 * The RSQL abstract syntax tree. Every node carries the character offsets (UTF-16 code units, as
 * `String.prototype.slice` counts them) of the text it came from, so that callers can point at the
 * exact place of a problem. Nodes made by the builder carry `{ start: 0, end: 0 }` everywhere.
 */

/** Character offsets into the input; `end` is exclusive. */
export interface Span {
  start: number;
  end: number;
}

export type ComparisonOperator =
  | '=='
  | '!='
  | '=gt='
  | '=ge='
  | '=lt='
  | '=le='
  | '=bt='
  | '!bt='
  | '=nbt='
  | '=in='
  | '=out='
  | '!in='
  | '=lk='
  | '!lk='
  | '=lki='
  | '!lki=';

/** `null` only for the unquoted literal `null`; the quoted `'null'` is the string "null". */
export type Value = string | null;

export interface ComparisonNode {
  type: 'comparison';
  /** The field name: trimmed when unquoted, exactly as written (unescaped) when quoted. */
  selector: string;
  /** As written: the synonyms `!bt=` / `=nbt=` and `=out=` / `!in=` are kept apart. */
  operator: ComparisonOperator;
  values: Value[];
  /** From the selector to the end of the last value (or of the closing `)` of a value list). */
  span: Span;
  /** The selector token, quotes included when it was quoted. */
  selectorSpan: Span;
  /** One per value: the value token, quotes included when it was quoted. */
  valueSpans: Span[];
}

/**
 * `children.length >= 2`, and never a child of the same type (`a;b;c` and `a;(b;c)` are both one
 * `and` with three children). The span runs from the first child to the last, including any
 * parentheses around those children but not parentheses around this node itself.
 */
export interface LogicalNode {
  type: 'and' | 'or';
  children: Node[];
  span: Span;
}

export type Node = ComparisonNode | LogicalNode;

/** What `stripSpans` returns: a node without any position, for deep-equality comparisons. */
export type StrippedNode =
  | { type: 'comparison'; selector: string; operator: ComparisonOperator; values: Value[] }
  | { type: 'and' | 'or'; children: StrippedNode[] };
