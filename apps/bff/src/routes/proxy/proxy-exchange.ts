// The proxy's exchange with the workspace API over node:http: keep-alive pools, a headers
// timeout, body idle timers, and bounded retries of idempotent requests with full jitter.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

import { parseRetryAfter } from '@wsc/api-client';

import type { BffConfig } from '../../lib/config.ts';
import type { UpstreamAgents } from '../../lib/upstream-pool.ts';
import {
  asStaleConnection,
  isConnectionReset,
  MAX_STALE_RETRIES,
  StaleConnectionError,
} from '../../lib/connection-reset.ts';

/** Statuses after which an idempotent request is tried again. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** Methods that mean the same sent twice as once (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export type ExchangeOptions = {
  url: string | URL;
  agents: UpstreamAgents;
  method: string;
  headers: OutgoingHttpHeaders;
  /**
   * The request body: a stream (the browser's, sent once) or, when it was read whole, a function
   * giving a fresh copy for each attempt, so that a request lost to a closed keep-alive
   * connection can be sent again ({@link StaleConnectionError}).
   */
  body?: Readable | (() => Readable);
  /** GET/HEAD: may be retried. */
  idempotent: boolean;
  clientSignal: AbortSignal;
  /** Time for the response headers, from the end of the request body. */
  timeoutMs: number;
  /** Longest pause while the request body streams (either side) before it is aborted. */
  bodyIdleMs: number;
  retry: BffConfig['retry'];
  random: () => number;
  onRetry?: (attempt: number, reason: string, delayMs: number) => void;
};

/** The upstream did not send response headers within the timeout. */
export class UpstreamTimeoutError extends Error {
  override readonly name = 'UpstreamTimeoutError';
}

/** The browser stopped sending the request body for longer than the body idle timeout. */
export class BodyStalledError extends Error {
  override readonly name = 'BodyStalledError';
}

/** The browser went away before the upstream answered. */
export class ClientAbortedError extends Error {
  override readonly name = 'ClientAbortedError';
}

/** A response body moved no byte for longer than the body idle timeout. */
export class ResponseStalledError extends Error {
  override readonly name = 'ResponseStalledError';
}

/**
 * Abort a streaming upstream response body that moves no byte for `idleMs`: the API stopped
 * sending, or the browser stopped reading (backpressure pauses the upstream, so no byte moves
 * either). The upstream is destroyed with a {@link ResponseStalledError}, which frees its socket
 * and ends the browser's response. The watch ends by itself with the body.
 *
 * @example
 * watchResponseIdle(upstream, 60_000, () => logger.warn('download stalled'));
 */
export function watchResponseIdle(
  upstream: IncomingMessage,
  idleMs: number,
  onStall?: () => void,
): void {
  const timer = setTimeout(() => {
    onStall?.();
    upstream.destroy(new ResponseStalledError());
  }, idleMs);
  const refresh = () => timer.refresh();
  upstream.on('data', refresh);
  upstream.once('close', () => {
    clearTimeout(timer);
    upstream.off('data', refresh);
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ClientAbortedError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ClientAbortedError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Full-jitter backoff: a uniform delay in [0, min(cap, base * 2^attempt)].
 *
 * @example
 * fullJitter(1, { baseDelayMs: 100, maxDelayMs: 1000 }, Math.random); // 0..200
 */
export function fullJitter(
  attempt: number,
  retry: Pick<BffConfig['retry'], 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  return Math.floor(random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt));
}

/**
 * One HTTP request over node:http (several times cheaper per request than fetch, which matters
 * for the 1 ms budget). Resolves at response headers; the body is left to the caller. A client
 * abort destroys the upstream request at once.
 *
 * Two clocks. The headers timeout counts from the end of the request body (the request's
 * `finish`) to the response headers, so a large upload over a slow link is not mistaken for a
 * slow upstream. While a body streams, an idle timer (reset on every chunk) aborts it when nothing
 * moves for `bodyIdleMs`: the browser stopped sending (BodyStalledError), or the upstream stopped
 * taking bytes (UpstreamTimeoutError; this also bounds a connection that never opens).
 */
function sendOnce(
  options: Omit<ExchangeOptions, 'body'> & { body?: Readable },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(options.url);
    const secure = url.protocol === 'https:';
    const req = (secure ? httpsRequest : httpRequest)(url, {
      method: options.method,
      headers: options.headers,
      agent: secure ? options.agents.https : options.agents.http,
    });
    let settled = false;
    let headersTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    const onAbort = () => req.destroy(new ClientAbortedError());
    const startHeadersTimer = () => {
      clearTimeout(idleTimer);
      if (settled || headersTimer) return;
      headersTimer = setTimeout(() => req.destroy(new UpstreamTimeoutError()), options.timeoutMs);
    };
    const detach = () => {
      clearTimeout(headersTimer);
      clearTimeout(idleTimer);
    };
    options.clientSignal.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      settled = true;
      detach();
      // Keep the abort link until the body is done, so a browser leaving mid-download frees the
      // upstream connection too.
      res.once('close', () => options.clientSignal.removeEventListener('abort', onAbort));
      resolve(res);
    });
    req.on('error', (error) => {
      detach();
      options.clientSignal.removeEventListener('abort', onAbort);
      if (settled) return;
      reject(asStaleConnection(req, error) ?? error);
    });
    if (options.clientSignal.aborted) {
      onAbort();
      return;
    }
    const body = options.body;
    if (!body) {
      // No body to wait for: the request ends now. (Its `finish` would wait for the connection.)
      startHeadersTimer();
      req.end();
      return;
    }
    const armIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        // Paused by backpressure, or sent in full but not yet flushed: the upstream is the slow
        // side. Otherwise the browser stopped sending.
        const upstreamSide = body.readableEnded || req.writableNeedDrain;
        req.destroy(upstreamSide ? new UpstreamTimeoutError() : new BodyStalledError());
      }, options.bodyIdleMs);
    };
    armIdle();
    body.on('data', armIdle);
    req.once('finish', startHeadersTimer);
    body.on('error', () => req.destroy(new ClientAbortedError()));
    body.on('close', () => {
      if (!body.readableEnded) req.destroy(new ClientAbortedError());
    });
    body.pipe(req);
  });
}

/**
 * Whether a request that met a closed pooled connection may go again: its body can be sent again
 * (none, or read whole) and sending it twice means the same as once.
 */
function replayableOnStale(options: ExchangeOptions): boolean {
  return typeof options.body !== 'object' && IDEMPOTENT_METHODS.has(options.method.toUpperCase());
}

/**
 * One upstream exchange. GET/HEAD are retried at most `retry.maxRetries` times on 429/502/503/504
 * and connection resets, honouring a short Retry-After and otherwise backing off with full jitter;
 * the last answer (a 429 included) is returned as is. Other methods go out exactly once, except
 * that an idempotent one (PUT, DELETE) whose body was read whole is sent again at once when a
 * pooled connection turns out closed before any answer ({@link StaleConnectionError}).
 *
 * @example
 * const res = await exchange({ url, method: 'GET', headers, idempotent: true, clientSignal, timeoutMs, bodyIdleMs, retry, random: Math.random });
 */
export async function exchange(options: ExchangeOptions): Promise<IncomingMessage> {
  const { body } = options;
  let stale = 0;
  for (let attempt = 0; ; attempt++) {
    const canRetry = options.idempotent && attempt < options.retry.maxRetries;
    let response: IncomingMessage;
    try {
      response = await sendOnce({ ...options, body: typeof body === 'function' ? body() : body });
    } catch (error) {
      if (options.clientSignal.aborted) throw error;
      if (
        error instanceof StaleConnectionError &&
        stale < MAX_STALE_RETRIES &&
        replayableOnStale(options)
      ) {
        // Not the upstream's failure: another connection, at once, outside the retry budget.
        stale++;
        attempt--;
        options.onRetry?.(stale, 'stale connection', 0);
        continue;
      }
      if (!canRetry || !isConnectionReset(error)) throw error;
      const delay = fullJitter(attempt, options.retry, options.random);
      options.onRetry?.(attempt + 1, 'reset', delay);
      await sleep(delay, options.clientSignal);
      continue;
    }
    const status = response.statusCode ?? 502;
    if (!canRetry || !RETRYABLE_STATUS.has(status)) return response;
    const header = response.headers['retry-after'];
    const retryAfter = parseRetryAfter(typeof header === 'string' ? header : undefined);
    let delay: number;
    if (retryAfter === undefined) {
      delay = fullJitter(attempt, options.retry, options.random);
    } else if (retryAfter * 1000 <= options.retry.maxRetryAfterMs) {
      delay = retryAfter * 1000;
    } else {
      // The API asks for a longer pause than a user should wait on a spinner: pass it through.
      return response;
    }
    response.resume();
    options.onRetry?.(attempt + 1, String(status), delay);
    await sleep(delay, options.clientSignal);
  }
}
