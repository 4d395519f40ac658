// Counts proxied requests in flight per key (session, user, region) so that no one session or
// user can hold every upstream socket: past a cap the request is refused before it is sent.
// In memory, per instance, like the sockets it protects.

/** One cap to take a slot under: a key and the most slots that key may hold at once. */
export type SlotClaim = { key: string; max: number };

/** A taken set of slots. `release` is idempotent, so every exit path may call it. */
export type Slot = { release(): void };

export type InFlightLimiter = {
  /**
   * Take one slot under every claim, or none: the first claim that is full is returned instead
   * and nothing is counted.
   */
  acquire(claims: readonly SlotClaim[]): Slot | { full: SlotClaim };
  /** Slots currently held under `key` (0 for an unknown key). */
  count(key: string): number;
};

/**
 * The in-flight counter. Keys with no slot left are deleted, so the map holds only keys with
 * requests in flight.
 *
 * @example
 * const limiter = createInFlightLimiter();
 * const slot = limiter.acquire([{ key: `session:${idHash}`, max: 16 }]);
 * if ('full' in slot) return tooMany();
 * try { await work(); } finally { slot.release(); }
 */
export function createInFlightLimiter(): InFlightLimiter {
  const counts = new Map<string, number>();
  return {
    acquire(claims) {
      for (const claim of claims) {
        if ((counts.get(claim.key) ?? 0) >= claim.max) return { full: claim };
      }
      for (const claim of claims) counts.set(claim.key, (counts.get(claim.key) ?? 0) + 1);
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          for (const claim of claims) {
            const next = (counts.get(claim.key) ?? 1) - 1;
            if (next <= 0) counts.delete(claim.key);
            else counts.set(claim.key, next);
          }
        },
      };
    },
    count(key) {
      return counts.get(key) ?? 0;
    },
  };
}
