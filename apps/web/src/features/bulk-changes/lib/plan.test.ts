import { describe, expect, it } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import { hostedTicketsDefinition, ticketsDefinition } from '@/testing/render.tsx';

import { planBulk } from './plan.ts';

const ids = (plan: ReturnType<typeof planBulk>) => plan.toChange.map((item) => item.id);

describe('planBulk', () => {
  it('counts only records whose values differ, treating missing as empty', () => {
    const records: RecordData[] = [
      { id: 'SUP-1', Status: 'Open', Severity: 'High' },
      { id: 'SUP-2', Status: 'Open', Severity: 'Low' },
      { id: 'SUP-3', Status: 'New' },
      { id: 'SUP-4', Status: 'Open', Severity: '' },
    ];
    const plan = planBulk(records, { Status: 'Open', Severity: 'High' }, ticketsDefinition);
    expect(ids(plan)).toEqual(['SUP-2', 'SUP-3', 'SUP-4']);
    expect(plan).toMatchObject({ unchanged: 1, unaddressable: 0 });
    // Each item keeps the values the preview saw: the baseline of a write without an ETag.
    expect(plan.toChange[1]?.record).toEqual({ id: 'SUP-3', Status: 'New' });
    const second = planBulk(records, { Severity: '' }, ticketsDefinition);
    expect(ids(second)).toEqual(['SUP-1', 'SUP-2']);
    expect(second.unchanged).toBe(2);
  });

  it('addresses hosted records by their handle field, and counts those without one apart', () => {
    const records: RecordData[] = [
      { 'Ticket ID': 'SUP-7', Status: 'New' },
      { Status: 'New' },
      { 'Ticket ID': '', Status: 'New' },
    ];
    const plan = planBulk(records, { Status: 'Open' }, hostedTicketsDefinition);
    expect(ids(plan)).toEqual(['SUP-7']);
    expect(plan).toMatchObject({ unchanged: 0, unaddressable: 2 });
  });
});
