import { describe, expect, it, vi } from 'vitest';

import { checkLiveQueueNow, watchLiveQueue } from '@/queries/live-queue.ts';

import type { BulkOutcome } from './scheduler.ts';
import { whileWriting } from './while-writing.ts';

const definition = { recordType: 'apps', alias: 'while-writing-test' };
const outcome = (id: string): BulkOutcome => ({ id, ok: true, attempts: 1 });

describe('whileWriting', () => {
  it("holds the definition's lists while it writes and hands every outcome over at the end", async () => {
    const check = vi.fn();
    const unwatch = watchLiveQueue(definition.recordType, definition.alias, check);
    const handed: BulkOutcome[][] = [];
    const result = await whileWriting(
      definition,
      (items) => handed.push(items),
      async (onOutcome) => {
        onOutcome(outcome('A-1'));
        onOutcome(outcome('A-2'));
        // News of the run's own writes does not make the list look again meanwhile.
        expect(checkLiveQueueNow(definition.recordType, definition.alias)).toBe(0);
        return 'ran';
      },
    );
    expect(result).toBe('ran');
    // Within the interval: one batch, handed over when the write ended.
    expect(handed).toEqual([[outcome('A-1'), outcome('A-2')]]);
    expect(checkLiveQueueNow(definition.recordType, definition.alias)).toBe(1);
    expect(check).toHaveBeenCalledTimes(1);
    unwatch();
  });

  it('hands over what came and lets the lists go when the writes fail', async () => {
    const handed: BulkOutcome[][] = [];
    const unwatch = watchLiveQueue(definition.recordType, definition.alias, () => {});
    await expect(
      whileWriting(
        definition,
        (items) => handed.push(items),
        async (onOutcome) => {
          onOutcome(outcome('B-1'));
          throw new Error('stopped');
        },
      ),
    ).rejects.toThrow('stopped');
    expect(handed).toEqual([[outcome('B-1')]]);
    expect(checkLiveQueueNow(definition.recordType, definition.alias)).toBe(1);
    unwatch();
  });
});
