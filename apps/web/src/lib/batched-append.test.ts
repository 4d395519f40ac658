import { afterEach, describe, expect, it, vi } from 'vitest';

import { batchedAppend } from './batched-append.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('batchedAppend', () => {
  it('hands over what arrived within an interval at once, in order, and the rest on flush', () => {
    vi.useFakeTimers();
    const handed: number[][] = [];
    const incoming = batchedAppend<number>((items) => handed.push(items), 100);
    incoming.push(1);
    incoming.push(2);
    vi.advanceTimersByTime(99);
    expect(handed).toEqual([]);
    incoming.push(3);
    vi.advanceTimersByTime(1);
    expect(handed).toEqual([[1, 2, 3]]);
    incoming.push(4);
    incoming.flush();
    expect(handed).toEqual([[1, 2, 3], [4]]);
    // Nothing kept: neither a flush nor the old timer hands over an empty batch.
    incoming.flush();
    vi.advanceTimersByTime(500);
    expect(handed).toEqual([[1, 2, 3], [4]]);
  });
});
