import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import type { LivePage, VisibilitySource } from './live-queue.ts';
import { applyUpdates, compareWithLoaded, mergeFresh, startLivePoll } from './live-queue.ts';

const rec = (id: string, extra: RecordData = {}): RecordData => ({ id, Title: id, ...extra });
const item = (record: RecordData) => ({ cursor: `c-${record.id}`, data: record });
const idOf = (record: RecordData) => record.id;
const ids = (pages: LivePage[]) => pages.flatMap((p) => p.items.map((i) => i.data.id));

describe('compareWithLoaded', () => {
  const loaded = ['A', 'B', 'C', 'D'].map((id) => rec(id));

  it('finds records the list lacks that sort before its last loaded row, in polled order', () => {
    const polled = ['N1', 'A', 'B', 'N2', 'C', 'D', 'N3'].map((id) => item(rec(id)));
    const found = compareWithLoaded(loaded, polled, idOf, false);
    expect(found.fresh.map((i) => i.data.id)).toEqual(['N1', 'N2']);
    expect(found.updated.size).toBe(0);
    expect(found.departed.size).toBe(0);
  });

  it('counts records after the last loaded row when the list is complete', () => {
    const polled = ['A', 'B', 'C', 'D', 'N3'].map((id) => item(rec(id)));
    expect(compareWithLoaded(loaded, polled, idOf, true).fresh.map((i) => i.data.id)).toEqual([
      'N3',
    ]);
  });

  it('counts every new record when the last loaded row lies past the polled page', () => {
    const polled = ['N1', 'A', 'B'].map((id) => item(rec(id)));
    expect(compareWithLoaded(loaded, polled, idOf, false).fresh.map((i) => i.data.id)).toEqual([
      'N1',
    ]);
  });

  it('reports held rows whose values changed, and none that did not', () => {
    const polled = [item(rec('A')), item(rec('B', { Status: 'Open' })), item(rec('C'))];
    const found = compareWithLoaded(loaded, polled, idOf, false);
    expect([...found.updated]).toEqual([['B', rec('B', { Status: 'Open' })]]);
    expect(found.fresh).toEqual([]);
  });

  it('marks held rows inside the polled stretch that the poll no longer returns', () => {
    const polled = ['A', 'C'].map((id) => item(rec(id)));
    // B sat between A and C and is gone; D lies past C, so the poll says nothing about it.
    expect([...compareWithLoaded(loaded, polled, idOf, false).departed]).toEqual(['B']);
  });

  it('ignores records without an id', () => {
    const polled = [item({ Title: 'no handle' }), item(rec('A'))];
    expect(compareWithLoaded(loaded, polled, (r) => r.id, false).fresh).toEqual([]);
  });
});

describe('mergeFresh', () => {
  const pages = (): LivePage[] => [
    { items: ['A', 'B'].map((id) => item(rec(id))), total: 4 },
    { items: ['C', 'D'].map((id) => item(rec(id))) },
  ];

  it('puts each new record after its nearest held predecessor in the polled order', () => {
    const polled = ['N1', 'A', 'N2', 'B', 'C', 'N3', 'D'].map((id) => item(rec(id)));
    const fresh = polled.filter((i) => i.data.id?.startsWith('N'));
    const merged = mergeFresh(pages(), polled, fresh, idOf, 7);
    expect(ids(merged)).toEqual(['N1', 'A', 'N2', 'B', 'C', 'N3', 'D']);
    expect(merged[0]?.total).toBe(7);
    // Rows keep their page: the first page's cursors stay valid for the pages after it.
    expect(merged[1]?.items.map((i) => i.data.id)).toEqual(['C', 'N3', 'D']);
  });

  it('does not add a record the list came to hold meanwhile', () => {
    const polled = ['A', 'C'].map((id) => item(rec(id)));
    expect(ids(mergeFresh(pages(), polled, [item(rec('C'))], idOf))).toEqual(['A', 'B', 'C', 'D']);
  });
});

describe('applyUpdates', () => {
  it('replaces changed rows in place and keeps untouched pages as they were', () => {
    const before: LivePage[] = [
      { items: [item(rec('A')), item(rec('B'))] },
      { items: [item(rec('C'))] },
    ];
    const after = applyUpdates(before, new Map([['B', rec('B', { Status: 'Open' })]]), idOf);
    expect(ids(after)).toEqual(['A', 'B', 'C']);
    expect(after[0]?.items[1]?.data.Status).toBe('Open');
    expect(after[0]?.items[0]).toBe(before[0]?.items[0]);
    expect(after[1]).toBe(before[1]);
  });
});

describe('startLivePoll', () => {
  let hidden = false;
  let listeners: (() => void)[] = [];
  const visibility: VisibilitySource = {
    hidden: () => hidden,
    subscribe: (listener) => {
      listeners.push(listener);
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
  };
  const setHidden = (value: boolean) => {
    hidden = value;
    for (const listener of listeners) listener();
  };

  /** A check that ends when the test says so (`finish` ends the latest one). */
  const slowCheck = () => {
    let end: () => void = () => undefined;
    const check = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          end = resolve;
        }),
    );
    return { check, finish: () => end() };
  };

  beforeEach(() => {
    vi.useFakeTimers();
    hidden = false;
    listeners = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every interval, waiting for a check to end before the next wait', async () => {
    const check = vi.fn(() => Promise.resolve());
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(999);
    expect(check).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(check).toHaveBeenCalledTimes(4);
    poll.stop();
  });

  it('skips its ticks while held, and checks again at the first tick after', async () => {
    const check = vi.fn(() => Promise.resolve());
    let isHeld = true;
    const poll = startLivePoll({ intervalMs: 1000, check, visibility, held: () => isHeld });
    await vi.advanceTimersByTimeAsync(5000);
    expect(check).not.toHaveBeenCalled();
    isHeld = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).toHaveBeenCalledTimes(1);
    poll.stop();
  });

  it('pauses while hidden and checks at once when shown again', async () => {
    const check = vi.fn(() => Promise.resolve());
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    setHidden(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).not.toHaveBeenCalled();
    poll.checkNow();
    expect(check).not.toHaveBeenCalled();
    setHidden(false);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).toHaveBeenCalledTimes(2);
    poll.stop();
  });

  it('schedules nothing after a check that ends while the page is hidden', async () => {
    const { check, finish } = slowCheck();
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    await vi.advanceTimersByTimeAsync(1000);
    setHidden(true);
    finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(1);
    poll.stop();
  });

  it('keeps one check in flight: asks meanwhile coalesce into one more', async () => {
    const { check, finish } = slowCheck();
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    poll.checkNow();
    poll.checkNow();
    poll.checkNow();
    await vi.advanceTimersByTimeAsync(5000);
    expect(check).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(2);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(2);
    poll.stop();
  });

  it('spaces asked-for checks: a burst costs one request per gap', async () => {
    const check = vi.fn(() => Promise.resolve());
    const poll = startLivePoll({ intervalMs: 20_000, minGapMs: 2000, check, visibility });
    poll.checkNow();
    expect(check).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 9; i++) {
      await vi.advanceTimersByTimeAsync(100);
      poll.checkNow();
    }
    await vi.advanceTimersByTimeAsync(1099);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    // Then the regular interval again.
    await vi.advanceTimersByTimeAsync(19_999);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(3);
    poll.stop();
  });

  it('stops: no timer, the check in flight aborted, the visibility listener gone', async () => {
    let signal: AbortSignal | undefined;
    const check = vi.fn((s: AbortSignal) => {
      signal = s;
      return new Promise<void>(() => undefined);
    });
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    await vi.advanceTimersByTimeAsync(1000);
    poll.stop();
    expect(signal?.aborted).toBe(true);
    expect(listeners).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps polling after a failed check', async () => {
    const check = vi.fn(() => Promise.reject(new Error('503')));
    const poll = startLivePoll({ intervalMs: 1000, check, visibility });
    await vi.advanceTimersByTimeAsync(2000);
    expect(check).toHaveBeenCalledTimes(2);
    poll.stop();
  });
});
