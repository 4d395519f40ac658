// Token buckets per key (a session, a person): a steady rate with a burst on top, in memory per
// instance. Used for the BFF's own request rate per session and for presence writes per person.
import type { Clock } from './clock.ts';

/** A rate: `ratePerSecond` tokens refill each second, up to `burst`; a rate of 0 is no limit. */
export type Rate = { ratePerSecond: number; burst: number };

export type TokenBuckets = {
  /** Takes one token of `key`'s bucket: 0 when taken, else whole seconds until one is there. */
  take(key: string): number;
  /** What `take` would answer, taking nothing. */
  peek(key: string): number;
  /** Keys with a bucket now. */
  size(): number;
};

/**
 * Builds the buckets. At most `maxKeys` buckets are kept (the least recently used go first: a
 * forgotten key starts full again, so the bound must be far above the keys in use).
 *
 * @example
 * const buckets = tokenBuckets({ clock, rate: { ratePerSecond: 20, burst: 120 }, maxKeys: 50_000 });
 * const wait = buckets.take(session.idHash); // 0, or the Retry-After seconds
 */
export function tokenBuckets(options: { clock: Clock; rate: Rate; maxKeys: number }): TokenBuckets {
  const { clock, rate, maxKeys } = options;
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** The bucket as it is now (refilled for the time since it was last used). */
  const refilled = (key: string) => {
    const now = clock.now();
    const bucket = buckets.get(key) ?? { tokens: rate.burst, at: now };
    const elapsed = Math.max(0, now - bucket.at) / 1000;
    return {
      tokens: Math.min(rate.burst, bucket.tokens + elapsed * rate.ratePerSecond),
      at: now,
    };
  };
  const wait = (tokens: number) =>
    tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate.ratePerSecond));
  return {
    peek(key) {
      return rate.ratePerSecond <= 0 ? 0 : wait(refilled(key).tokens);
    },
    take(key) {
      if (rate.ratePerSecond <= 0) return 0;
      const bucket = refilled(key);
      // Re-inserted on every use: the map's first key is the least recently used.
      buckets.delete(key);
      buckets.set(key, bucket);
      while (buckets.size > maxKeys) {
        const oldest = buckets.keys().next();
        if (oldest.done) break;
        buckets.delete(oldest.value);
      }
      const seconds = wait(bucket.tokens);
      if (seconds === 0) bucket.tokens -= 1;
      return seconds;
    },
    size: () => buckets.size,
  };
}
