import { describe, expect, it } from 'vitest';

import { canonicalOperator, isComparisonOperator, operatorInfo, OPERATORS } from './operators.ts';

describe('operators', () => {
  it('lists the sixteen operators once each', () => {
    const ops = OPERATORS.map((o) => o.op);
    expect(new Set(ops).size).toBe(16);
    expect(ops.every(isComparisonOperator)).toBe(true);
    expect(Object.isFrozen(OPERATORS)).toBe(true);
  });

  it('knows arities and labels', () => {
    expect(operatorInfo('=bt=')).toEqual({ op: '=bt=', arity: 'two', label: 'between' });
    expect(operatorInfo('=lk=').label).toBe('contains');
    expect(OPERATORS.filter((o) => o.arity === 'many').map((o) => o.op)).toEqual([
      '=in=',
      '=out=',
      '!in=',
    ]);
    expect(OPERATORS.filter((o) => o.arity === 'two').map((o) => o.op)).toEqual([
      '=bt=',
      '!bt=',
      '=nbt=',
    ]);
  });

  it('recognizes only exact spellings', () => {
    for (const s of ['=', '=IN=', '=in', 'in', '=foo=', '<', '>=', ''])
      expect(isComparisonOperator(s)).toBe(false);
  });

  it('maps synonyms to one spelling', () => {
    expect(canonicalOperator('!bt=')).toBe('=nbt=');
    expect(canonicalOperator('!in=')).toBe('=out=');
    expect(canonicalOperator('=in=')).toBe('=in=');
  });
});
