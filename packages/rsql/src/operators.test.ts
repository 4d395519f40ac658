import { describe, expect, it } from 'vitest';

import {
  canonicalOperator,
  isComparisonOperator,
  operatorInfo,
  OPERATORS,
  OPERATORS_BY_FIELD_TYPE,
  operatorsForFieldType,
} from './operators.ts';

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

  it('gives each field type its operators once each, in canonical spellings', () => {
    for (const operators of Object.values(OPERATORS_BY_FIELD_TYPE)) {
      expect(new Set(operators).size).toBe(operators.length);
      expect(operators.every((op) => canonicalOperator(op) === op)).toBe(true);
      expect(operators[0]).toBe('==');
      expect(Object.isFrozen(operators)).toBe(true);
    }
    expect(OPERATORS_BY_FIELD_TYPE.BOOLEAN).toEqual(['==', '!=']);
    expect(OPERATORS_BY_FIELD_TYPE.PICKLIST).toEqual(['==', '!=', '=in=', '=out=']);
    expect(OPERATORS_BY_FIELD_TYPE.TEXT).toHaveLength(14);
    expect(OPERATORS_BY_FIELD_TYPE.NUMBER).not.toContain('=lk=');
    expect(OPERATORS_BY_FIELD_TYPE.USER_ID).not.toContain('=gt=');
  });

  it('treats a type the table does not name as text', () => {
    expect(operatorsForFieldType('HTML')).toBe(OPERATORS_BY_FIELD_TYPE.TEXT);
    expect(operatorsForFieldType('toString')).toBe(OPERATORS_BY_FIELD_TYPE.TEXT);
    expect(operatorsForFieldType('DATE')).toBe(OPERATORS_BY_FIELD_TYPE.DATE);
  });
});
