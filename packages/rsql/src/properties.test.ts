import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ComparisonNode, Node, Span, Value } from './ast.ts';
import { and, comparison, or } from './builder.ts';
import { RsqlError } from './errors.ts';
import { OPERATORS } from './operators.ts';
import { parse } from './parser.ts';
import { serialize, stripSpans } from './serialize.ts';
import { comparisons, walk } from './walk.ts';

/** Set RSQL_FUZZ_RUNS for a longer local run; the default keeps the suite fast. */
const NUM_RUNS = Number(process.env.RSQL_FUZZ_RUNS ?? 600);

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const UNLIMITED = { maxLength: Infinity, maxDepth: 100, maxComparisons: Infinity };

/** Pieces that stress quoting: reserved characters, keywords, timestamps, escapes, whitespace. */
const tricky = fc.constantFrom(
  '',
  ' ',
  '  ',
  '\t',
  '\n',
  '\u00a0',
  "'",
  '"',
  '\\',
  '\\\\',
  "\\'",
  ';',
  ',',
  '(',
  ')',
  '=',
  '==',
  '!=',
  '=in=',
  '<',
  '>',
  '~',
  ':',
  '*',
  'null',
  'and',
  'or',
  'AND',
  ' and ',
  ' or ',
  'Created At',
  'Due Date',
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T10:00',
  '+02:00',
  'jane@example.com',
  '\u0000',
  '\u007f',
  '😀',
  '\ud83d',
  'é',
  '日本',
);

const text = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: codeUnit, maxLength: 6 }) },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.oneof(tricky, fc.string({ maxLength: 3 })), { maxLength: 5 })
      .map((p) => p.join('')),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.]{0,8}( [A-Za-z0-9]{1,5})?$/) },
);

const value: fc.Arbitrary<Value> = fc.oneof(
  { weight: 9, arbitrary: text },
  { weight: 1, arbitrary: fc.constant(null) },
);

const comparisonArb: fc.Arbitrary<ComparisonNode> = fc
  .tuple(text, fc.constantFrom(...OPERATORS), fc.array(value, { minLength: 1, maxLength: 4 }))
  .map(([selector, info, values]) => {
    const [first = null, second = null] = values;
    const fitted = info.arity === 'one' ? [first] : info.arity === 'two' ? [first, second] : values;
    return comparison(selector, info.op, fitted);
  });

/** Trees up to depth 4, made canonical by the builder's flattening. */
const { tree } = fc.letrec<{ tree: Node }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparisonArb,
    fc
      .tuple(fc.constantFrom('and', 'or'), fc.array(tie('tree'), { minLength: 2, maxLength: 4 }))
      .map(([type, children]) => (type === 'and' ? and(...children) : or(...children))),
  ),
}));

const depthLimited = tree.filter((node) => depth(node) <= 4);

function depth(node: Node): number {
  return node.type === 'comparison' ? 0 : 1 + Math.max(...node.children.map(depth));
}

/** Independent reading of a quoted token, to check spans without the parser's own code. */
function unquote(token: string): string | undefined {
  const q = token[0];
  if ((q !== "'" && q !== '"') || token.length < 2 || token[token.length - 1] !== q)
    return undefined;
  return token.slice(1, -1).replace(/\\([\s\S])/g, '$1');
}

function slice(input: string, span: Span): string {
  return input.slice(span.start, span.end);
}

function within(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

function checkSpans(input: string, root: Node): void {
  walk(root, (node) => {
    expect(node.span.start).toBeGreaterThanOrEqual(0);
    expect(node.span.end).toBeLessThanOrEqual(input.length);
    if (node.type !== 'comparison') {
      let previousEnd = node.span.start;
      for (const child of node.children) {
        expect(within(node.span, child.span)).toBe(true);
        expect(child.span.start).toBeGreaterThanOrEqual(previousEnd);
        previousEnd = child.span.end;
      }
      return;
    }
    const selectorText = slice(input, node.selectorSpan);
    expect(selectorText === node.selector || unquote(selectorText) === node.selector).toBe(true);
    expect(node.span.start).toBe(node.selectorSpan.start);
    expect(node.valueSpans).toHaveLength(node.values.length);
    node.values.forEach((v, i) => {
      const span = node.valueSpans[i];
      if (span === undefined) throw new Error('missing value span');
      expect(within(node.span, span)).toBe(true);
      expect(span.start).toBeGreaterThanOrEqual(node.selectorSpan.end);
      const token = slice(input, span);
      if (v === null) expect(token).toBe('null');
      else expect(token === v || unquote(token) === v).toBe(true);
    });
  });
}

describe('properties', () => {
  it('parse(serialize(ast)) equals ast for canonical trees', () => {
    fc.assert(
      fc.property(depthLimited, (ast) => {
        const input = serialize(ast);
        expect(stripSpans(parse(input, UNLIMITED))).toEqual(stripSpans(ast));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('parsed spans point at the selectors and values they came from', () => {
    fc.assert(
      fc.property(depthLimited, (ast) => {
        const input = serialize(ast);
        checkSpans(input, parse(input, UNLIMITED));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('spans survive free-form whitespace and keywords', () => {
    const spaced = depthLimited.chain((ast) =>
      fc.tuple(fc.constant(ast), fc.constantFrom(' ', '  ', '\n', '\t '), fc.boolean()),
    );
    fc.assert(
      fc.property(spaced, ([ast, ws, keywords]) => {
        // Space out the canonical text at logical separators and parentheses outside quotes.
        const input = respace(serialize(ast), ws, keywords);
        const parsed = parse(input, UNLIMITED);
        expect(stripSpans(parsed)).toEqual(stripSpans(ast));
        checkSpans(input, parsed);
        expect(comparisons(parsed)).toHaveLength(comparisons(ast).length);
      }),
      { numRuns: NUM_RUNS / 2 },
    );
  });

  it('parse returns a node or throws an RsqlError, for any string', () => {
    const fragment = fc.constantFrom(
      'a',
      'Status',
      'Created At',
      ' ',
      '==',
      '!=',
      '=in=',
      '=bt=',
      '!bt=',
      '=out=',
      '=lki=',
      '=foo=',
      '=',
      '!',
      '<',
      '(',
      ')',
      ';',
      ',',
      ':',
      "'",
      '"',
      '\\',
      ' and ',
      ' or ',
      'and',
      'null',
      'x',
      '1',
      '2024-01-01T10:00:00.000Z',
      '2024-01-01T10:00',
      '+02:00',
      '\n',
      '😀',
      '\ud800',
    );
    // Valid filters with a few characters deleted, replaced or inserted, or cut short.
    const mutated = fc
      .tuple(
        depthLimited.map(serialize),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fragment), { minLength: 1, maxLength: 3 }),
      )
      .map(([input, edits]) =>
        edits.reduce((text, [at, deleted, inserted]) => {
          const i = text.length === 0 ? 0 : at % text.length;
          return text.slice(0, i) + inserted + text.slice(i + deleted);
        }, input),
      );
    const inputs = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: codeUnit, maxLength: 20 }),
      fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join('')),
      mutated,
    );
    fc.assert(
      fc.property(inputs, (input) => {
        let node: Node;
        try {
          node = parse(input);
        } catch (error) {
          expect(error).toBeInstanceOf(RsqlError);
          if (error instanceof RsqlError) {
            expect(Number.isInteger(error.position)).toBe(true);
            expect(error.position).toBeGreaterThanOrEqual(0);
            expect(error.position).toBeLessThanOrEqual(input.length);
            expect(error.message).not.toBe('');
          }
          return;
        }
        checkSpans(input, node);
        // Whatever parses is canonicalized losslessly.
        expect(stripSpans(parse(serialize(node), UNLIMITED))).toEqual(stripSpans(node));
      }),
      { numRuns: NUM_RUNS * 2 },
    );
  });
});

/**
 * Adds whitespace around `;`, `,`, `(`, `)` outside quoted text, and optionally writes the logical
 * separators (not the commas of value lists) as `and` / `or`.
 */
function respace(input: string, ws: string, keywords: boolean): string {
  let out = '';
  let quote: string | undefined;
  let inValueList = false;
  for (let i = 0; i < input.length; i++) {
    const ch = input.charAt(i);
    if (quote !== undefined) {
      out += ch;
      if (ch === '\\') out += input.charAt(++i);
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
      continue;
    }
    if (ch === '(' && input.charAt(i - 1) === '=') inValueList = true;
    else if (ch === ')' && inValueList) inValueList = false;
    else if (ch === ';' && keywords) {
      out += `${ws}and${ws}`;
      continue;
    } else if (ch === ',' && keywords && !inValueList) {
      out += `${ws}or${ws}`;
      continue;
    }
    out += ';,()'.includes(ch) ? `${ws}${ch}${ws}` : ch;
  }
  return `${ws}${out}${ws}`;
}
