import { describe, expect, it } from 'vitest';

import type { HistoryEntry } from '@wsc/api-client/bff-history';

import { groupChanges, outsideChange, relativeTime, sourceLabel, valueText } from './describe.ts';

const RUN = '0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d';

function entry(id: string, changeId: string, field: string): HistoryEntry {
  return {
    id,
    changeId,
    at: '2025-03-01T09:00:00.000Z',
    actor: { id: 'u1', name: 'Alex Morgan' },
    identity: 'api',
    recordType: 'apps',
    alias: 'support-tickets',
    recordId: 'SUP-1',
    kind: 'updated',
    field,
    before: '',
    after: 'x',
    source: 'editor',
  };
}

describe('the record history as it reads', () => {
  it('names sources, bulk runs by the start of their id', () => {
    expect(sourceLabel('editor')).toBe('Editor');
    expect(sourceLabel('triage')).toBe('Triage');
    expect(sourceLabel(`bulk-run:${RUN}`)).toBe('Bulk run #0b9d4c1e');
    expect(sourceLabel(`undo:${RUN}`)).toBe('Undo of bulk run #0b9d4c1e');
    expect(sourceLabel('bulk-run')).toBe('Bulk run');
    expect(sourceLabel('something-new')).toBe('Console');
  });

  it('shows no value as empty, and other values as text', () => {
    expect(valueText('')).toBeUndefined();
    expect(valueText(null)).toBeUndefined();
    expect(valueText('Open')).toBe('Open');
    expect(valueText(3)).toBe('3');
  });

  it('says how long ago', () => {
    const now = Date.parse('2025-03-01T09:05:00Z');
    expect(relativeTime('2025-03-01T09:04:58Z', now)).toBe('just now');
    expect(relativeTime('2025-03-01T09:00:00Z', now)).toMatch(/5 minutes ago/);
    expect(relativeTime('2025-02-28T09:00:00Z', now)).toMatch(/yesterday|1 day ago/);
  });

  it('groups a change’s fields, in the order they were written', () => {
    const groups = groupChanges([
      entry('4', 'b', 'Customer'),
      entry('3', 'b', 'Status'),
      entry('2', 'a', 'Severity'),
    ]);
    expect(groups.map((g) => g.entries.map((e) => e.field))).toEqual([
      ['Status', 'Customer'],
      ['Severity'],
    ]);
  });

  it('names a later change made outside the console from the audit fields, and only then', () => {
    const fields = { at: 'Updated At', by: 'Updated By' };
    const record = { 'Updated At': '2025-03-01T10:00:00.000Z', 'Updated By': 'ops@example.com' };
    expect(outsideChange(record, fields, '2025-03-01T09:00:00.000Z')).toEqual({
      at: '2025-03-01T10:00:00.000Z',
      by: 'ops@example.com',
    });
    expect(outsideChange(record, fields, undefined)?.by).toBe('ops@example.com');
    // The console's own change (stamped after the API's Updated At), and clock slack.
    expect(outsideChange(record, fields, '2025-03-01T10:00:00.100Z')).toBeUndefined();
    expect(outsideChange(record, fields, '2025-03-01T09:59:59.800Z')).toBeUndefined();
    // No audit fields in the definition, or none in the record: nothing to say.
    expect(outsideChange(record, {}, undefined)).toBeUndefined();
    expect(outsideChange({}, fields, undefined)).toBeUndefined();
  });
});
