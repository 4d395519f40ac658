import { describe, expect, it } from 'vitest';

import { handleBatches, handleFilter } from './batches.ts';

const items = (n: number, prefix = 'SUP') =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i + 1}` }));

describe('handleBatches', () => {
  it('groups the records 100 to a batch, in order', () => {
    const batches = handleBatches(items(237), 'id');
    expect(batches.map((b) => b.length)).toEqual([100, 100, 37]);
    expect(batches.flat().map((i) => i.id)).toEqual(items(237).map((i) => i.id));
  });

  it('makes smaller batches when long handles would make the filter too long', () => {
    const long = items(100, 'A'.repeat(60));
    const batches = handleBatches(long, 'Ticket ID');
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      expect(
        handleFilter(
          'Ticket ID',
          batch.map((i) => i.id),
        ).length,
      ).toBeLessThanOrEqual(3_500);
    }
  });

  it('keeps a handle field with inner spaces as it is and quotes handles with reserved characters', () => {
    expect(handleFilter('Ticket ID', ['SUP-1', 'a,b'])).toBe("Ticket ID=in=(SUP-1,'a,b')");
  });
});
