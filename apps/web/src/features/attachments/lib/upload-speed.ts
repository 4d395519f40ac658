/** One progress sample: bytes sent so far at a moment (ms). */
export interface RateSample {
  at: number;
  loaded: number;
}

/** The window speed is measured over: long enough to smooth bursts, short enough to follow changes. */
export const SPEED_WINDOW_MS = 3000;

/**
 * Adds a sample and drops those older than the window (keeping one just outside it, so the rate
 * always spans the whole window once enough time has passed).
 *
 * @example
 * let samples = addSample([], { at: 0, loaded: 0 });
 * samples = addSample(samples, { at: 1000, loaded: 500_000 });
 */
export function addSample(
  samples: RateSample[],
  sample: RateSample,
  windowMs = SPEED_WINDOW_MS,
): RateSample[] {
  const next = [...samples, sample];
  let first = 0;
  while (first + 1 < next.length && (next[first + 1]?.at ?? 0) <= sample.at - windowMs) first++;
  return next.slice(first);
}

/**
 * Bytes per second over the samples' span (a sliding window); 0 until two samples are apart.
 *
 * @example
 * rate([{ at: 0, loaded: 0 }, { at: 2000, loaded: 1_000_000 }]); // 500000
 */
export function rate(samples: RateSample[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at <= first.at) return 0;
  return ((last.loaded - first.loaded) * 1000) / (last.at - first.at);
}

const UNITS = ['B', 'KB', 'MB', 'GB'];

/**
 * Human file size in binary units with the usual short labels.
 *
 * @example
 * formatBytes(1536); // '1.5 KB'
 * formatBytes(262_144_000); // '250 MB'
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${Number(value.toFixed(digits))} ${UNITS[unit]}`;
}
