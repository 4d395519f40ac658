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
