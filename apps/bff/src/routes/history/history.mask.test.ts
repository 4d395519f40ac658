// Masking a related item's target the reader cannot see (issue 26 L2), on its own.
import { describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import type { HistoryEntry } from '@wsc/api-client/bff-history';
import { HIDDEN_RELATED_ITEM } from '@wsc/api-client/bff-history';

import { maskHiddenTargets, targetVisible } from './history.mask.ts';

const tickets: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support',
  handle: 'SUP',
  fields: [],
};

const entry = (kind: HistoryEntry['kind'], before: unknown, after: unknown): HistoryEntry => ({
  id: '1',
  changeId: 'c',
  at: '2025-03-01T09:00:00.000Z',
  actor: { id: 'u', name: 'Ada' },
  identity: 'api',
  recordType: 'apps',
  alias: 'support-tickets',
  recordId: 'SUP-1',
  kind,
  field: 'Related item',
  before,
  after,
  source: 'related-items',
});

describe('targetVisible', () => {
  it('finds the definition by alias when the write named it, else by the handle prefix', () => {
    expect(targetVisible('support-tickets/SUP-2', [tickets])).toBe(true);
    expect(targetVisible('refunds/REF-2', [tickets])).toBe(false);
    expect(targetVisible('SUP-2', [tickets])).toBe(true);
    expect(targetVisible('REF-1', [tickets])).toBe(false);
    // Unknown shapes are not visible: the check closes.
    for (const odd of ['', 'SUP', '-1', 42, null])
      expect(targetVisible(odd, [tickets])).toBe(false);
  });
});

describe('maskHiddenTargets', () => {
  it('masks related-item targets only, and every one when the definitions are unknown', () => {
    const entries = [
      entry('related-item-added', null, 'REF-1'),
      entry('related-item-removed', 'SUP-3', null),
      entry('updated', 'REF-1', 'REF-2'),
    ];
    expect(maskHiddenTargets(entries, [tickets]).map((e) => [e.before, e.after])).toEqual([
      [null, HIDDEN_RELATED_ITEM],
      ['SUP-3', null],
      ['REF-1', 'REF-2'],
    ]);
    expect(maskHiddenTargets(entries, undefined).map((e) => [e.before, e.after])).toEqual([
      [null, HIDDEN_RELATED_ITEM],
      [HIDDEN_RELATED_ITEM, null],
      ['REF-1', 'REF-2'],
    ]);
  });
});
