import { describe, expect, it } from 'vitest';

import { COUNT_CONCURRENCY, withCountSlot } from './record-counts.ts';

describe('withCountSlot', () => {
  it(`runs at most ${COUNT_CONCURRENCY} tasks at once, in call order, and frees slots on failure`, async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (index: number) => async () => {
      started.push(index);
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (index % 5 === 0) throw new Error(`task ${index}`);
      return index;
    };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => withCountSlot(task(index))),
    );
    expect(peak).toBe(COUNT_CONCURRENCY);
    expect(started).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(4);
    // Every slot came back: a fresh batch runs at full width again.
    peak = 0;
    await Promise.all(Array.from({ length: 8 }, (_, index) => withCountSlot(task(index * 5 + 1))));
    expect(peak).toBe(COUNT_CONCURRENCY);
  });
});
