// Token buckets kept in process memory (one process per region), with the IETF draft
// `RateLimit-Policy` / `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
//
// The buckets are bounded and forget: keys are often chosen by the caller (client ids,
// addresses), so a flood of new keys must cost O(1) per call and a fixed amount of memory. The
// buckets form a list from the least to the most recently touched (a Map for lookup beside it:
// walking a Map from its start is not O(1) once many entries were deleted there, as V8 keeps the
// holes until it rehashes); every call drops a few of the oldest once they are full again (a full
// bucket carries no state), and a new key past `maxKeys` evicts the oldest.
import type { BucketLimits } from '../env.ts';

/** A bucket, linked from the least to the most recently touched. */
type Bucket = {
  key: string;
  tokens: number;
  updatedAt: number;
  fullAt: number;
  older: Bucket | undefined;
  newer: Bucket | undefined;
};

export type TakeResult = {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
};

export type LimiterOptions = {
  /** Most keys held at once; past it the least recently touched key is forgotten. */
  maxKeys?: number;
};

/** Keys held by default: ~100 bytes each, so ~10 MiB at most per limiter. */
export const DEFAULT_MAX_KEYS = 100_000;

/** Oldest entries examined per call: enough to drain the map as fast as keys arrive. */
const SWEEP_PER_CALL = 4;

/**
 * A token bucket per key: `burst` tokens, refilled at `ratePerSecond`; rate 0 disables it. A
 * bucket may be charged below zero (`charge`), for budgets measured after the fact.
 *
 * @example
 * const limiter = new TokenBucketLimiter({ ratePerSecond: 20, burst: 100 });
 * limiter.take('client-1').allowed;
 */
export class TokenBucketLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #maxKeys: number;
  /** Least recently touched. */
  #oldest: Bucket | undefined;
  /** Most recently touched. */
  #newest: Bucket | undefined;
  #visits = 0;

  constructor(
    readonly limits: BucketLimits,
    private readonly now: () => number = () => performance.now(),
    options: LimiterOptions = {},
  ) {
    this.#maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_KEYS);
  }

  get enabled(): boolean {
    return this.limits.ratePerSecond > 0 && this.limits.burst > 0;
  }

  /** Keys currently held (bounded by `maxKeys`). */
  get size(): number {
    return this.#buckets.size;
  }

  /** Buckets examined by sweeps and evictions since creation: the limiter's bookkeeping cost. */
  get visits(): number {
    return this.#visits;
  }

  #fullAt(bucket: Pick<Bucket, 'tokens' | 'updatedAt'>): number {
    const { ratePerSecond, burst } = this.limits;
    return bucket.updatedAt + ((burst - bucket.tokens) / ratePerSecond) * 1000;
  }

  #unlink(bucket: Bucket): void {
    if (bucket.older) bucket.older.newer = bucket.newer;
    else this.#oldest = bucket.newer;
    if (bucket.newer) bucket.newer.older = bucket.older;
    else this.#newest = bucket.older;
    bucket.older = undefined;
    bucket.newer = undefined;
  }

  #append(bucket: Bucket): void {
    bucket.older = this.#newest;
    bucket.newer = undefined;
    if (this.#newest) this.#newest.newer = bucket;
    else this.#oldest = bucket;
    this.#newest = bucket;
  }

  #drop(bucket: Bucket): void {
    this.#unlink(bucket);
    this.#buckets.delete(bucket.key);
  }

  /** The key's bucket refilled to now, moved to the newest end. */
  #touch(key: string): Bucket {
    const now = this.now();
    this.#sweep(now);
    const { ratePerSecond, burst } = this.limits;
    const bucket = this.#buckets.get(key);
    if (bucket) {
      this.#unlink(bucket);
      this.#append(bucket);
      bucket.tokens = Math.min(
        burst,
        bucket.tokens + ((now - bucket.updatedAt) / 1000) * ratePerSecond,
      );
      bucket.updatedAt = now;
      return bucket;
    }
    if (this.#buckets.size >= this.#maxKeys && this.#oldest) {
      // Forgetting a bucket only ever gives its key more room, never less.
      this.#drop(this.#oldest);
      this.#visits += 1;
    }
    const fresh: Bucket = {
      key,
      tokens: burst,
      updatedAt: now,
      fullAt: now,
      older: undefined,
      newer: undefined,
    };
    this.#buckets.set(key, fresh);
    this.#append(fresh);
    return fresh;
  }

  /** Drops up to SWEEP_PER_CALL of the least recently touched buckets that are full again. */
  #sweep(now: number): void {
    for (let examined = 0; examined < SWEEP_PER_CALL; examined += 1) {
      const oldest = this.#oldest;
      if (!oldest) return;
      this.#visits += 1;
      if (now < oldest.fullAt) return;
      this.#drop(oldest);
    }
  }

  #settle(bucket: Bucket): void {
    bucket.fullAt = this.#fullAt(bucket);
  }

  #result(bucket: Bucket, allowed: boolean): TakeResult {
    const { ratePerSecond, burst } = this.limits;
    return {
      allowed,
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
      reset: Math.ceil((burst - bucket.tokens) / ratePerSecond),
    };
  }

  /** Takes `cost` tokens if that many are available. */
  take(key: string, cost = 1): TakeResult {
    if (!this.enabled) return { allowed: true, remaining: Infinity, retryAfter: 0, reset: 0 };
    const bucket = this.#touch(key);
    const allowed = bucket.tokens >= cost;
    if (allowed) bucket.tokens -= cost;
    this.#settle(bucket);
    return this.#result(bucket, allowed);
  }

  /** Looks without taking: allowed while at least one token is left. */
  peek(key: string): TakeResult {
    if (!this.enabled) return { allowed: true, remaining: Infinity, retryAfter: 0, reset: 0 };
    const bucket = this.#touch(key);
    this.#settle(bucket);
    return this.#result(bucket, bucket.tokens >= 1);
  }

  /** Takes `amount` whatever is left, possibly below zero (a cost known only afterwards). */
  charge(key: string, amount: number): TakeResult {
    if (!this.enabled) return { allowed: true, remaining: Infinity, retryAfter: 0, reset: 0 };
    const bucket = this.#touch(key);
    bucket.tokens -= amount;
    this.#settle(bucket);
    return this.#result(bucket, bucket.tokens >= 1);
  }

  /** Gives back tokens taken for work that turned out free (a correct secret, a busy server). */
  refund(key: string, amount = 1): void {
    if (!this.enabled) return;
    const bucket = this.#buckets.get(key);
    if (!bucket) return;
    bucket.tokens = Math.min(this.limits.burst, bucket.tokens + amount);
    this.#settle(bucket);
  }

  /** The draft headers for a result under this limiter's policy name. */
  headers(policy: string, result: TakeResult): Record<string, string> {
    const { ratePerSecond, burst } = this.limits;
    const window = Math.max(1, Math.ceil(burst / ratePerSecond));
    return {
      'RateLimit-Policy': `"${policy}";q=${burst};w=${window}`,
      RateLimit: `"${policy}";r=${result.remaining};t=${result.reset}`,
    };
  }
}
