import { describe, expect, it } from 'vitest';

import { TokenBucketLimiter } from './rate-limit.ts';

describe('TokenBucketLimiter', () => {
  it('allows a burst, then refills at the rate', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ ratePerSecond: 2, burst: 3 }, () => now);
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
    const denied = limiter.take('a');
    expect(denied.retryAfter).toBe(1);
    now = 500; // one token back after half a second at 2/s
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true);
  });

  it('is off when the rate is 0', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0, burst: 0 });
    expect(limiter.enabled).toBe(false);
    for (let i = 0; i < 1000; i += 1) expect(limiter.take('a').allowed).toBe(true);
  });

  it('formats the IETF draft headers', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 20, burst: 100 }, () => 0);
    const result = limiter.take('a');
    expect(limiter.headers('per-credential', result)).toEqual({
      'RateLimit-Policy': '"per-credential";q=100;w=5',
      RateLimit: '"per-credential";r=99;t=1',
    });
  });
});

describe('TokenBucketLimiter under a flood of keys (the failed-token limiter)', () => {
  it('holds at most maxKeys and does O(1) bookkeeping per call past 50k keys', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1 / 6, burst: 10 }, () => now, {
      maxKeys: 60_000,
    });
    const calls = 200_000;
    for (let i = 0; i < calls; i += 1) {
      limiter.take(`client-${i}`);
      now += 0.01; // 200k distinct keys in 2 s: none is full again yet
    }
    expect(limiter.size).toBe(60_000);
    // A sweep of a few oldest entries plus at most one eviction per call, never a full scan.
    expect(limiter.visits / calls).toBeLessThanOrEqual(6);
  });

  it('forgets buckets once they are full again (burst / rate), without being asked', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1 / 6, burst: 10 }, () => now);
    for (let i = 0; i < 80_000; i += 1) limiter.take(`old-${i}`);
    expect(limiter.size).toBe(80_000);
    now += 6_001; // one token refills in 6 s: every bucket (9 of 10) is full again
    // Each later call drains a few old entries, whatever key it is for.
    for (let i = 0; i < 20_000; i += 1) limiter.take('active');
    expect(limiter.size).toBe(1);
    // A forgotten key starts over with the documented burst, no more.
    const results = Array.from({ length: 11 }, () => limiter.take('old-1').allowed);
    expect(results.filter(Boolean)).toHaveLength(10);
  });

  it('can be charged below zero and refunded (the search time budget)', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter({ ratePerSecond: 500, burst: 1000 }, () => now);
    expect(limiter.charge('a', 3000).allowed).toBe(false);
    expect(limiter.peek('a').retryAfter).toBe(5); // 2001 ms of debt at 500 ms/s
    now += 4_100;
    expect(limiter.peek('a').allowed).toBe(true);
    limiter.take('b');
    limiter.refund('b');
    expect(limiter.peek('b').remaining).toBe(1000);
  });
});
