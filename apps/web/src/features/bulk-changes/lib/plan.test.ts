import { describe, expect, it } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import { planBulk } from './plan.ts';

describe('planBulk', () => {
  it('counts only records whose values differ, treating missing as empty', () => {
    const records: RecordData[] = [
      { id: 'SUP-1', Status: 'Open', Severity: 'High' },
      { id: 'SUP-2', Status: 'Open', Severity: 'Low' },
      { id: 'SUP-3', Status: 'New' },
      { id: 'SUP-4', Status: 'Open', Severity: '' },
    ];
    expect(planBulk(records, { Status: 'Open', Severity: 'High' })).toEqual({
      toChange: [{ id: 'SUP-2' }, { id: 'SUP-3' }, { id: 'SUP-4' }],
      unchanged: 1,
    });
    expect(planBulk(records, { Severity: '' })).toEqual({
      toChange: [{ id: 'SUP-1' }, { id: 'SUP-2' }],
      unchanged: 2,
    });
  });
});
