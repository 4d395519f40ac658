// Expired and revoked tokens are dead rows: every successful token request adds one, so without a
// purge the table (and its index, read on every request) grows for ever. Two triggers: a timer in
// the server (src/index.ts) and a cheap one on token issue, both at most once per interval, so
// a region that never idles and one that never issues tokens are both cleaned.
import type { Logger } from '@wsc/logger';

import type { Db } from '../db/client.ts';

/**
 * Deletes tokens that expired or were revoked; returns how many.
 *
 * @example
 * const removed = await purgeTokens(db);
 */
export async function purgeTokens(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked', '=', true)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Runs purgeTokens at most once per interval, never twice at once, logging failures instead of
 * throwing (a purge is housekeeping: it must not fail the request that triggered it).
 *
 * @example
 * const purger = new TokenPurger(db, 3_600_000, logger);
 * const stop = purger.start();
 * purger.maybePurge(); // after issuing a token
 */
export class TokenPurger {
  #lastRun: number;
  #running: Promise<number> | undefined;

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = () => Date.now(),
  ) {
    // The first run is due one interval after start (the timer runs one at start itself).
    this.#lastRun = now();
  }

  /** Starts a purge when the last one began at least an interval ago; else returns undefined. */
  maybePurge(): Promise<number> | undefined {
    if (this.#running || this.now() - this.#lastRun < this.intervalMs) return undefined;
    return this.purgeNow();
  }

  /** Starts a purge now (unless one runs: then that one's result). */
  purgeNow(): Promise<number> {
    if (this.#running) return this.#running;
    this.#lastRun = this.now();
    const run = purgeTokens(this.db)
      .then((removed) => {
        if (removed > 0) this.logger.info('tokens purged', { removed });
        return removed;
      })
      .catch((error: unknown) => {
        this.logger.error('token purge failed', { error: String(error) });
        return 0;
      })
      .finally(() => {
        this.#running = undefined;
      });
    this.#running = run;
    return run;
  }

  /** Purges now and then every interval until the returned function is called. */
  start(): () => void {
    void this.purgeNow();
    const timer = setInterval(() => void this.maybePurge(), this.intervalMs);
    // Housekeeping must not keep the process alive on shutdown.
    timer.unref();
    return () => clearInterval(timer);
  }
}
