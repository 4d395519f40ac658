import { describe, expect, it } from 'vitest';

import {
  and,
  between,
  comparison,
  eq,
  ge,
  gt,
  ilike,
  inList,
  isNull,
  le,
  like,
  lt,
  ne,
  notBetween,
  notIlike,
  notLike,
  notNull,
  or,
  outList,
} from './builder.ts';
import { serialize } from './serialize.ts';

describe('builder', () => {
  it('builds the documented example', () => {
    expect(serialize(and(eq('Status', 'Open'), inList('Severity', ['High', 'Critical'])))).toBe(
      'Status==Open;Severity=in=(High,Critical)',
    );
  });

  it('makes every operator', () => {
    const nodes = [
      eq('f', 'v'),
      ne('f', 'v'),
      gt('f', 'v'),
      ge('f', 'v'),
      lt('f', 'v'),
      le('f', 'v'),
      between('f', 'a', 'b'),
      notBetween('f', 'a', 'b'),
      inList('f', ['a', 'b']),
      outList('f', ['a']),
      like('f', 'v'),
      notLike('f', 'v'),
      ilike('f', 'v'),
      notIlike('f', 'v'),
      isNull('f'),
      notNull('f'),
    ];
    expect(nodes.map((n) => [n.operator, n.values])).toEqual([
      ['==', ['v']],
      ['!=', ['v']],
      ['=gt=', ['v']],
      ['=ge=', ['v']],
      ['=lt=', ['v']],
      ['=le=', ['v']],
      ['=bt=', ['a', 'b']],
      ['=nbt=', ['a', 'b']],
      ['=in=', ['a', 'b']],
      ['=out=', ['a']],
      ['=lk=', ['v']],
      ['!lk=', ['v']],
      ['=lki=', ['v']],
      ['!lki=', ['v']],
      ['==', [null]],
      ['!=', [null]],
    ]);
  });

  it('gives every span as zero', () => {
    const node = between('f', 'a', 'b');
    expect(node.span).toEqual({ start: 0, end: 0 });
    expect(node.selectorSpan).toEqual({ start: 0, end: 0 });
    expect(node.valueSpans).toEqual([
      { start: 0, end: 0 },
      { start: 0, end: 0 },
    ]);
    expect(and(node, node).span).toEqual({ start: 0, end: 0 });
  });

  it('flattens same-type nesting and unwraps a single child', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((s) => eq(s, '1'));
    if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error();
    const flat = and(and(a, b), and(c, d));
    expect(flat.type === 'and' && flat.children).toEqual([a, b, c, d]);
    const mixed = and(a, or(b, or(c, d)));
    expect(
      mixed.type === 'and' && mixed.children[1]?.type === 'or' && mixed.children[1].children,
    ).toEqual([b, c, d]);
    expect(and(a)).toBe(a);
    expect(or(and(a, b))).toEqual(and(a, b));
  });

  it('copies the values it is given', () => {
    const values = ['a'];
    const node = inList('f', values);
    values.push('b');
    expect(node.values).toEqual(['a']);
  });

  it('rejects what cannot be written', () => {
    expect(() => and()).toThrow(RangeError);
    expect(() => or()).toThrow(RangeError);
    expect(() => inList('f', [])).toThrow(RangeError);
    expect(() => outList('f', [])).toThrow(RangeError);
    expect(() => comparison('f', '=bt=', ['1'])).toThrow(RangeError);
    expect(() => comparison('f', '==', ['1', '2'])).toThrow(RangeError);
  });
});
