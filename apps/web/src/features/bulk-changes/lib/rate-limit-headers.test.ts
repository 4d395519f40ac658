import { describe, expect, it } from 'vitest';

import { parseRateLimit } from './rate-limit-headers.ts';

const from = (headers: Record<string, string>) => {
  const h = new Headers(headers);
  return (name: string) => h.get(name);
};

describe('parseRateLimit', () => {
  it('reads the structured fields our API sends', () => {
    expect(
      parseRateLimit(
        from({
          RateLimit: '"per-credential";r=99;t=1',
          'RateLimit-Policy': '"per-credential";q=100;w=5',
        }),
      ),
    ).toEqual({ remaining: 99, resetSeconds: 1, quota: 100, windowSeconds: 5 });
  });

  it('takes the tightest of several policies, with its own quota', () => {
    expect(
      parseRateLimit(
        from({
          RateLimit: '"burst";r=40;t=2, "daily";r=7;t=3600',
          'RateLimit-Policy': '"burst";q=100;w=5, "daily";q=1000;w=86400',
        }),
      ),
    ).toEqual({ remaining: 7, resetSeconds: 3600, quota: 1000, windowSeconds: 86400 });
  });

  it('reads the earlier drafts’ separate fields, with or without the X- prefix', () => {
    expect(
      parseRateLimit(
        from({
          'RateLimit-Limit': '100, 100;w=5',
          'RateLimit-Remaining': '12',
          'RateLimit-Reset': '4',
        }),
      ),
    ).toEqual({ remaining: 12, resetSeconds: 4, quota: 100, windowSeconds: 5 });
    expect(parseRateLimit(from({ 'X-RateLimit-Remaining': '3' }))).toEqual({
      remaining: 3,
      resetSeconds: undefined,
      quota: undefined,
      windowSeconds: undefined,
    });
  });

  it('says nothing when the service states nothing (the hosted one)', () => {
    expect(parseRateLimit(from({ 'Content-Type': 'application/json' }))).toBeUndefined();
    expect(parseRateLimit(from({ RateLimit: 'garbage' }))).toBeUndefined();
  });
});
