import { describe, expect, it } from 'vitest';

import { isConnectionReset } from '../../lib/connection-reset.ts';
import { fullJitter } from './proxy-exchange.ts';

describe('proxy exchange helpers', () => {
  it('backs off with full jitter: uniform in [0, min(cap, base * 2^attempt)]', () => {
    const retry = { baseDelayMs: 100, maxDelayMs: 1_000 };
    expect(fullJitter(0, retry, () => 0)).toBe(0);
    expect(fullJitter(0, retry, () => 0.999)).toBe(99);
    expect(fullJitter(2, retry, () => 0.5)).toBe(200);
    expect(fullJitter(8, retry, () => 0.999)).toBe(999);
  });

  it('recognises resets, not refusals', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(isConnectionReset(reset)).toBe(true);
    expect(isConnectionReset(new TypeError('fetch failed', { cause: reset }))).toBe(true);
    expect(isConnectionReset(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(
      false,
    );
  });
});
