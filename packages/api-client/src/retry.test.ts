import { describe, expect, it } from 'vitest';

import { ApiError } from './errors.ts';
import { computeDelay, isRetryable, resolveRetryPolicy, sleep, withRetry } from './retry.ts';

describe('isRetryable', () => {
  it.each([
    ['GET', 429, true],
    ['GET', 502, true],
    ['HEAD', 503, true],
    ['PUT', 504, true],
    ['DELETE', 503, true],
    ['POST', 503, false],
    ['POST', 429, false],
    ['GET', 500, false],
    ['GET', 404, false],
  ] as const)('%s %i -> %s', (method, status, expected) => {
    expect(isRetryable(method, { status })).toBe(expected);
  });

  it('retries network errors for reads only', () => {
    expect(isRetryable('get', { networkError: true })).toBe(true);
    expect(isRetryable('HEAD', { networkError: true })).toBe(true);
    expect(isRetryable('PUT', { networkError: true })).toBe(false);
    expect(isRetryable('POST', { networkError: true })).toBe(false);
  });
});

describe('computeDelay', () => {
  const policy = resolveRetryPolicy({ random: () => 0.999 });

  it('grows exponentially with full jitter and stays under the cap', () => {
    expect(computeDelay(0, undefined, policy)).toBe(199);
    expect(computeDelay(3, undefined, policy)).toBe(1598);
    expect(computeDelay(10, undefined, policy)).toBe(4995);
    expect(computeDelay(2, undefined, { ...policy, random: () => 0 })).toBe(0);
  });

  it('prefers Retry-After, up to the cap', () => {
    expect(computeDelay(0, 3, policy)).toBe(3000);
    expect(computeDelay(0, 30, policy)).toBe(30_000);
    expect(computeDelay(0, 31, policy)).toBeUndefined();
    expect(computeDelay(0, 5, { ...policy, maxRetryAfterMs: 1000 })).toBeUndefined();
  });

  it('has the documented defaults', () => {
    const { retries, baseMs, capMs, maxRetryAfterMs } = resolveRetryPolicy();
    expect({ retries, baseMs, capMs, maxRetryAfterMs }).toEqual({
      retries: 3,
      baseMs: 200,
      capMs: 5000,
      maxRetryAfterMs: 30_000,
    });
  });
});

describe('withRetry', () => {
  const fast = resolveRetryPolicy({ sleep: async () => undefined });

  it('returns the first non-retryable answer', async () => {
    const statuses = [503, 429, 200];
    let calls = 0;
    const response = await withRetry(
      'GET',
      async () => new Response(null, { status: statuses[calls++] ?? 599 }),
      fast,
    );
    expect(response.status).toBe(200);
    expect(calls).toBe(3);
  });

  it('makes one attempt when retries are off', async () => {
    let calls = 0;
    const response = await withRetry(
      'GET',
      async () => (calls++, new Response(null, { status: 503 })),
      false,
    );
    expect(response.status).toBe(503);
    expect(calls).toBe(1);
  });

  it('turns a final network failure into ApiError status 0', async () => {
    let calls = 0;
    const error = await withRetry(
      'GET',
      () => (calls++, Promise.reject(new TypeError('fetch failed'))),
      fast,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
    expect(calls).toBe(4);
  });

  it('stops waiting when the signal aborts during the backoff', async () => {
    const controller = new AbortController();
    const policy = resolveRetryPolicy({ baseMs: 10_000, random: () => 1 });
    const pending = withRetry(
      'GET',
      async () => new Response(null, { status: 503 }),
      policy,
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('sleep', () => {
  it('resolves after the delay and rejects at once if already aborted', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
