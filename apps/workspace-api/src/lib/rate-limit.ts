// Token buckets kept in process memory (one process per region), with the IETF draft
// `RateLimit-Policy` / `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
import { createMiddleware } from 'hono/factory';

import type { BucketLimits } from '../env.ts';
import type { AppEnv } from './types.ts';
import { tooManyRequests } from './errors.ts';

type Bucket = { tokens: number; updatedAt: number };

export type TakeResult = {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
};

/**
 * A token bucket per key: `burst` tokens, refilled at `ratePerSecond`; rate 0 disables it.
 *
 * @example
 * const limiter = new TokenBucketLimiter({ ratePerSecond: 20, burst: 100 });
 * limiter.take('client-1').allowed;
 */
export class TokenBucketLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    readonly limits: BucketLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.limits.ratePerSecond > 0 && this.limits.burst > 0;
  }

  #refill(key: string): Bucket {
    const now = this.now();
    const { ratePerSecond, burst } = this.limits;
    const bucket = this.#buckets.get(key) ?? { tokens: burst, updatedAt: now };
    bucket.tokens = Math.min(
      burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * ratePerSecond,
    );
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 50_000) this.#sweep();
    return bucket;
  }

  #result(bucket: Bucket, allowed: boolean): TakeResult {
    const { ratePerSecond, burst } = this.limits;
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
      reset: Math.ceil((burst - bucket.tokens) / ratePerSecond),
    };
  }

  /** Takes one token if available. */
  take(key: string): TakeResult {
    if (!this.enabled) return { allowed: true, remaining: Infinity, retryAfter: 0, reset: 0 };
    const bucket = this.#refill(key);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return this.#result(bucket, allowed);
  }

  /** Looks without taking (to reject early when a key is already exhausted). */
  peek(key: string): TakeResult {
    if (!this.enabled) return { allowed: true, remaining: Infinity, retryAfter: 0, reset: 0 };
    const bucket = this.#refill(key);
    return this.#result(bucket, bucket.tokens >= 1);
  }

  /** Drops full buckets: they carry no state worth keeping. */
  #sweep(): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens >= this.limits.burst) this.#buckets.delete(key);
    }
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

/**
 * Per-credential limit; mount after requireAuth. 429 when empty. Adds the RateLimit headers in the
 * extended profile only (the hosted service sends none; its 429s keep Retry-After).
 *
 * @example
 * v1.use(requireAuth, rateLimitPerCredential);
 */
export const rateLimitPerCredential = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.var.deps.limiters.requests;
  if (!limiter.enabled) return next();
  const result = limiter.take(c.var.principal.clientId);
  const headers = limiter.headers('per-credential', result);
  if (!result.allowed) throw tooManyRequests(result.retryAfter, headers);
  await next();
  if (c.var.deps.config.profile === 'hosted') return;
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
