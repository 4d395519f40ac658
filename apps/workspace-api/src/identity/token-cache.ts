// Token lookups remembered in process memory, so an authenticated request does not join tokens,
// credentials and users each time (issue 19: ~40% of the CPU of a get-by-id). Revocation stays
// immediate:
// - the cache is used only while the process is listening for the database's `wsc_auth`
//   notifications (migration 0004: every UPDATE, DELETE or TRUNCATE of users, credentials or
//   tokens sends one after it commits); each one empties it, and so does losing the listening
//   connection;
// - the API's own revocations (deactivate a user, revoke a credential) also empty it before they
//   answer, so the next request, even one racing the notification, goes to the database;
// - a lookup that started before an emptying is not remembered (the generation check);
// - an entry lives at most `maxAgeMs` and never past its token's expiry.
// Only valid tokens are remembered, at most `maxEntries` of them (the oldest go first): random
// tokens from an attacker cost a database lookup each, as before, and no memory.
/** The channel migration 0004's triggers notify. */
export const AUTH_CHANNEL = 'wsc_auth';

export type TokenCacheLimits = {
  /** Most tokens remembered; 0 turns the cache off. */
  maxEntries: number;
  /** Longest an entry is trusted without a notification, in milliseconds. */
  maxAgeMs: number;
};

type Entry<P> = { principal: P; expiresAt: number; cachedAt: number };

/**
 * `P`: what a valid token stands for (the API's `Principal`; generic so this module depends on
 * nothing of the app's).
 *
 * @example
 * const cache = new TokenCache<Principal>({ maxEntries: 10_000, maxAgeMs: 60_000 });
 * const generation = cache.generation;
 * const principal = cache.get(hash) ?? (await lookUp(hash));
 * cache.remember(hash, principal, expiresAt, generation);
 */
export class TokenCache<P> {
  readonly #entries = new Map<string, Entry<P>>();
  #generation = 0;
  #listening = false;
  #invalidations = 0;

  constructor(
    readonly limits: TokenCacheLimits,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Whether lookups may be answered from memory: on, and listening for changes. */
  get active(): boolean {
    return this.#listening && this.limits.maxEntries > 0;
  }

  /** Changes with every emptying; pass the value read before a lookup to `remember`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Times the cache was emptied (metrics, tests). */
  get invalidations(): number {
    return this.#invalidations;
  }

  /** The listening connection's state: while it is down nothing is remembered or answered. */
  setListening(listening: boolean): void {
    this.#listening = listening;
    this.invalidate();
  }

  /** Forgets every token: something about users, credentials or tokens changed. */
  invalidate(): void {
    this.#generation += 1;
    this.#invalidations += 1;
    this.#entries.clear();
  }

  get(tokenHash: string): P | undefined {
    if (!this.active) return undefined;
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now || now - entry.cachedAt >= this.limits.maxAgeMs) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  /** Remembers a valid token's principal, unless the cache was emptied since `generation`. */
  remember(tokenHash: string, principal: P, expiresAt: number, generation: number): void {
    if (!this.active || generation !== this.#generation) return;
    this.#entries.delete(tokenHash);
    if (this.#entries.size >= this.limits.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, { principal, expiresAt, cachedAt: this.now() });
  }
}
