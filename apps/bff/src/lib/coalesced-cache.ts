// A small per-key cache of answers that cost an upstream call (a session's role, what it may
// see, whether a record exists): kept for a bounded time, at most one load per key at a time
// (concurrent callers share it), and a bounded number of keys (the oldest go first).
import type { Clock } from './clock.ts';

export type CoalescedCache<V> = {
  /**
   * The value for `key`: the kept one while younger than its time to live (or `maxAgeMs`, when
   * given: 0 forces a new load), else `load()`'s. A failed load keeps nothing.
   */
  get(key: string, load: () => Promise<V>, options?: { maxAgeMs?: number }): Promise<V>;
  delete(key: string): void;
  /** Keys kept now (tests check nothing grows without bound). */
  size(): number;
};

/**
 * Builds a cache. `ttlOf` may give a value a shorter life than `ttlMs` (an answer made of
 * failures is retried sooner).
 *
 * @example
 * const roles = coalescedCache<string>({ clock, ttlMs: 60_000, maxEntries: 10_000 });
 * const role = await roles.get(session.idHash, () => fetchRole(session));
 */
export function coalescedCache<V>(options: {
  clock: Clock;
  ttlMs: number;
  maxEntries: number;
  ttlOf?: (value: V) => number;
}): CoalescedCache<V> {
  const { clock, ttlMs, maxEntries } = options;
  const kept = new Map<string, { value: V; at: number; ttl: number }>();
  const loading = new Map<string, Promise<V>>();

  const keep = (key: string, value: V) => {
    kept.delete(key);
    kept.set(key, { value, at: clock.now(), ttl: options.ttlOf?.(value) ?? ttlMs });
    while (kept.size > maxEntries) {
      const oldest = kept.keys().next();
      if (oldest.done) break;
      kept.delete(oldest.value);
    }
  };

  return {
    get(key, load, getOptions = {}) {
      const hit = kept.get(key);
      const maxAge = Math.min(hit?.ttl ?? ttlMs, getOptions.maxAgeMs ?? ttlMs);
      if (hit && clock.now() - hit.at < maxAge) return Promise.resolve(hit.value);
      const running = loading.get(key);
      if (running) return running;
      const promise = load()
        .then((value) => {
          keep(key, value);
          return value;
        })
        .finally(() => loading.delete(key));
      loading.set(key, promise);
      return promise;
    },
    delete(key) {
      kept.delete(key);
    },
    size: () => kept.size,
  };
}
