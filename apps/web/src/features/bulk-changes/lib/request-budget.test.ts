import { describe, expect, it } from 'vitest';

import { virtualClock } from '@/testing/virtual-clock.ts';

import { RequestBudget } from './request-budget.ts';

/** Acquires `n` times one after another; returns the time of each. */
async function acquireTimes(budget: RequestBudget, clock: { now: () => number }, n: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await budget.acquire();
    budget.settle();
    times.push(clock.now());
  }
  return times;
}

describe('RequestBudget', () => {
  it('spends the assumed quota but its reserve at once, then paces at the refill rate', async () => {
    const clock = virtualClock();
    // Our API's default: 100 per 5 s (20/s); 10% kept in reserve.
    const budget = new RequestBudget({ ...clock });
    const times = await acquireTimes(budget, clock, 92);
    expect(times.slice(0, 90).every((t) => t === 0)).toBe(true);
    expect(times.slice(90)).toEqual([50, 100]);
  });

  it('follows the RateLimit the service states: its remaining and its policy', async () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    await budget.acquire();
    // The service has spent more than this run knows (the BFF's own reads, another tab).
    budget.settle(1, { remaining: 12, quota: 20, windowSeconds: 2 });
    // 20 per 2 s: reserve 2, refill one per 100 ms; 12 left now.
    expect(budget.tokens).toBe(12);
    const times = await acquireTimes(budget, clock, 12);
    expect(times.slice(0, 10).every((t) => t === 0)).toBe(true);
    expect(times.slice(10)).toEqual([100, 200]);
  });

  it('counts requests still in flight against what the service says is left', async () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    for (let i = 0; i < 5; i++) await budget.acquire();
    // The first answer says 50 left; four others are in flight and may not be counted yet.
    budget.settle(1, { remaining: 50 });
    expect(budget.inFlight).toBe(4);
    expect(budget.tokens).toBe(46);
  });

  it('slows down before the service says 0: the reserve is never spent', async () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    await budget.acquire();
    budget.settle(1, { remaining: 10, quota: 100, windowSeconds: 5 });
    // 10 left is the reserve: the next request waits for one token (50 ms at 20/s).
    expect(budget.wait()).toBe(50);
  });

  it("pauses everything for a 429's Retry-After and counts the bucket empty", async () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    await budget.acquire();
    budget.settle(1);
    budget.pause(2);
    await budget.acquire();
    // 2 s asked for; by then 40 tokens came back, more than the reserve and the request.
    expect(clock.now()).toBe(2_000);
  });

  it('without Retry-After, pauses for the time to earn back its reserve', () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    budget.pause();
    // 10 tokens at 20/s: 500 ms, then one more for the request itself.
    expect(budget.wait()).toBe(550);
  });

  it('gives up without counting anything when aborted while waiting', async () => {
    const clock = virtualClock();
    const budget = new RequestBudget({ ...clock });
    budget.pause(60);
    const controller = new AbortController();
    const waiting = budget.acquire(1, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(budget.inFlight).toBe(0);
  });
});
