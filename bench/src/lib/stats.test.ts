import { describe, expect, it } from 'vitest';

import { formatMiB, formatMs, medianRatio, percentile, summarize } from './stats.ts';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it('returns observed values at the usual ranks', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });

  it('rounds the rank up on small lists', () => {
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 51)).toBe(30);
    expect(percentile([10, 20, 30, 40], 99)).toBe(40);
    expect(percentile([7], 99)).toBe(7);
  });

  it('refuses no samples and out-of-range percentiles', () => {
    expect(() => percentile([], 50)).toThrow(/no samples/);
    expect(() => percentile([1], 101)).toThrow(/out of range/);
    expect(() => percentile([1], Number.NaN)).toThrow(/out of range/);
  });
});

describe('summarize', () => {
  it('sorts a copy and reports every figure', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(summarize(samples)).toEqual({ n: 5, min: 1, mean: 3, p50: 3, p95: 5, p99: 5, max: 5 });
    expect(samples).toEqual([5, 1, 4, 2, 3]);
  });

  it('keeps a slow outlier out of the median but in p99', () => {
    const samples = [...Array.from({ length: 99 }, () => 10), 500];
    const summary = summarize(samples);
    expect(summary.p50).toBe(10);
    expect(summary.p99).toBe(10);
    expect(summary.max).toBe(500);
  });
});

describe('medianRatio', () => {
  it('takes the median of per-pair ratios', () => {
    expect(medianRatio([2, 4, 100], [1, 2, 2])).toBe(2);
  });

  it('needs equally long, non-empty lists', () => {
    expect(() => medianRatio([1], [1, 2])).toThrow();
    expect(() => medianRatio([], [])).toThrow();
  });
});

describe('formatting', () => {
  it('picks precision by magnitude', () => {
    expect(formatMs(0.04321)).toBe('0.043 ms');
    expect(formatMs(12.345)).toBe('12.3 ms');
    expect(formatMs(1234.5)).toBe('1235 ms');
    expect(formatMiB(64 * 1024 * 1024)).toBe('64.0 MiB');
  });
});
