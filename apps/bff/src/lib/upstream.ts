// Everything that talks to the workspace API: sign-in calls (token, /v1/me) over the injected
// fetch, the per-session token cache (single flight, refresh before expiry), and the proxy's
// upstream exchange over node:http with a headers timeout and bounded retries.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

import type { Me, TokenRequestStyle, TokenResponse } from '@wsc/api-client';
import { isApiError, MeSchema, parseRetryAfter, requestToken } from '@wsc/api-client';

import type { RegionId, SessionRecord, SessionStore } from '../db/store.ts';
import type { Clock } from './clock.ts';
import type { BffConfig, Region } from './config.ts';
import type { Sealer } from './crypto.ts';
import type { Logger } from './logger.ts';

/** The API said the session's credentials are no longer valid (revoked, deactivated, rotated). */
export class CredentialsRejectedError extends Error {
  override readonly name = 'CredentialsRejectedError';
}

/** The API could not be reached, timed out, or answered the token call with something unusable. */
export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';
  constructor(
    message: string,
    readonly kind: 'timeout' | 'unreachable' | 'bad_reply' | 'rate_limited',
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

type CachedToken = { token: string; refreshAt: number };

/** Entries kept in memory at most; past it the oldest are dropped (they reload from the store). */
const MAX_CACHED_TOKENS = 10_000;

export type TokenManager = {
  /** A valid access token for the session; one token call per session at a time. */
  get(session: SessionRecord): Promise<string>;
  /** Drop `staleToken` (after an upstream 401) so the next `get` fetches a new one. */
  invalidate(idHash: string, staleToken: string): void;
  forget(idHash: string): void;
  /** Seed the cache at sign-in with the token the credentials were checked with. */
  prime(idHash: string, token: string, refreshAt: number): void;
};

/** Per region: the token request style that worked after a fallback (lib/upstream.ts fetchToken). */
export type TokenStyles = Map<RegionId, TokenRequestStyle>;

/** Answers to form + Basic that may mean "send the JSON body instead" (Prism answers 422). */
const FALLBACK_STATUS = new Set([400, 415, 422]);
/** RFC 6749 codes that mean the credentials themselves are wrong, whatever the status. */
const CREDENTIAL_CODES = new Set(['invalid_client', 'invalid_grant', 'unauthorized_client']);

function tokenFailure(error: unknown): Error {
  if (isApiError(error)) {
    // Only these mean "wrong credentials" (and count as a failed sign-in); any other 4xx is the
    // service not understanding us, which the person signing in cannot fix.
    if (error.status === 401 || CREDENTIAL_CODES.has(error.code)) {
      return new CredentialsRejectedError(error.code);
    }
    if (error.status === 429) {
      return new UpstreamUnavailableError('token rate limited', 'rate_limited', error.retryAfter);
    }
    return new UpstreamUnavailableError(
      `token endpoint answered ${error.status}`,
      error.status === 0 ? 'unreachable' : 'bad_reply',
    );
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new UpstreamUnavailableError('token endpoint timed out', 'timeout');
  }
  return new UpstreamUnavailableError('token endpoint failed', 'unreachable');
}

/**
 * Call the token endpoint; maps RFC 6749 errors and network failures to the BFF's error types.
 * With the region's `tokenStyle` `auto`: form + HTTP Basic first (the service's documentation),
 * and on 400/415/422 (without a credentials error code) once more with the JSON body of its
 * published OpenAPI; when that works, the region uses JSON from then on. Any 2xx with an
 * `access_token` is success.
 *
 * @example
 * const token = await fetchToken({ fetch, region, clientId, clientSecret, timeoutMs: 30_000, styles });
 */
export async function fetchToken(options: {
  fetch: typeof fetch;
  region: Region;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  styles: TokenStyles;
}): Promise<TokenResponse> {
  const { region } = options;
  const request = (style: TokenRequestStyle) =>
    requestToken({
      tokenUrl: region.tokenUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      style,
      fetch: options.fetch,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  const fixed = region.tokenStyle === 'auto' ? options.styles.get(region.id) : region.tokenStyle;
  try {
    if (fixed) return await request(fixed);
    try {
      return await request('form');
    } catch (error) {
      const retry =
        isApiError(error) && FALLBACK_STATUS.has(error.status) && !CREDENTIAL_CODES.has(error.code);
      if (!retry) throw error;
    }
    const reply = await request('json');
    options.styles.set(region.id, 'json');
    return reply;
  } catch (error) {
    throw tokenFailure(error);
  }
}

/**
 * The longest token lifetime the BFF plans a refresh with. The published contract allows any
 * number for `expires_in` (a fraction, or centuries); a session lasts hours, and the refresh time
 * is stored as whole milliseconds in a bigint column.
 */
const MAX_PLANNED_TOKEN_SECONDS = 7 * 24 * 3600;

/**
 * When to refresh a token issued at `issuedAt` (ms) that lives `expiresIn` seconds: `ratio` of
 * its lifetime (at most a week), in whole milliseconds.
 *
 * @example
 * tokenRefreshTime(0, 3599.5, 0.9); // 3239550
 */
export function tokenRefreshTime(issuedAt: number, expiresIn: number, ratio: number): number {
  return issuedAt + Math.floor(Math.min(expiresIn, MAX_PLANNED_TOKEN_SECONDS) * 1000 * ratio);
}

/**
 * `GET /v1/me` with a fresh token: who signed in, and their role.
 *
 * @example
 * const me = await fetchMe(fetch, region, token.access_token, 30_000);
 */
export async function fetchMe(
  doFetch: typeof fetch,
  region: Region,
  accessToken: string,
  timeoutMs: number,
): Promise<Me> {
  let response: Response;
  try {
    response = await doFetch(`${region.apiUrl}/me`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timeout = error instanceof Error && error.name === 'TimeoutError';
    throw new UpstreamUnavailableError('GET /v1/me failed', timeout ? 'timeout' : 'unreachable');
  }
  if (response.status === 401) throw new CredentialsRejectedError('me_unauthorized');
  if (!response.ok) {
    await response.body?.cancel();
    throw new UpstreamUnavailableError(`GET /v1/me answered ${response.status}`, 'bad_reply');
  }
  const parsed = MeSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success)
    throw new UpstreamUnavailableError('GET /v1/me reply malformed', 'bad_reply');
  return parsed.data;
}

/**
 * Open a sealed session value. A value that does not open (SESSION_SECRET rotated, a row edited)
 * means the session's credentials are unusable: the same outcome as revoked credentials, so the
 * caller ends the session with 401 rather than failing every request with 500.
 *
 * @example
 * const secret = openSealed(sealer, session.secretSealed, session.idHash);
 */
export function openSealed(sealer: Sealer, sealed: string, context: string): string {
  try {
    return sealer.open(sealed, context);
  } catch {
    throw new CredentialsRejectedError('sealed session value does not open');
  }
}

/**
 * The per-session token cache. Tokens live in memory and, sealed, in the session row, so a BFF
 * restart or a second instance reuses them instead of calling the token endpoint again.
 *
 * @example
 * const tokens = createTokenManager({ config, store, clock, sealer, fetch, logger, styles: new Map() });
 * const token = await tokens.get(session);
 */
export function createTokenManager(deps: {
  config: BffConfig;
  store: SessionStore;
  clock: Clock;
  sealer: Sealer;
  fetch: typeof fetch;
  logger: Logger;
  styles: TokenStyles;
}): TokenManager {
  const { config, store, clock, sealer } = deps;
  const cache = new Map<string, CachedToken>();
  const inflight = new Map<string, Promise<string>>();
  // Stale tokens are remembered per session so a stored copy of one is not reused after a 401.
  const rejected = new Map<string, string>();

  const remember = (idHash: string, entry: CachedToken) => {
    if (cache.size >= MAX_CACHED_TOKENS && !cache.has(idHash)) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(idHash, entry);
  };

  const refresh = async (session: SessionRecord): Promise<string> => {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) throw new CredentialsRejectedError('region no longer configured');
    const secret = openSealed(sealer, session.secretSealed, session.idHash);
    const issuedAt = clock.now();
    const reply = await fetchToken({
      fetch: deps.fetch,
      region,
      clientId: session.clientId,
      clientSecret: secret,
      timeoutMs: config.upstreamTimeoutMs,
      styles: deps.styles,
    });
    const refreshAt = tokenRefreshTime(issuedAt, reply.expires_in, config.tokenRefreshRatio);
    remember(session.idHash, { token: reply.access_token, refreshAt });
    rejected.delete(session.idHash);
    await store.saveToken(
      session.idHash,
      sealer.seal(reply.access_token, session.idHash),
      refreshAt,
    );
    deps.logger.debug('token refreshed', { session: session.idHash.slice(0, 8) });
    return reply.access_token;
  };

  return {
    async get(session) {
      const now = clock.now();
      const cached = cache.get(session.idHash);
      if (cached && now < cached.refreshAt) return cached.token;
      const running = inflight.get(session.idHash);
      if (running) return running;
      // The stored token: after a restart, or refreshed meanwhile by another BFF instance.
      const storedUntil = session.tokenRefreshAt ?? 0;
      if (session.tokenSealed && now < storedUntil && storedUntil > (cached?.refreshAt ?? 0)) {
        const stored = openSealed(sealer, session.tokenSealed, session.idHash);
        if (rejected.get(session.idHash) !== stored) {
          remember(session.idHash, { token: stored, refreshAt: storedUntil });
          return stored;
        }
      }
      const promise = refresh(session).finally(() => inflight.delete(session.idHash));
      inflight.set(session.idHash, promise);
      return promise;
    },
    invalidate(idHash, staleToken) {
      rejected.set(idHash, staleToken);
      if (cache.get(idHash)?.token === staleToken) cache.delete(idHash);
    },
    forget(idHash) {
      cache.delete(idHash);
      rejected.delete(idHash);
    },
    prime(idHash, token, refreshAt) {
      remember(idHash, { token, refreshAt });
    },
  };
}

/** Statuses after which an idempotent request is tried again. */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** Error codes of a connection that broke under a request (keep-alive race, upstream crash). */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * True when a fetch failure is a reset connection rather than, say, a refused one.
 *
 * @example
 * if (isConnectionReset(error)) retry();
 */
export function isConnectionReset(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && RESET_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

/** Keep-alive connection pools to the API, one per scheme. */
export type UpstreamAgents = { http: HttpAgent; https: HttpsAgent };

/**
 * The proxy's connection pools. `maxSockets` (per upstream origin, i.e. per region) is the
 * region's in-flight cap, so a request admitted by the proxy's limiter never waits unseen in the
 * agent's queue, and the limiter (which answers 429/503 at once) is what bounds the sockets.
 *
 * @example
 * const agents = createUpstreamAgents(512);
 */
export function createUpstreamAgents(maxSockets: number): UpstreamAgents {
  return {
    http: new HttpAgent({ keepAlive: true, maxSockets, scheduling: 'lifo' }),
    https: new HttpsAgent({ keepAlive: true, maxSockets, scheduling: 'lifo' }),
  };
}

export type ExchangeOptions = {
  url: string | URL;
  agents: UpstreamAgents;
  method: string;
  headers: OutgoingHttpHeaders;
  /** The request body, streamed once; only for non-idempotent requests with a Content-Length. */
  body?: Readable;
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
function sendOnce(options: ExchangeOptions): Promise<IncomingMessage> {
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
      if (!settled) reject(error);
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
 * One upstream exchange. GET/HEAD are retried at most `retry.maxRetries` times on 429/502/503/504
 * and connection resets, honouring a short Retry-After and otherwise backing off with full jitter;
 * the last answer (a 429 included) is returned as is. Other methods go out exactly once.
 *
 * @example
 * const res = await exchange({ url, method: 'GET', headers, idempotent: true, clientSignal, timeoutMs, bodyIdleMs, retry, random: Math.random });
 */
export async function exchange(options: ExchangeOptions): Promise<IncomingMessage> {
  for (let attempt = 0; ; attempt++) {
    const canRetry = options.idempotent && attempt < options.retry.maxRetries;
    let response: IncomingMessage;
    try {
      response = await sendOnce(options);
    } catch (error) {
      if (!canRetry || !isConnectionReset(error) || options.clientSignal.aborted) throw error;
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
