// Client-secret checks that cannot take the process down. scrypt (N=2^14, r=8: 16 MiB and ~30 ms
// of one libuv thread) runs in the same 4-thread pool as every blob read and write; unbounded, a
// few dozen anonymous token requests a second fill that pool and stall the whole region. Here:
//
// - at most `concurrency` checks run at once and `queue` wait; past that the caller is told at
//   once (SecretCheckBusy -> 503 with Retry-After), without any work;
// - a check may ask for spare capacity only (`mode: 'spare'`): it runs only when a slot is idle
//   and nothing waits, and never queues. The token route uses it for attempts over their failure
//   limit, so that they use only capacity nobody else wants;
// - a successful check is remembered for `cacheTtlSeconds` as an HMAC of (client id, secret)
//   under a per-process key, tied to the stored hash it matched. The same pair skips scrypt until
//   then. Revocation stays immediate: the caller reads the credential row on every request and
//   consults the cache only to replace scrypt, never the row's revoked/active checks;
// - identical checks in flight at the same time (many sessions of one credential signing in at
//   once) share one scrypt run.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { SecretCheckLimits } from '../env.ts';
import { verifySecret } from '../lib/crypto.ts';

/** The check was not run: no slot or queue place was free. */
export class SecretCheckBusy extends Error {
  constructor() {
    super('secret check capacity is in use');
    this.name = 'SecretCheckBusy';
  }
}

type Verified = { digest: Buffer; stored: string; expiresAt: number };

export type SecretCheckerOptions = {
  now?: () => number;
  /** The slow check itself; default scrypt (verifySecret). Tests count or slow it. */
  verify?: (secret: string, stored: string) => Promise<boolean>;
  /** Most remembered successes; the oldest is forgotten first. */
  cacheMaxEntries?: number;
};

/**
 * A bounded queue for scrypt checks with a short-lived memory of successes.
 *
 * @example
 * const checker = new SecretChecker({ concurrency: 2, queue: 16, cacheTtlSeconds: 300 });
 * const ok =
 *   checker.recentlyVerified(clientId, secret, row.secret_hash) ||
 *   (await checker.verify(clientId, secret, row.secret_hash, 'queue'));
 */
export class SecretChecker {
  readonly #key = randomBytes(32);
  readonly #verified = new Map<string, Verified>();
  readonly #waiting: Array<() => void> = [];
  /** Checks running or queued, by digest of (client id, secret) and stored hash. */
  readonly #inFlight = new Map<string, Promise<boolean>>();
  readonly #now: () => number;
  readonly #verify: (secret: string, stored: string) => Promise<boolean>;
  readonly #cacheMax: number;
  #running = 0;
  #peak = 0;
  #started = 0;

  constructor(
    readonly limits: SecretCheckLimits,
    options: SecretCheckerOptions = {},
  ) {
    this.#now = options.now ?? (() => Date.now());
    this.#verify = options.verify ?? verifySecret;
    this.#cacheMax = options.cacheMaxEntries ?? 10_000;
  }

  /** Checks running now. */
  get running(): number {
    return this.#running;
  }

  /** Checks waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The most checks that ever ran at once. */
  get peakRunning(): number {
    return this.#peak;
  }

  /** Slow checks started since creation (cache hits and refusals start none). */
  get started(): number {
    return this.#started;
  }

  #digest(clientId: string, secret: string): Buffer {
    return createHmac('sha256', this.#key)
      .update(clientId)
      .update('\u0000')
      .update(secret)
      .digest();
  }

  /**
   * Whether this (client id, secret) passed a check against `stored` within the TTL: one HMAC,
   * no scrypt. Answers false for anything else (unknown, expired, another secret or stored hash).
   */
  recentlyVerified(clientId: string, secret: string, stored: string): boolean {
    if (this.limits.cacheTtlSeconds <= 0) return false;
    const entry = this.#verified.get(clientId);
    if (!entry) return false;
    if (entry.expiresAt <= this.#now() || entry.stored !== stored) {
      this.#verified.delete(clientId);
      return false;
    }
    return timingSafeEqual(entry.digest, this.#digest(clientId, secret));
  }

  /** Forgets a client id's remembered success (its credential was revoked). */
  forget(clientId: string): void {
    this.#verified.delete(clientId);
  }

  #remember(clientId: string, secret: string, stored: string): void {
    if (this.limits.cacheTtlSeconds <= 0) return;
    this.#verified.delete(clientId);
    if (this.#verified.size >= this.#cacheMax) {
      const oldest = this.#verified.keys().next();
      if (!oldest.done) this.#verified.delete(oldest.value);
    }
    this.#verified.set(clientId, {
      digest: this.#digest(clientId, secret),
      stored,
      expiresAt: this.#now() + this.limits.cacheTtlSeconds * 1000,
    });
  }

  /** A slot, now or after waiting; SecretCheckBusy when none can be had in this mode. */
  async #acquire(mode: 'queue' | 'spare'): Promise<void> {
    if (this.#running < this.limits.concurrency && this.#waiting.length === 0) {
      this.#running += 1;
      return;
    }
    if (mode === 'spare' || this.#waiting.length >= this.limits.queue) throw new SecretCheckBusy();
    // The slot is handed over by #release (running is not decremented in between).
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }

  /**
   * Checks `secret` against the stored scrypt hash in a slot of the bounded queue (`queue`: waits
   * when all slots are busy and the queue has room; `spare`: only when a slot is idle), or joins
   * the identical check already in flight. Throws SecretCheckBusy when it cannot run; remembers a
   * success for the client id.
   */
  async verify(
    clientId: string,
    secret: string,
    stored: string,
    mode: 'queue' | 'spare',
  ): Promise<boolean> {
    const key = `${this.#digest(clientId, secret).toString('base64')}\u0000${stored}`;
    const same = this.#inFlight.get(key);
    if (same) return same;
    // Registered before waiting for a slot, so that a twin arriving meanwhile joins this one.
    const check = (async () => {
      await this.#acquire(mode);
      return this.#run(clientId, secret, stored);
    })();
    this.#inFlight.set(key, check);
    try {
      return await check;
    } finally {
      if (this.#inFlight.get(key) === check) this.#inFlight.delete(key);
    }
  }

  async #run(clientId: string, secret: string, stored: string): Promise<boolean> {
    this.#started += 1;
    this.#peak = Math.max(this.#peak, this.#running);
    try {
      const ok = await this.#verify(secret, stored);
      if (ok) this.#remember(clientId, secret, stored);
      return ok;
    } finally {
      this.#release();
    }
  }
}
