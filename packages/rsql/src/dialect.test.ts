// The hosted API's published dialect: what the parser refuses in it, and how the serializer writes
// any filter inside it without changing its meaning.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ComparisonNode, Node } from './ast.ts';
import { and, between, eq, inList, notBetween, or, outList } from './builder.ts';
import { RsqlError } from './errors.ts';
import { canonicalOperator, OPERATORS } from './operators.ts';
import { parse } from './parser.ts';
import { serialize, stripSpans } from './serialize.ts';

const hosted = { dialect: 'hosted' } as const;

function rsqlError(run: () => unknown): RsqlError {
  try {
    run();
  } catch (error) {
    if (error instanceof RsqlError) return error;
    throw error;
  }
  throw new Error('expected an RsqlError');
}

describe('parse in the hosted dialect', () => {
  it('reads every published example', () => {
    for (const example of [
      'Number=in=1:2:3:4:5',
      'Number=bt=1:10',
      'Status==Open',
      'Title=lki=Incidents',
      'Created At!=null;Created At=ge=2021-01-01T07:58:30.000Z',
      'Title!lk=Incidents',
      'Created At!=null,Created At=ge=2021-01-01T07:58:30.00Z',
      'Title!lki=Incidents',
      'Number!bt=1:10',
      'Number!in=1:2:3:4:5',
      'Created At=lt=2022-03-15T07:58:30.000Z',
    ]) {
      expect(() => parse(example, hosted), example).not.toThrow();
    }
    expect(stripSpans(parse('Number!in=1:2', hosted))).toEqual({
      type: 'comparison',
      selector: 'Number',
      operator: '!in=',
      values: ['1', '2'],
    });
  });

  it.each([
    ['Status=out=New:Open', 6, /=out=.*write !in=/],
    ['Priority=nbt=1:3', 8, /=nbt=.*write !bt=/],
    ['Status=in=(New,Open)', 10, /parentheses.*write a:b/],
    ['a==1;(b==2,c==3)', 5, /Grouping parentheses/],
  ])('refuses %s at %i', (input, position, message) => {
    const error = rsqlError(() => parse(input, hosted));
    expect(error.code).toBe('NOT_IN_DIALECT');
    expect(error.position).toBe(position);
    expect(error.message).toMatch(message);
    // The same text is fine in the extended dialect.
    expect(() => parse(input)).not.toThrow();
  });

  it('has no and/or keywords', () => {
    const error = rsqlError(() => parse('a==1 and b==2', hosted));
    expect(error.code).toBe('UNEXPECTED_CHARACTER');
    expect(error.position).toBe(5);
    expect(() => parse('a==1 and b==2')).not.toThrow();
  });
});

describe('serialize in the hosted dialect', () => {
  it('writes the published operators and a:b lists', () => {
    expect(serialize(outList('Status', ['New', 'Open']), hosted)).toBe('Status!in=New:Open');
    expect(serialize(notBetween('Priority', '1', '3'), hosted)).toBe('Priority!bt=1:3');
    expect(serialize(inList('Severity', ['High']), hosted)).toBe('Severity=in=High');
    expect(
      serialize(
        between('Created At', '2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z'),
        hosted,
      ),
    ).toBe('Created At=bt=2024-01-01T00:00:00.000Z:2024-12-31T23:59:59.999Z');
    // A zone-less time and a value with a colon are quoted, so the list splits where it should.
    expect(serialize(inList('Time', ['10:00', '00', 'a:b']), hosted)).toBe(
      "Time=in='10:00':00:'a:b'",
    );
    expect(serialize(eq('Status', 'On Hold'), hosted)).toBe("Status=='On Hold'");
  });

  it('writes OR groups inside AND as an OR of ANDs, without parentheses', () => {
    const filter = parse(
      '(Status==New,Status==Open);(Severity==Critical,Priority=le=1);Due Date=le=2024-06-01',
    );
    expect(serialize(filter, hosted)).toBe(
      [
        'Status==New;Severity==Critical;Due Date=le=2024-06-01',
        'Status==New;Priority=le=1;Due Date=le=2024-06-01',
        'Status==Open;Severity==Critical;Due Date=le=2024-06-01',
        'Status==Open;Priority=le=1;Due Date=le=2024-06-01',
      ].join(','),
    );
  });

  it('refuses a rewrite past the comparison limit, naming the cause', () => {
    const group = (name: string) => or(...Array.from({ length: 5 }, (_, i) => eq(name, `${i}`)));
    const filter = and(group('a'), group('b'), group('c')); // 125 terms of 3
    const error = rsqlError(() => serialize(filter, hosted));
    expect(error.code).toBe('TOO_MANY_COMPARISONS');
    expect(error.message).toMatch(/simplify/);
    expect(() => serialize(filter, { ...hosted, maxComparisons: 1000 })).not.toThrow();
  });
});

// Property: the hosted text parses in the hosted dialect and means the same as the original tree.
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,6}$/).map((s) => s.trim() || 'x');
const listValue = fc.oneof(
  word,
  fc.constantFrom(
    '2024-01-01T00:00:00.000Z',
    '2024-01-01T10:00',
    '10:30',
    '00',
    '+02:00',
    'a:b',
    "O'Brien",
    ';',
    ',',
    '',
  ),
);
const comparisonArb: fc.Arbitrary<ComparisonNode> = fc
  .tuple(
    fc.constantFrom('Status', 'Due Date', 'Created At', 'Priority'),
    fc.constantFrom(...OPERATORS),
    fc.array(listValue, { minLength: 1, maxLength: 3 }),
  )
  .map(([selector, info, values]) => {
    const [first = 'x', second = 'y'] = values;
    const fitted = info.arity === 'one' ? [first] : info.arity === 'two' ? [first, second] : values;
    return { ...eq(selector, first), operator: info.op, values: fitted };
  });
const { tree } = fc.letrec<{ tree: Node }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    comparisonArb,
    fc
      .tuple(fc.constantFrom('and', 'or'), fc.array(tie('tree'), { minLength: 2, maxLength: 3 }))
      .map(([type, children]) => (type === 'and' ? and(...children) : or(...children))),
  ),
}));

/** Evaluates a tree with each distinct comparison (synonyms merged) given a truth value. */
function evaluate(node: Node, truth: (key: string) => boolean): boolean {
  if (node.type === 'comparison') {
    const key = JSON.stringify([node.selector, canonicalOperator(node.operator), node.values]);
    return truth(key);
  }
  return node.type === 'and'
    ? node.children.every((child) => evaluate(child, truth))
    : node.children.some((child) => evaluate(child, truth));
}

describe('properties of the hosted dialect', () => {
  it('parse(serialize(tree, hosted), hosted) means what tree means', () => {
    fc.assert(
      fc.property(tree, fc.integer(), (ast, seed) => {
        let text: string;
        try {
          text = serialize(ast, { ...hosted, maxComparisons: 400 });
        } catch (error) {
          expect(error).toBeInstanceOf(RsqlError);
          return;
        }
        const back = parse(text, { ...hosted, maxComparisons: 400, maxLength: Infinity });
        const truth = (key: string) => {
          let h = seed;
          for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0;
          return (h & 4) === 0;
        };
        expect(evaluate(back, truth)).toBe(evaluate(ast, truth));
      }),
      { numRuns: 500 },
    );
  });
});
