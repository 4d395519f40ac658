import { describe, expect, it } from 'vitest';

import { FieldTypeSchema } from '@wsc/api-client';
import { OPERATORS_BY_FIELD_TYPE, operatorsForFieldType } from '@wsc/rsql';

import { operatorsForType } from './operators.ts';

describe('operatorsForType', () => {
  it.each(FieldTypeSchema.options)(
    'offers exactly the operators the API takes on %s, then the null checks',
    (type) => {
      expect(operatorsForType(type)).toEqual([
        ...operatorsForFieldType(type),
        'is-empty',
        'is-not-empty',
      ]);
    },
  );

  it('offers "is not" on a boolean, as the API takes it', () => {
    expect(OPERATORS_BY_FIELD_TYPE.BOOLEAN).toContain('!=');
    expect(operatorsForType('BOOLEAN')).toEqual(['==', '!=', 'is-empty', 'is-not-empty']);
  });
});
