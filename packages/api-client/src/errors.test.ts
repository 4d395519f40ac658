import { describe, expect, it } from 'vitest';

import {
  ApiError,
  apiErrorFromResponse,
  isAbortError,
  isApiError,
  networkError,
  parseRetryAfter,
  statusCode,
} from './errors.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00.000Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP-date relative to now, rounding up and never negative', () => {
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(new Date(now + 1500).toUTCString(), now)).toBe(1);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or malformed values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('2024-05-01', now)).toBeUndefined();
  });
});

describe('apiErrorFromResponse', () => {
  it('maps an RFC 9457 problem, keeping extension members in `problem`', async () => {
    const body = {
      type: 'https://example.com/problems/bad-filter',
      title: 'Bad filter',
      status: 400,
      detail: 'Unexpected character at 7',
      position: 7,
    };
    const error = await apiErrorFromResponse(
      new Response(JSON.stringify(body), {
        status: 400,
        headers: { 'Content-Type': 'application/problem+json' },
      }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: body.type,
      title: 'Bad filter',
      detail: body.detail,
      errors: [],
    });
    expect(error.problem).toEqual(body);
    expect(error.message).toBe('400 Bad filter: Unexpected character at 7');
  });

  it('derives the code from the status for about:blank problems', async () => {
    const error = await apiErrorFromResponse(
      new Response(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }), {
        status: 404,
      }),
    );
    expect(error.code).toBe('not_found');
  });

  it('maps RFC 6749 token errors: code is the `error` value', async () => {
    const error = await apiErrorFromResponse(
      new Response(
        JSON.stringify({ error: 'invalid_client', error_description: 'Unknown client' }),
        {
          status: 401,
        },
      ),
    );
    expect(error).toMatchObject({ status: 401, code: 'invalid_client', detail: 'Unknown client' });
  });

  it('keeps a message from other JSON bodies', async () => {
    const error = await apiErrorFromResponse(
      new Response(JSON.stringify({ message: 'quota exceeded' }), { status: 403 }),
    );
    expect(error).toMatchObject({ status: 403, code: 'forbidden', detail: 'quota exceeded' });
  });

  it('turns a text/HTML body into a truncated detail', async () => {
    const error = await apiErrorFromResponse(
      new Response(`<p>${'x'.repeat(2000)}</p>`, {
        status: 503,
        statusText: 'Service Unavailable',
      }),
    );
    expect(error).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      title: 'Service Unavailable',
    });
    expect(error.detail?.length).toBe(500);
  });

  it('handles an empty body and reads Retry-After', async () => {
    const error = await apiErrorFromResponse(
      new Response(null, { status: 429, headers: { 'Retry-After': '3' } }),
    );
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      title: 'Too Many Requests',
      retryAfter: 3,
    });
  });
});

describe('ApiError helpers', () => {
  it('narrows with isApiError, also across package copies (duck typing)', () => {
    expect(isApiError(new ApiError({ status: 404, code: 'not_found' }))).toBe(true);
    const foreign = Object.assign(new Error('x'), {
      name: 'ApiError',
      status: 500,
      code: 'internal_error',
    });
    expect(isApiError(foreign)).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError({ status: 1, code: 'x' })).toBe(false);
  });

  it('keeps problem extension members readable, and none from a non-object body', async () => {
    const error = await apiErrorFromResponse(
      new Response(
        JSON.stringify({ type: 'about:blank', title: 'Stale', status: 412, latest: { a: '1' } }),
        { status: 412, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    );
    expect(error.member('latest')).toEqual({ a: '1' });
    expect(error.member('toString')).toBeUndefined();
    expect(new ApiError({ status: 412, code: 'x', problem: 'text' }).member('latest')).toBe(
      undefined,
    );
  });

  it('builds network errors with status 0 and the underlying reason', () => {
    const error = networkError(
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }),
    );
    expect(error).toMatchObject({
      status: 0,
      code: 'network_error',
      detail: 'connect ECONNREFUSED',
    });
    expect(error.message).toBe('Network error: connect ECONNREFUSED');
  });

  it('recognises abort errors', () => {
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new TypeError('x'))).toBe(false);
  });

  it('names unknown statuses generically', () => {
    expect(statusCode(418)).toBe('http_418');
    expect(new ApiError({ status: 418, code: 'http_418' }).title).toBe('HTTP 418');
  });
});
