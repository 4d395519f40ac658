import { describe, expect, it } from 'vitest';

import type { Definition, Field } from '@wsc/api-client';

import { hostedTicketsDefinition, ticketsDefinition } from '@/testing/render.tsx';

import {
  countByDay,
  createdBetween,
  createdField,
  fieldBars,
  isClosedStatus,
  lastDays,
  MAX_BARS,
  MAX_LINK_FILTER,
  openFilter,
  openStatuses,
  severityField,
  statusField,
} from './overview-model.ts';

const picklist = (name: string, values: string[], extra: Partial<Field> = {}): Field => ({
  name,
  type: 'PICKLIST',
  required: false,
  values,
  ...extra,
});

const definitionWith = (fields: Field[]): Definition => ({
  recordType: 'apps',
  alias: 'things',
  name: 'Things',
  handle: 'THG',
  fields,
});

describe('which fields the Overview charts', () => {
  it('finds status, severity and the created date in both profiles', () => {
    for (const definition of [ticketsDefinition, hostedTicketsDefinition]) {
      expect(statusField(definition)?.name).toBe('Status');
      expect(severityField(definition)?.name).toBe('Severity');
    }
    expect(createdField(ticketsDefinition)?.name).toBe('Created At');
    expect(createdField(hostedTicketsDefinition)?.name).toBe('Created on');
  });

  it('takes only single-value picklists with values, by name', () => {
    const definition = definitionWith([
      { name: 'Priority', type: 'NUMBER', required: false },
      { name: 'Status', type: 'MULTI_PICKLIST', required: false, values: ['A'] },
      picklist('Stage', []),
      picklist('Pipeline Stage', ['Lead', 'Won']),
      picklist('Impact', ['Low', 'High']),
      { name: 'Created by', type: 'USER_ID', required: false, readOnly: true },
      { name: 'Created', type: 'DATETIME', required: false },
    ]);
    expect(statusField(definition)?.name).toBe('Pipeline Stage');
    expect(severityField(definition)?.name).toBe('Impact');
    // A writable date named "Created" is the user's field, not the audit stamp.
    expect(createdField(definition)).toBeUndefined();
  });

  it('has no status or severity for a definition without such picklists', () => {
    const definition = definitionWith([picklist('Plan', ['Free', 'Enterprise'])]);
    expect(statusField(definition)).toBeUndefined();
    expect(severityField(definition)).toBeUndefined();
  });
});

describe('open statuses', () => {
  it('leaves out the values that end a record', () => {
    expect(
      openStatuses(picklist('Status', ['New', 'Open', 'Pending', 'On Hold', 'Resolved', 'Closed'])),
    ).toEqual(['New', 'Open', 'Pending', 'On Hold']);
    expect(openStatuses(picklist('Status', ['To Do', 'In Progress', 'Blocked', 'Done']))).toEqual([
      'To Do',
      'In Progress',
      'Blocked',
    ]);
    expect(openStatuses(picklist('Status', ['Requested', 'Approved', 'Rejected', 'Paid']))).toEqual(
      ['Requested', 'Approved'],
    );
  });

  it('matches closing words anywhere in the value, ignoring case', () => {
    expect(isClosedStatus('Closed - Won')).toBe(true);
    expect(isClosedStatus('cancelled')).toBe(true);
    expect(isClosedStatus('Canceled')).toBe(true);
    expect(isClosedStatus('Completed')).toBe(true);
    expect(isClosedStatus('Reopened')).toBe(false);
    expect(isClosedStatus('Closing soon')).toBe(false);
  });

  it('filters the open values, quoting as RSQL needs; none when every value is closed', () => {
    expect(openFilter(picklist('Status', ['New', 'On Hold', 'Closed']))).toBe(
      "Status=in=(New,'On Hold')",
    );
    expect(openFilter(picklist('Status', ['Done']))).toBeUndefined();
  });
});

describe('fieldBars', () => {
  it('has one bar per value and "Not set" last', () => {
    expect(fieldBars(picklist('Severity', ['Low', 'High']))).toEqual([
      { label: 'Low', filter: 'Severity==Low' },
      { label: 'High', filter: 'Severity==High' },
      { label: 'Not set', filter: 'Severity==null', unset: true },
    ]);
  });

  it(`groups values past ${MAX_BARS} bars as "Other values"`, () => {
    const values = Array.from({ length: 20 }, (_, i) => `V${i}`);
    const bars = fieldBars(picklist('Kind', values));
    expect(bars).toHaveLength(MAX_BARS + 1);
    expect(bars[MAX_BARS - 1]).toEqual({
      label: 'Other values',
      filter: `Kind=in=(${values.slice(MAX_BARS - 1).join(',')})`,
    });
  });
  it('leaves "Other values" out when its filter would be too long for a list link', () => {
    const values = Array.from({ length: 40 }, (_, i) => `${'Long value '.repeat(20)}${i}`);
    const bars = fieldBars(picklist('Kind', values));
    expect(bars.map((bar) => bar.label)).not.toContain('Other values');
    expect(bars.every((bar) => bar.filter.length <= MAX_LINK_FILTER)).toBe(true);
  });
});

describe('the 30 days', () => {
  it('ends today, starts each day at local midnight, and chains the days', () => {
    const now = new Date(2026, 10, 24, 15, 30);
    const days = lastDays(now);
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.key).toBe('2026-11-24');
    expect(days[0]?.key).toBe('2026-10-26');
    expect(days[0]?.start).toBe(new Date(2026, 9, 26).toISOString());
    expect(days.at(-1)?.end).toBe(new Date(2026, 10, 25).toISOString());
    for (let i = 1; i < days.length; i += 1) expect(days[i]?.start).toBe(days[i - 1]?.end);
  });

  it('filters one day as a half-open range', () => {
    expect(
      createdBetween('Created At', '2026-11-23T23:00:00.000Z', '2026-11-24T23:00:00.000Z'),
    ).toBe('Created At=ge=2026-11-23T23:00:00.000Z;Created At=lt=2026-11-24T23:00:00.000Z');
  });

  it('counts timestamps into their day, ends excluded, strays and junk left out', () => {
    const days = lastDays(new Date(2026, 10, 24, 12), 2);
    const [yesterday, today] = days;
    if (!yesterday || !today) throw new Error('two days');
    expect(
      countByDay(
        [
          yesterday.start,
          today.start,
          today.start,
          today.end,
          'not a date',
          '2020-01-01T00:00:00.000Z',
        ],
        days,
      ),
    ).toEqual([1, 2]);
  });
});
