import { ApiError, isAbortError, networkError, parseRetryAfter } from './errors.ts';

/** How the client retries transient failures. Every field has a default. */
export interface RetryOptions {
  /** Retries after the first attempt (so at most `retries + 1` requests). Default 3. */
  retries?: number;
  /** Backoff base in ms: attempt n waits up to `baseMs * 2^n`. Default 200. */
  baseMs?: number;
  /** Upper bound of one backoff wait in ms. Default 5000. */
  capMs?: number;
  /** Longest `Retry-After` honoured, in ms; a longer one ends retrying and surfaces the answer. Default 30000. */
  maxRetryAfterMs?: number;
  /** Waits `ms`; rejects with the signal's reason when it aborts. Injected by tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform random in [0, 1) for jitter. Injected by tests. */
  random?: () => number;
}

/** The resolved policy: {@link RetryOptions} with every default applied. */
export type RetryPolicy = Required<RetryOptions>;

/** Statuses worth another try: rate limited or a gateway/server that is briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
/** Only reads are retried after a network error: a write may have landed before the connection broke. */
const NETWORK_RETRY_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Resolves options to a full policy.
 *
 * @example
 * const policy = resolveRetryPolicy({ retries: 1 });
 */
export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    retries: options.retries ?? 3,
    baseMs: options.baseMs ?? 200,
    capMs: options.capMs ?? 5000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
  };
}

/** What came back from one attempt: an HTTP status, or no answer at all. */
export type AttemptOutcome = { status: number } | { networkError: true };

/**
 * Whether an outcome may be retried for this method. POST is never retried (not idempotent);
 * PUT/DELETE are retried only on statuses that mean "not processed", reads also after network errors.
 *
 * @example
 * isRetryable('GET', { status: 503 }); // true
 * isRetryable('POST', { status: 503 }); // false
 * isRetryable('PUT', { networkError: true }); // false
 */
export function isRetryable(method: string, outcome: AttemptOutcome): boolean {
  const upper = method.toUpperCase();
  if ('networkError' in outcome) return NETWORK_RETRY_METHODS.has(upper);
  return IDEMPOTENT_METHODS.has(upper) && RETRYABLE_STATUSES.has(outcome.status);
}

/**
 * The wait in ms before retry number `attempt` (0 for the first retry), or `undefined` to give up
 * because the server asked for longer than `maxRetryAfterMs`. A `Retry-After` (seconds) wins;
 * otherwise full-jitter exponential backoff: `random() * min(capMs, baseMs * 2^attempt)`.
 *
 * @example
 * computeDelay(2, undefined, resolveRetryPolicy({ random: () => 0.5 })); // 400
 * computeDelay(0, 3, resolveRetryPolicy()); // 3000
 * computeDelay(0, 120, resolveRetryPolicy()); // undefined: surface the 429
 */
export function computeDelay(
  attempt: number,
  retryAfterSeconds: number | undefined,
  policy: Pick<RetryPolicy, 'baseMs' | 'capMs' | 'maxRetryAfterMs' | 'random'>,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const ms = retryAfterSeconds * 1000;
    return ms > policy.maxRetryAfterMs ? undefined : ms;
  }
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

/**
 * Runs `attempt` until it yields a final answer: a non-retryable response, a retryable one after
 * the retries are spent (returned as is, so the caller maps it to an ApiError with its headers),
 * or a network failure (thrown as an ApiError with status 0). Aborts are rethrown untouched.
 * A retried response's body is discarded so its connection is freed.
 *
 * @example
 * const response = await withRetry('GET', () => fetch(url, { signal }), resolveRetryPolicy(), signal);
 */
export async function withRetry(
  method: string,
  attempt: () => Promise<Response>,
  policy: RetryPolicy | false,
  signal?: AbortSignal,
): Promise<Response> {
  const retries = policy === false ? 0 : policy.retries;
  for (let n = 0; ; n++) {
    let response: Response;
    try {
      response = await attempt();
    } catch (error) {
      // Aborts, and ApiErrors raised before sending (e.g. by getToken), are final as they are.
      if (isAbortError(error) || signal?.aborted || error instanceof ApiError) throw error;
      if (policy === false || n >= retries || !isRetryable(method, { networkError: true })) {
        throw networkError(error);
      }
      await policy.sleep(computeDelay(n, undefined, policy) ?? 0, signal);
      continue;
    }
    if (policy === false || n >= retries || !isRetryable(method, { status: response.status })) {
      return response;
    }
    const delay = computeDelay(n, parseRetryAfter(response.headers.get('retry-after')), policy);
    if (delay === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    await policy.sleep(delay, signal);
  }
}

/**
 * The default sleep: a timer that rejects with the signal's reason when it aborts.
 *
 * @example
 * await sleep(200, controller.signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
