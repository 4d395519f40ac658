// Sliding-window counter of failed sign-ins per client address, in memory (per instance).
import type { Clock } from './clock.ts';

const MAX_TRACKED_ADDRESSES = 50_000;

export type FailureLimiter = {
  /** Seconds until another attempt is allowed, or 0 when the address may try now. */
  retryAfter(key: string): number;
  recordFailure(key: string): void;
};

/**
 * Allow at most `max` failures per `windowMs` per key.
 *
 * @example
 * const limiter = createFailureLimiter({ max: 10, windowMs: 300_000, clock });
 * if (limiter.retryAfter(ip) > 0) return tooMany();
 */
export function createFailureLimiter(options: {
  max: number;
  windowMs: number;
  clock: Clock;
}): FailureLimiter {
  const failures = new Map<string, number[]>();

  const recent = (key: string, now: number): number[] => {
    const list = failures.get(key);
    if (!list) return [];
    const kept = list.filter((t) => now - t < options.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };

  return {
    retryAfter(key) {
      const now = options.clock.now();
      const list = recent(key, now);
      if (list.length < options.max) return 0;
      const oldest = list[list.length - options.max] ?? now;
      return Math.max(1, Math.ceil((oldest + options.windowMs - now) / 1000));
    },
    recordFailure(key) {
      const now = options.clock.now();
      const list = recent(key, now);
      list.push(now);
      if (list.length > options.max) list.splice(0, list.length - options.max);
      if (!failures.has(key) && failures.size >= MAX_TRACKED_ADDRESSES) {
        // Under a flood of distinct addresses, forget the oldest rather than grow without bound.
        const oldest = failures.keys().next();
        if (!oldest.done) failures.delete(oldest.value);
      }
      failures.set(key, list);
    },
  };
}
