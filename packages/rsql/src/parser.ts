import type { ComparisonNode, ComparisonOperator, LogicalNode, Node, Span, Value } from './ast.ts';
import type { RsqlErrorCode } from './errors.ts';
import type { ParseOptions } from './options.ts';
import { RsqlError } from './errors.ts';
import { isComparisonOperator, isHostedOperator, operatorInfo, OPERATORS } from './operators.ts';
import { DEFAULT_PARSE_OPTIONS } from './options.ts';
import { isOperatorStartCode, isPlainCode, isWhitespaceCode, TIMESTAMP } from './syntax.ts';

/**
 * Parses an RSQL filter into an AST with positions. The grammar and lexical rules are described in
 * `syntax.ts`; AND (`;`, `and`) binds tighter than OR (`,`, `or`) and parentheses group.
 *
 * Throws `RsqlError` and nothing else. The parser is iterative, so no input can exhaust the stack,
 * and the length limit is checked before anything else.
 *
 * @example
 * parse('Status==Open;(Severity=in=(High,Critical),Assignee==null)');
 * // { type: 'and', children: [
 * //   { type: 'comparison', selector: 'Status', operator: '==', values: ['Open'], ... },
 * //   { type: 'or', children: [...] } ], span: { start: 0, end: 57 } }
 * @example
 * parse('Created At=bt=2024-01-01T00:00:00.000Z:2024-12-31T23:59:59.999Z').values;
 * // ['2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z']
 */
export function parse(input: string, options: ParseOptions = {}): Node {
  if (typeof input !== 'string') {
    throw new RsqlError('EMPTY', 0, ['selector'], 'The filter must be a string');
  }
  const limits = { ...DEFAULT_PARSE_OPTIONS, ...definedOnly(options) };
  checkLength(input, limits.maxLength);
  return new Parser(input, limits).parseFilter();
}

function definedOnly(options: ParseOptions): ParseOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** UTF-8 length check; the position is the first character that does not fit in the limit. */
function checkLength(input: string, maxLength: number): void {
  if (input.length * 3 <= maxLength) return; // no UTF-16 code unit takes more than 3 bytes
  let bytes = 0;
  let overAt = -1;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    let size: number;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(input.charCodeAt(i + 1))) size = 4;
    else size = 3; // BMP, or a lone surrogate (encoded as U+FFFD)
    if (overAt < 0 && bytes + size > maxLength) overAt = i;
    bytes += size;
    if (size === 4) i++;
  }
  if (overAt >= 0) {
    throw new RsqlError(
      'TOO_LONG',
      overAt,
      [],
      `The filter is ${bytes} bytes long, over the limit of ${maxLength} bytes, at position ${overAt}`,
    );
  }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** A parsed operand with its extent, which includes any parentheses wrapped around it. */
interface Operand {
  node: Node;
  start: number;
  end: number;
}

/** One open parenthesis (or the whole input): AND-runs collected into OR-alternatives. */
interface Frame {
  open: number;
  terms: Operand[];
  alternatives: Operand[];
}

interface Token {
  value: string;
  span: Span;
}

const AFTER_OPERAND_ROOT = ["';'", "','", 'end of input'];
const AFTER_OPERAND_NESTED = ["';'", "','", "')'"];
const OPERAND_START = ['selector', "'('"];

class Parser {
  private pos = 0;
  private comparisons = 0;

  constructor(
    private readonly input: string,
    private readonly limits: Required<ParseOptions>,
  ) {}

  parseFilter(): Node {
    this.skipWhitespace();
    if (this.pos >= this.input.length) {
      throw new RsqlError('EMPTY', 0, [...OPERAND_START], 'The filter is empty');
    }
    const stack: Frame[] = [];
    let frame: Frame = { open: -1, terms: [], alternatives: [] };
    for (;;) {
      // An operand is expected: '(' or a comparison.
      this.skipWhitespace();
      if (this.code() === 0x28) {
        if (this.limits.dialect === 'hosted') {
          this.notInDialect('Grouping parentheses are');
        }
        if (stack.length + 1 > this.limits.maxDepth) {
          throw new RsqlError(
            'TOO_DEEP',
            this.pos,
            [],
            `Parentheses are nested more than ${this.limits.maxDepth} deep at position ${this.pos}`,
          );
        }
        stack.push(frame);
        frame = { open: this.pos, terms: [], alternatives: [] };
        this.pos++;
        continue;
      }
      let operand: Operand = this.parseComparison();
      // After an operand: ';' / 'and', ',' / 'or', ')' or the end.
      for (;;) {
        frame.terms.push(operand);
        const before = this.pos;
        this.skipWhitespace();
        const hadWhitespace = this.pos > before;
        const expected = stack.length > 0 ? AFTER_OPERAND_NESTED : AFTER_OPERAND_ROOT;
        if (this.pos >= this.input.length) {
          if (stack.length > 0) this.fail('UNEXPECTED_END', expected);
          return reduceFrame(frame).node;
        }
        const c = this.code();
        if (c === 0x29) {
          const outer = stack.pop();
          if (outer === undefined) this.fail('UNEXPECTED_CHARACTER', expected);
          const inner = reduceFrame(frame);
          operand = { node: inner.node, start: frame.open, end: this.pos + 1 };
          this.pos++;
          frame = outer;
          continue;
        }
        const symbol = c === 0x3b ? 'and' : c === 0x2c ? 'or' : undefined;
        const keywords = this.limits.dialect !== 'hosted' && hadWhitespace;
        const logical = symbol ?? (keywords ? this.keyword() : undefined);
        if (logical === undefined) this.fail('UNEXPECTED_CHARACTER', expected);
        if (logical === 'or') flushTerms(frame);
        this.pos += symbol === undefined ? logical.length : 1;
        break;
      }
    }
  }

  /** `and` / `or` at the current position, followed by whitespace, `(` or the end. */
  private keyword(): 'and' | 'or' | undefined {
    for (const word of ['and', 'or'] as const) {
      if (!this.input.startsWith(word, this.pos)) continue;
      const next = this.pos + word.length;
      if (next >= this.input.length) return word;
      const c = this.input.charCodeAt(next);
      if (isWhitespaceCode(c) || c === 0x28) return word;
    }
    return undefined;
  }

  private parseComparison(): Operand {
    const start = this.pos;
    if (start >= this.input.length) this.fail('UNEXPECTED_END', OPERAND_START);
    this.comparisons++;
    if (this.comparisons > this.limits.maxComparisons) {
      throw new RsqlError(
        'TOO_MANY_COMPARISONS',
        start,
        [],
        `The filter has more than ${this.limits.maxComparisons} comparisons at position ${start}`,
      );
    }
    const selector = this.isQuote(this.code()) ? this.readQuoted() : this.readSelector();
    this.skipWhitespace();
    const operator = this.readOperator();
    this.skipWhitespace();
    const arity = operatorInfo(operator).arity;
    const listStart = this.pos;
    let tokens: { value: Value; span: Span }[];
    if (this.code() === 0x28 && this.limits.dialect === 'hosted') {
      this.notInDialect('Value lists in parentheses are', ' (write a:b)');
    }
    if (this.code() === 0x28) tokens = this.readParenthesizedList();
    else if (arity === 'one') tokens = [this.readValue(false)];
    else tokens = this.readColonList();

    const required = arity === 'one' ? 1 : arity === 'two' ? 2 : 0;
    if (required > 0 && tokens.length !== required) {
      const extra = tokens[required];
      const count = required === 1 ? 'exactly one value' : 'exactly two values';
      const position = extra === undefined ? listStart : extra.span.start;
      throw new RsqlError(
        'WRONG_ARITY',
        position,
        [],
        `Operator '${operator}' takes ${count}, not ${tokens.length}, at position ${position}`,
      );
    }
    const node: ComparisonNode = {
      type: 'comparison',
      selector: selector.value,
      operator,
      values: tokens.map((t) => t.value),
      span: { start: selector.span.start, end: this.pos },
      selectorSpan: selector.span,
      valueSpans: tokens.map((t) => t.span),
    };
    return { node, start: node.span.start, end: node.span.end };
  }

  /** Plain characters and inner whitespace up to the operator; trimmed. */
  private readSelector(): Token {
    const start = this.pos;
    let end = start;
    let scan = start;
    while (scan < this.input.length) {
      const c = this.input.charCodeAt(scan);
      const whitespace = isWhitespaceCode(c);
      if (!whitespace && !isPlainCode(c)) break;
      scan++;
      if (!whitespace) end = scan;
    }
    if (end === start) this.fail('UNEXPECTED_CHARACTER', OPERAND_START);
    this.pos = end;
    return { value: this.input.slice(start, end), span: { start, end } };
  }

  /** `==`, `!=` or `=word=` / `!word=`; anything else starting with `= ! < > ~` is unknown. */
  private readOperator(): ComparisonOperator {
    const start = this.pos;
    if (start >= this.input.length) this.fail('UNEXPECTED_END', ['operator']);
    if (!isOperatorStartCode(this.code())) this.fail('UNEXPECTED_CHARACTER', ['operator']);
    let end = start + 1;
    while (end < this.input.length && isAsciiLetter(this.input.charCodeAt(end))) end++;
    const closed = end < this.input.length && this.input.charCodeAt(end) === 0x3d;
    if (closed) end++;
    const text = this.input.slice(start, end);
    if (isComparisonOperator(text)) {
      if (this.limits.dialect === 'hosted' && !isHostedOperator(text)) {
        const instead = text === '=out=' ? '!in=' : '!bt=';
        throw new RsqlError(
          'NOT_IN_DIALECT',
          start,
          ['operator'],
          `Operator '${text}' at position ${start} is not in the published dialect (write ${instead})`,
        );
      }
      this.pos = end;
      return text;
    }
    if (!closed && end >= this.input.length && OPERATORS.some((o) => o.op.startsWith(text))) {
      this.pos = end;
      this.fail('UNEXPECTED_END', ['operator']);
    }
    throw new RsqlError(
      'UNKNOWN_OPERATOR',
      start,
      ['operator'],
      `Unknown operator '${text}' at position ${start}`,
    );
  }

  private readParenthesizedList(): { value: Value; span: Span }[] {
    this.pos++; // '('
    const tokens: { value: Value; span: Span }[] = [];
    for (;;) {
      this.skipWhitespace();
      tokens.push(this.readValue(false));
      this.skipWhitespace();
      if (this.pos >= this.input.length) this.fail('UNEXPECTED_END', ["','", "')'"]);
      const c = this.code();
      this.pos++;
      if (c === 0x29) return tokens;
      if (c !== 0x2c) {
        this.pos--;
        this.fail('UNEXPECTED_CHARACTER', ["','", "')'"]);
      }
    }
  }

  private readColonList(): { value: Value; span: Span }[] {
    const tokens = [this.readValue(true)];
    while (this.code() === 0x3a) {
      this.pos++;
      tokens.push(this.readValue(true));
    }
    return tokens;
  }

  /** A quoted value, or a run of plain characters (`colonList`: not `:` except in a timestamp). */
  private readValue(colonList: boolean): { value: Value; span: Span } {
    if (this.isQuote(this.code())) return this.readQuoted();
    const start = this.pos;
    if (colonList) {
      TIMESTAMP.lastIndex = start;
      const match = TIMESTAMP.exec(this.input);
      if (match !== null) this.pos += match[0].length;
    }
    while (this.pos < this.input.length) {
      const c = this.code();
      if (!isPlainCode(c) || (colonList && c === 0x3a)) break;
      this.pos++;
    }
    if (this.pos === start) this.missingValue();
    const text = this.input.slice(start, this.pos);
    return { value: text === 'null' ? null : text, span: { start, end: this.pos } };
  }

  private missingValue(): never {
    if (this.pos >= this.input.length) this.fail('UNEXPECTED_END', ['value']);
    const c = this.code();
    // Where a separator or terminator stands, the value is missing rather than malformed.
    if (c === 0x3b || c === 0x2c || c === 0x29 || c === 0x3a || isWhitespaceCode(c)) {
      throw new RsqlError(
        'EMPTY_VALUE',
        this.pos,
        ['value'],
        `Missing value at position ${this.pos}`,
      );
    }
    this.fail('UNEXPECTED_CHARACTER', ['value']);
  }

  private readQuoted(): Token {
    const start = this.pos;
    const quoteCode = this.code();
    let value = '';
    let chunk = start + 1;
    let i = chunk;
    while (i < this.input.length) {
      const c = this.input.charCodeAt(i);
      if (c === quoteCode) {
        this.pos = i + 1;
        return { value: value + this.input.slice(chunk, i), span: { start, end: this.pos } };
      }
      if (c === 0x5c) {
        if (i + 1 >= this.input.length) {
          throw new RsqlError(
            'INVALID_ESCAPE',
            i,
            ['closing quote'],
            `A backslash ends the filter inside a quoted string at position ${i}`,
          );
        }
        value += this.input.slice(chunk, i) + this.input.charAt(i + 1);
        i += 2;
        chunk = i;
        continue;
      }
      i++;
    }
    throw new RsqlError(
      'UNTERMINATED_STRING',
      start,
      ['closing quote'],
      `Unterminated quoted string at position ${start}`,
    );
  }

  private isQuote(c: number): boolean {
    return c === 0x22 || c === 0x27;
  }

  /** The code unit at the current position, NaN at the end. */
  private code(): number {
    return this.input.charCodeAt(this.pos);
  }

  private skipWhitespace(): void {
    while (this.pos < this.input.length && isWhitespaceCode(this.code())) this.pos++;
  }

  private notInDialect(what: string, hint = ''): never {
    throw new RsqlError(
      'NOT_IN_DIALECT',
      this.pos,
      [],
      `${what} not in the published dialect, at position ${this.pos}${hint}`,
    );
  }

  private fail(
    code: Extract<RsqlErrorCode, 'UNEXPECTED_CHARACTER' | 'UNEXPECTED_END'>,
    expected: string[],
  ): never {
    const wanted = describeExpected(expected);
    const message =
      code === 'UNEXPECTED_END'
        ? `Expected ${wanted} at position ${this.pos} but the filter ended`
        : `Expected ${wanted} at position ${this.pos} but found ${describeChar(this.input, this.pos)}`;
    throw new RsqlError(code, this.pos, [...expected], message);
  }
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** Closes the current AND-run into one alternative. */
function flushTerms(frame: Frame): void {
  const term = combine('and', frame.terms);
  if (term !== undefined) frame.alternatives.push(term);
  frame.terms = [];
}

function reduceFrame(frame: Frame): Operand {
  flushTerms(frame);
  const result = combine('or', frame.alternatives);
  // Unreachable: a frame is only reduced after at least one operand was pushed.
  if (result === undefined) throw new RsqlError('UNEXPECTED_END', frame.open, [], 'Empty group');
  return result;
}

/** One operand stays itself; several become a flattened logical node spanning their extents. */
function combine(type: LogicalNode['type'], operands: Operand[]): Operand | undefined {
  const first = operands[0];
  const last = operands[operands.length - 1];
  if (first === undefined || last === undefined) return undefined;
  if (operands.length === 1) return first;
  const children = operands.flatMap((o) => (o.node.type === type ? o.node.children : [o.node]));
  const node: LogicalNode = { type, children, span: { start: first.start, end: last.end } };
  return { node, start: first.start, end: last.end };
}

const EXPECTED_WORDS: Readonly<Record<string, string>> = {
  selector: 'a selector',
  operator: 'an operator',
  value: 'a value',
  'closing quote': 'a closing quote',
};

function describeExpected(expected: string[]): string {
  const words = expected.map((e) => EXPECTED_WORDS[e] ?? e);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words[words.length - 1] ?? ''}`;
}

function describeChar(input: string, pos: number): string {
  const c = input.codePointAt(pos) ?? 0;
  if (c > 0x20 && c !== 0x7f && !isWhitespaceCode(c)) return `'${String.fromCodePoint(c)}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}
