// Summary statistics for latency samples. Percentiles use the nearest-rank method on the sorted
// samples (no interpolation), so every reported figure is a latency that was actually observed.

/** What a list of samples is summarized to (milliseconds unless said otherwise). */
export type Summary = {
  n: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

/**
 * The nearest-rank percentile `p` (0..100) of samples that are already sorted ascending.
 * Throws on an empty list or a p outside 0..100, since a silent NaN would end up in the report.
 *
 * @example
 * percentile([1, 2, 3, 4], 50); // 2
 * percentile([1, 2, 3, 4], 99); // 4
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of no samples');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile out of range: ${p}`);
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/**
 * Sorts a copy of the samples and summarizes them.
 *
 * @example
 * summarize([3, 1, 2]); // { n: 3, min: 1, mean: 2, p50: 2, p95: 3, p99: 3, max: 3 }
 */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    min: percentile(sorted, 0),
    mean: total / sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] as number,
  };
}

/**
 * The median of per-pair ratios `a[i] / b[i]`: robust against load spikes that hit only one side
 * of a pair (the machine is shared), unlike a ratio of two medians measured at different times.
 *
 * @example
 * medianRatio([2, 4, 100], [1, 2, 2]); // 2
 */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0)
    throw new Error('medianRatio needs two lists of the same non-zero length');
  return percentile(
    a.map((value, index) => value / (b[index] as number)).sort((x, y) => x - y),
    50,
  );
}

/**
 * Milliseconds with a precision that suits the magnitude (for the report).
 *
 * @example
 * formatMs(0.04321); // '0.043 ms'
 * formatMs(12.345); // '12.3 ms'
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const digits = Math.abs(ms) < 1 ? 3 : Math.abs(ms) < 100 ? 1 : 0;
  return `${ms.toFixed(digits)} ms`;
}

/**
 * Bytes in MiB with one decimal.
 *
 * @example
 * formatMiB(64 * 1024 * 1024); // '64.0 MiB'
 */
export function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
