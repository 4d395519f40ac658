// Failed sign-ins per client address in a sliding window, kept in the BFF's store, so every
// instance sharing it (PostgreSQL) enforces one limit instead of one each.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../db/schema.ts';
import type { Clock } from './clock.ts';

export type FailureLimiter = {
  /** Seconds until another attempt is allowed, or 0 when the address may try now. */
  retryAfter(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
};

/**
 * Allow at most `max` failures per `windowMs` per key, counted in the store. Failures older than
 * the window are deleted as new ones are recorded, so the table holds one window's worth.
 *
 * @example
 * const limiter = createFailureLimiter({ db: store.db, max: 10, windowMs: 300_000, clock });
 * if ((await limiter.retryAfter(ip)) > 0) return tooMany();
 */
export function createFailureLimiter(options: {
  db: Kysely<BffDatabase>;
  max: number;
  windowMs: number;
  clock: Clock;
}): FailureLimiter {
  const { db, max, windowMs, clock } = options;
  return {
    async retryAfter(key) {
      const now = clock.now();
      const rows = await db
        .selectFrom('login_failures')
        .select('at')
        .where('key', '=', key)
        .where('at', '>', now - windowMs)
        // Not ahead of this instance's clock (another's may run a little fast).
        .where('at', '<=', now)
        .orderBy('at', 'desc')
        .limit(max)
        .execute();
      if (rows.length < max) return 0;
      // The max-th newest failure leaves the window first.
      const oldest = Number(rows[max - 1]?.at ?? now);
      return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    },
    async recordFailure(key) {
      const now = clock.now();
      await db.insertInto('login_failures').values({ key, at: now }).execute();
      await db
        .deleteFrom('login_failures')
        .where('at', '<=', now - windowMs)
        .execute();
    },
  };
}
