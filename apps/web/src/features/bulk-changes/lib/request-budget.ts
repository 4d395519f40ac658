// The bulk run's model of the service's rate limit: a token bucket on the console's side that
// every request of the run passes through (its batched reads as much as its writes), corrected
// by what the service says. Our API sends the IETF draft RateLimit headers on every reply, so
// the model follows the real bucket (including requests the BFF makes for the run and what the
// same credential spends elsewhere); a service that sends none (the hosted one) is paced by the
// assumed policy, and a 429's Retry-After pauses everything. ADR 0030.
import type { RateLimitState } from './rate-limit-headers.ts';
import { sleep as realSleep } from './scheduler.ts';

/** The limit assumed until the service states its own: our API's default (20/s, burst 100). */
export const ASSUMED_POLICY = { quota: 100, windowSeconds: 5 } as const;

/** Share of the quota the run leaves unspent, for the user's other requests and other tabs. */
export const RESERVE_SHARE = 0.1;

export interface RequestBudgetOptions {
  quota?: number;
  windowSeconds?: number;
  /** Share of the quota never spent by the run (slow down before the service says 0). */
  reserveShare?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A token bucket standing for the service's limit on this credential. `acquire` before each
 * request, `settle` with the reply's RateLimit state (if any) when it is answered, `pause` on a
 * 429. Time comes from the injected clock, so tests drive it.
 *
 * @example
 * const budget = new RequestBudget();
 * if (await budget.acquire(1, signal)) {
 *   const response = await fetch(url);
 *   budget.settle(1, parseRateLimit((name) => response.headers.get(name)));
 * }
 */
export class RequestBudget {
  #quota: number;
  #windowMs: number;
  readonly #reserveShare: number;
  #tokens: number;
  #updatedAt: number;
  #pausedUntil = 0;
  /** Requests sent and not answered yet: the service may not have counted them. */
  #inFlight = 0;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: RequestBudgetOptions = {}) {
    this.#quota = options.quota ?? ASSUMED_POLICY.quota;
    this.#windowMs = (options.windowSeconds ?? ASSUMED_POLICY.windowSeconds) * 1_000;
    this.#reserveShare = options.reserveShare ?? RESERVE_SHARE;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? realSleep;
    this.#tokens = this.#quota;
    this.#updatedAt = this.#now();
  }

  /** Tokens the model holds now (after refill), for tests and progress. */
  get tokens(): number {
    this.#refill();
    return this.#tokens;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests per millisecond the service gives back. */
  get #rate(): number {
    return this.#quota / this.#windowMs;
  }

  get #reserve(): number {
    return Math.floor(this.#quota * this.#reserveShare);
  }

  #refill(): void {
    const now = this.#now();
    this.#tokens = Math.min(this.#quota, this.#tokens + (now - this.#updatedAt) * this.#rate);
    this.#updatedAt = now;
  }

  /** Milliseconds until `cost` can be spent without touching the reserve (0: now). */
  wait(cost = 1): number {
    this.#refill();
    const pause = Math.max(0, this.#pausedUntil - this.#now());
    const missing = cost + this.#reserve - this.#tokens;
    return Math.max(pause, missing <= 0 ? 0 : Math.ceil(missing / this.#rate));
  }

  /**
   * Waits until `cost` requests fit, then counts them as sent. False when aborted meanwhile
   * (nothing counted).
   */
  async acquire(cost = 1, signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const wait = this.wait(cost);
      if (wait === 0) {
        this.#tokens -= cost;
        this.#inFlight += cost;
        return true;
      }
      await this.#sleep(wait, signal);
    }
  }

  /**
   * A request was answered (or failed): no longer in flight. A stated RateLimit replaces the
   * model's count: what the service has left, minus what is still in flight (it may not have
   * counted those yet); a stated policy replaces the assumed one.
   */
  settle(cost = 1, state?: RateLimitState): void {
    this.#inFlight = Math.max(0, this.#inFlight - cost);
    if (!state) return;
    if (state.quota !== undefined && state.quota > 0) this.#quota = state.quota;
    if (state.windowSeconds !== undefined && state.windowSeconds > 0) {
      this.#windowMs = state.windowSeconds * 1_000;
    }
    this.#refill();
    this.#tokens = Math.min(this.#quota, state.remaining - this.#inFlight);
  }

  /**
   * The service refused with 429: nothing more is sent for `retryAfterSeconds` (or, without
   * one, for the time the model needs to earn back a tenth of the quota), and the model counts
   * the bucket empty.
   */
  pause(retryAfterSeconds?: number): void {
    this.#refill();
    const ms =
      retryAfterSeconds !== undefined
        ? retryAfterSeconds * 1_000
        : Math.ceil(Math.max(1, this.#reserve) / this.#rate);
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#now() + ms);
    this.#tokens = Math.min(this.#tokens, 0);
  }
}
