import { describe, expect, it } from 'vitest';

import type { CurrentRecord } from './undo-plan.ts';
import { conflictReason, planUndo } from './undo-plan.ts';

const changes = { Status: 'Closed', Severity: 'Low' };
const records = [
  { id: 'SUP-1', before: { Status: 'New', Severity: 'High' } },
  { id: 'SUP-2', before: { Status: 'Open', Severity: 'Low' } },
  { id: 'SUP-3', before: { Status: 'New', Severity: 'High' } },
  { id: 'SUP-4', before: { Status: 'New', Severity: 'High' } },
  { id: 'SUP-5', before: { Status: 'New', Severity: '' } },
];

function current(entries: Record<string, CurrentRecord | { error: string }>) {
  return new Map(Object.entries(entries));
}

describe('planUndo', () => {
  it('restores only the fields still at what the run wrote, with the read ETag', () => {
    const plan = planUndo(
      changes,
      records.slice(0, 2),
      current({
        'SUP-1': { record: { Title: 'A', Status: 'Closed', Severity: 'Low' }, etag: 'W/"1"' },
        // The run did not change Severity here (it was Low already): only Status goes back.
        'SUP-2': { record: { Status: 'Closed', Severity: 'Low' } },
      }),
    );
    expect(plan.toRestore).toEqual([
      {
        id: 'SUP-1',
        restore: { Status: 'New', Severity: 'High' },
        latest: { Title: 'A', Status: 'Closed', Severity: 'Low' },
        etag: 'W/"1"',
      },
      {
        id: 'SUP-2',
        restore: { Status: 'Open' },
        latest: { Status: 'Closed', Severity: 'Low' },
        etag: undefined,
      },
    ]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.unchanged).toBe(0);
  });

  it('reports a record changed since by someone else as a conflict and writes none of it', () => {
    const plan = planUndo(
      changes,
      records.slice(2, 4),
      current({
        // Status still as the run left it, but Severity changed to a third value.
        'SUP-3': { record: { Status: 'Closed', Severity: 'Critical' } },
        'SUP-4': { record: { Status: 'Pending', Severity: 'Medium' } },
      }),
    );
    expect(plan.toRestore).toEqual([]);
    expect(plan.conflicts).toEqual([
      { id: 'SUP-3', fields: [{ field: 'Severity', wrote: 'Low', now: 'Critical' }] },
      {
        id: 'SUP-4',
        fields: [
          { field: 'Status', wrote: 'Closed', now: 'Pending' },
          { field: 'Severity', wrote: 'Low', now: 'Medium' },
        ],
      },
    ]);
    expect(conflictReason(plan.conflicts[0] ?? { id: '', fields: [] })).toBe(
      'Changed by someone else since the run (Severity is now "Critical"): left as it is',
    );
  });

  it('skips records already at their previous values (restored, or never written)', () => {
    const plan = planUndo(
      changes,
      [records[0], records[4]].filter((r) => r !== undefined),
      current({
        'SUP-1': { record: { Status: 'New', Severity: 'High' } },
        // A missing key reads as empty, as the run's "before" does.
        'SUP-5': { record: { Status: 'New' } },
      }),
    );
    expect(plan).toEqual({ toRestore: [], conflicts: [], unchanged: 2, unreadable: [] });
  });

  it('a field someone set back to its previous value is no conflict: the rest is restored', () => {
    const plan = planUndo(
      changes,
      records.slice(0, 1),
      current({ 'SUP-1': { record: { Status: 'New', Severity: 'Low' } } }),
    );
    expect(plan.toRestore.map((i) => i.restore)).toEqual([{ Severity: 'High' }]);
  });

  it('lists records that could not be read with the reason', () => {
    const plan = planUndo(
      changes,
      records.slice(0, 2),
      current({ 'SUP-1': { error: 'Not found' } }),
    );
    expect(plan.unreadable).toEqual([
      { id: 'SUP-1', reason: 'Not found' },
      { id: 'SUP-2', reason: 'Not checked' },
    ]);
  });
});
