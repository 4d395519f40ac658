import { describe, expect, it } from 'vitest';

import type { Node } from './ast.ts';
import {
  and,
  between,
  comparison,
  eq,
  ge,
  inList,
  isNull,
  like,
  ne,
  notBetween,
  notNull,
  or,
  outList,
} from './builder.ts';
import { parse } from './parser.ts';
import { serialize, stripSpans } from './serialize.ts';

const cases: { name: string; node: Node; text: string }[] = [
  {
    name: 'an OR inside an AND is parenthesized',
    node: and(
      eq('Status', 'Open'),
      or(inList('Severity', ['High', 'Critical']), isNull('Assignee')),
    ),
    text: 'Status==Open;(Severity=in=(High,Critical),Assignee==null)',
  },
  {
    name: 'an AND inside an OR is not',
    node: or(and(eq('a', '1'), eq('b', '2')), and(eq('c', '3'), eq('d', '4'))),
    text: 'a==1;b==2,c==3;d==4',
  },
  {
    name: 'nested groups',
    node: and(eq('a', '1'), or(eq('b', '2'), and(eq('c', '3'), or(eq('d', '4'), eq('e', '5'))))),
    text: 'a==1;(b==2,c==3;(d==4,e==5))',
  },
  {
    name: 'selectors with inner spaces stay bare',
    node: ge('Created At', '2024-01-01'),
    text: 'Created At=ge=2024-01-01',
  },
  {
    name: 'ranges and lists use parentheses',
    node: and(between('n', '1', '10'), notBetween('n', '2', '3'), outList('s', ['x'])),
    text: 'n=bt=(1,10);n=nbt=(2,3);s=out=(x)',
  },
  {
    name: 'timestamps and colons stay bare',
    node: and(
      between('Created At', '2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z'),
      eq('Time', '10:30'),
      inList('Tag', ['a:b', 'c']),
    ),
    text: 'Created At=bt=(2024-01-01T00:00:00.000Z,2024-12-31T23:59:59.999Z);Time==10:30;Tag=in=(a:b,c)',
  },
  {
    name: 'null is bare',
    node: and(isNull('Due Date'), notNull('Owner')),
    text: 'Due Date==null;Owner!=null',
  },
  { name: 'the string null is quoted', node: eq('Title', 'null'), text: "Title=='null'" },
  {
    name: 'keyword values are quoted',
    node: inList('w', ['and', 'or', 'AND']),
    text: "w=in=('and','or',AND)",
  },
  { name: 'the empty string is quoted', node: eq('Title', ''), text: "Title==''" },
  { name: 'whitespace is quoted', node: eq('Title', 'hello world'), text: "Title=='hello world'" },
  {
    name: 'quotes and backslashes are escaped',
    node: eq('T', `it's "a\\b"`),
    text: `T=='it\\'s "a\\\\b"'`,
  },
  { name: 'reserved characters are quoted', node: ne('T', 'a;b'), text: "T!='a;b'" },
  {
    name: 'emails, wildcards and unicode stay bare',
    node: and(
      eq('Assignee', 'jane+x@example.com'),
      like('Title', '*printer*'),
      eq('Título', 'Mañana😀'),
    ),
    text: 'Assignee==jane+x@example.com;Title=lk=*printer*;Título==Mañana😀',
  },
  { name: 'a selector with padding is quoted', node: eq(' a ', 'x'), text: "' a '==x" },
  { name: 'a selector with a double space is quoted', node: eq('a  b', 'x'), text: "'a  b'==x" },
  {
    name: 'a selector with an operator character is quoted',
    node: eq('a=b', 'x'),
    text: "'a=b'==x",
  },
  {
    name: 'a selector with a keyword word is quoted',
    node: eq('Black or White', 'x'),
    text: "'Black or White'==x",
  },
  { name: 'the empty selector is quoted', node: eq('', 'x'), text: "''==x" },
  {
    name: 'synonyms keep their spelling',
    node: comparison('n', '!bt=', ['1', '2']),
    text: 'n!bt=(1,2)',
  },
];

describe('serialize', () => {
  it.each(cases)('$name', ({ node, text }) => {
    expect(serialize(node)).toBe(text);
    expect(stripSpans(parse(text))).toEqual(stripSpans(node));
  });

  it('canonicalizes parsed text', () => {
    expect(serialize(parse(' a == 1 and ( b == "2" or c=in=x:y ) '))).toBe(
      'a==1;(b==2,c=in=(x,y))',
    );
    expect(serialize(parse('(a==1;b==2);(c==3)'))).toBe('a==1;b==2;c==3');
  });

  it('writes non-canonical trees so that they read back equivalently', () => {
    const a = eq('a', '1');
    const b = eq('b', '2');
    const c = eq('c', '3');
    const nestedOr: Node = { type: 'or', children: [b, c], span: { start: 0, end: 0 } };
    const single: Node = { type: 'or', children: [nestedOr], span: { start: 0, end: 0 } };
    expect(serialize({ type: 'and', children: [a, single], span: { start: 0, end: 0 } })).toBe(
      'a==1;(b==2,c==3)',
    );
    expect(
      serialize({
        type: 'and',
        children: [a, { type: 'and', children: [b, c], span: { start: 0, end: 0 } }],
        span: { start: 0, end: 0 },
      }),
    ).toBe('a==1;b==2;c==3');
    expect(() => serialize({ type: 'and', children: [], span: { start: 0, end: 0 } })).toThrow(
      RangeError,
    );
  });
});

describe('stripSpans', () => {
  it('drops every position and copies', () => {
    const node = parse('a==1;b=in=(x,y)');
    const stripped = stripSpans(node);
    expect(stripped).toEqual({
      type: 'and',
      children: [
        { type: 'comparison', selector: 'a', operator: '==', values: ['1'] },
        { type: 'comparison', selector: 'b', operator: '=in=', values: ['x', 'y'] },
      ],
    });
    expect(JSON.stringify(stripped)).not.toContain('span');
  });
});
