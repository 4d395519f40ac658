// `/api/v1/*` -> the session's region `/v1/*`, with the token added server-side. Bodies stream
// both ways; nothing is buffered, and the hot path does no store writes. The one exception is a
// record-changing write (proxy-history.ts names them): its small body and reply are read whole so
// the record history can keep what changed (ADR 0024, proxy-capture.ts); an upload's body still
// streams. Record reads are teed, not held, into the session's record copies (ADR 0029).
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import type { AppEnv } from '../../lib/app-env.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Encoding } from '../../lib/compression.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Slot } from '../../lib/in-flight.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BffMetrics } from '../../lib/metrics.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { TokenManager } from '../../lib/token-manager.ts';
import type { UpstreamAgents } from '../../lib/upstream-pool.ts';
import type { CaptureDeps, CapturedWrite } from './proxy-capture.ts';
import type { HandleFieldOf } from './record-copy-fill.ts';
import { systemClock } from '../../lib/clock.ts';
import {
  compressibleResponse,
  compressStream,
  preferredEncoding,
  withVary,
} from '../../lib/compression.ts';
import { createRouter, SECURITY_HEADERS } from '../../lib/create-app.ts';
import { ProblemException } from '../../lib/errors.ts';
import { createInFlightLimiter } from '../../lib/in-flight.ts';
import { actorOf } from '../../lib/people.ts';
import { CredentialsRejectedError, UpstreamUnavailableError } from '../../lib/upstream-auth.ts';
import { createUpstreamAgents } from '../../lib/upstream-pool.ts';
import { createWaitingPool } from '../../lib/waiting-pool.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth, unauthenticated } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { openCapture } from './proxy-capture.ts';
import {
  BodyStalledError,
  ClientAbortedError,
  exchange,
  UpstreamTimeoutError,
  watchResponseIdle,
} from './proxy-exchange.ts';
import { capturePlan, changeSource } from './proxy-history.ts';
import {
  ALLOWED_METHODS,
  FORWARDED_REQUEST_HEADERS,
  isBodyless,
  isPassedResponseHeader,
  isUpload,
  PROXY_PREFIX,
  responseTypeHeaders,
  upstreamUrl,
  webHeaders,
} from './proxy-rules.ts';
import { RecordCopies } from './record-copies.ts';
import { RecordCopyFiller } from './record-copy-fill.ts';

function rawTarget(c: Context<AppEnv>): string {
  const incoming = c.env?.incoming?.url;
  if (incoming) return incoming;
  const url = c.req.url;
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

function upstreamHeaders(
  source: Headers,
  requestId: string,
  token: string,
  hasBody: boolean,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = source.get(name);
    if (value !== null) headers[name] = value;
  }
  // A length without a forwarded body (e.g. on a GET) would leave the API waiting for bytes.
  if (!hasBody && headers['content-length'] !== undefined) headers['content-length'] = '0';
  headers.authorization = `Bearer ${token}`;
  headers['x-request-id'] = requestId;
  // Bodies pass through byte for byte, never re-encoded.
  headers['accept-encoding'] = 'identity';
  return headers;
}

function downstreamHeaders(
  upstream: IncomingMessage,
  region: { apiUrl: string },
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const name in upstream.headers) {
    if (!isPassedResponseHeader(name)) continue;
    const value = upstream.headers[name];
    if (value === undefined) continue;
    headers[name] =
      name === 'location' && typeof value === 'string'
        ? rewriteLocation(value, region.apiUrl)
        : value;
  }
  const status = upstream.statusCode ?? 502;
  // 204 and 304 carry no body, so no type to judge; everything else (HEAD included, whose
  // headers describe the GET) gets an allowlisted type or is turned into a download.
  if (status !== 204 && status !== 304) {
    const type = responseTypeHeaders(
      upstream.headers['content-type'],
      upstream.headers['content-disposition'],
    );
    headers['content-type'] = type.contentType;
    if (type.disposition === undefined) delete headers['content-disposition'];
    else headers['content-disposition'] = type.disposition;
  }
  headers['cache-control'] = 'no-store';
  return headers;
}

/** A single attachment (its content); the list of a record's attachments is `.../attachments`. */
const ATTACHMENT_CONTENT = /\/attachments\/[^/]+/;

/**
 * The encoding a proxied answer is sent with, setting its headers: JSON (lists, records,
 * problems) is compressed as it streams when the browser accepts brotli or gzip; attachment
 * content, ranges and bodiless answers never are.
 */
function encodeAnswer(
  acceptEncoding: string | undefined,
  method: string,
  status: number,
  headers: OutgoingHttpHeaders,
  path: string,
): Encoding | undefined {
  if (isBodyless(method, status) || ATTACHMENT_CONTENT.test(path)) return undefined;
  if (!compressibleResponse(status, headers)) return undefined;
  headers.vary = withVary(typeof headers.vary === 'string' ? headers.vary : undefined);
  const encoding = preferredEncoding(acceptEncoding);
  if (encoding !== undefined) {
    headers['content-encoding'] = encoding;
    delete headers['content-length'];
  }
  return encoding;
}

/** The problem when a session, user or region has too many proxied requests in flight. */
function tooManyInFlight(scope: 'session' | 'user' | 'region', max: number): ProblemException {
  if (scope === 'region') {
    // Capacity of this BFF, not the caller's doing: 503, as a busy server says it.
    return new ProblemException({
      status: 503,
      code: 'busy',
      title: 'Service Unavailable',
      detail: `The console is handling ${max} requests to this region; try again in a moment`,
      headers: { 'retry-after': '1' },
    });
  }
  return new ProblemException({
    status: 429,
    code: 'too_many_in_flight',
    title: 'Too Many Requests',
    detail: `At most ${max} requests of one ${scope} may be in flight at once; wait for some to finish`,
    headers: { 'retry-after': '1' },
  });
}

/**
 * The taken slot, counted in the metrics while it is held: proxied requests per region, and
 * uploads. Released once, like the slot itself.
 */
function countedSlot(slot: Slot, metrics: BffMetrics, region: string, upload: boolean): Slot {
  metrics.inFlight.inc({ region });
  if (upload) metrics.uploadsInFlight.inc();
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      metrics.inFlight.dec({ region });
      if (upload) metrics.uploadsInFlight.dec();
      slot.release();
    },
  };
}

/**
 * Fallback for `app.request()` (no socket): a Response whose body streams from the upstream.
 * The idle watch starts after the web stream has attached, so no byte flows before it is read.
 */
function downstreamResponse(
  upstream: IncomingMessage,
  method: string,
  headers: OutgoingHttpHeaders,
  idleMs: number,
  encoding: Encoding | undefined,
): Response {
  const out = webHeaders(headers);
  const status = upstream.statusCode ?? 502;
  if (isBodyless(method, status)) {
    upstream.resume();
    return new Response(null, { status, headers: out });
  }
  const source = encoding === undefined ? upstream : compressStream(upstream, encoding);
  const body = Readable.toWeb(source) as ReadableStream<Uint8Array>;
  watchResponseIdle(upstream, idleMs);
  return new Response(body, { status, headers: out });
}

/**
 * The fast path under node-server: pipe the upstream response straight into the socket. No web
 * streams, no extra tick before the first byte; backpressure and teardown are Node's own.
 */
function pipeToSocket(
  outgoing: ServerResponse,
  upstream: IncomingMessage,
  method: string,
  headers: OutgoingHttpHeaders,
  requestId: string,
  idleMs: number,
  encoding: Encoding | undefined,
): number {
  const status = upstream.statusCode ?? 502;
  outgoing.writeHead(status, { ...headers, ...SECURITY_HEADERS, 'x-request-id': requestId });
  if (isBodyless(method, status)) {
    upstream.resume();
    outgoing.end();
    return status;
  }
  // A broken upstream mid-body must not leave the browser waiting for bytes that never come.
  upstream.once('error', () => outgoing.destroy());
  upstream.once('aborted', () => outgoing.destroy());
  outgoing.once('close', () => {
    if (!upstream.complete) upstream.destroy();
  });
  if (encoding === undefined) upstream.pipe(outgoing);
  else {
    // The status goes out now, not with the compressor's first output.
    outgoing.flushHeaders();
    const compress = compressStream(upstream, encoding);
    compress.once('error', () => outgoing.destroy());
    outgoing.once('close', () => compress.destroy());
    compress.pipe(outgoing);
  }
  // After pipe(): a 'data' listener attached earlier would start the flow before the pipe did.
  watchResponseIdle(upstream, idleMs);
  return status;
}

/**
 * Tells node-server the answer is already on the socket. Built per request rather than using
 * `RESPONSE_ALREADY_SENT`: once node-server has replaced the global Response, a Response with a
 * null body takes its cached fast path, which ignores the already-sent marker and would write
 * headers twice. Reading `body` once drops that cache, so the marker is honoured.
 */
function alreadySent(): Response {
  const res = new Response(null, { headers: { 'x-hono-already-sent': 'true' } });
  void res.body;
  return res;
}

/** The request body as a Node stream: the socket itself under node-server, else the Request's. */
function requestBody(c: Context<AppEnv>): Readable | undefined {
  const incoming = c.env?.incoming;
  if (incoming) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : undefined;
}

/** Upstream locations point at the API; the browser only knows the BFF's `/api/v1`. */
function rewriteLocation(value: string, apiUrl: string): string {
  if (value.startsWith(apiUrl)) return PROXY_PREFIX + value.slice(apiUrl.length);
  if (value.startsWith('/v1/') || value === '/v1') return `/api${value}`;
  return value;
}

/**
 * The `/api` router.
 *
 * @example
 * app.route('/api', createProxyRouter({ config, sessions, tokens, logger, random: Math.random }));
 */
export function createProxyRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  tokens: TokenManager;
  logger: Logger;
  random: () => number;
  metrics: BffMetrics;
  /**
   * Keeps and announces a change the upstream accepted (the record history and the change bus);
   * resolves whether or not the history could be written, so a write never fails for it.
   */
  recordChange?: (change: RecordChange) => Promise<void>;
  /**
   * The field holding a definition's record handle, for records without `id` (the hosted
   * service names the handle after the definition, e.g. `Ticket ID`).
   */
  handleFieldOf?: HandleFieldOf;
  /** A definition (the hosted conflict check sends the record without its read-only fields). */
  definitionOf?: CaptureDeps['definitionOf'];
  /** The connection pools to the API, shared with the BFF's own calls (lib/upstream-pool.ts). */
  agents?: UpstreamAgents;
  /** The per-session record copies, shared with the sign-in (which keeps its first page). */
  copies?: RecordCopies;
  clock?: Clock;
}) {
  const { config, sessions, tokens, logger, metrics, recordChange } = deps;
  const clock = deps.clock ?? systemClock;
  const router = createRouter();
  // Per app, so the pools' size follows this BFF's region cap (see createUpstreamAgents).
  const agents = deps.agents ?? createUpstreamAgents(config.inFlight.perRegion);
  const inFlight = createInFlightLimiter();
  const copies = deps.copies ?? new RecordCopies(config.recordCopies, clock);
  const handleFieldOf: HandleFieldOf = deps.handleFieldOf ?? (async () => undefined);
  const filler = new RecordCopyFiller(copies, config.recordCopies, handleFieldOf, clock.now);
  const captureDeps: CaptureDeps = {
    config,
    agents,
    random: deps.random,
    copies,
    pool: createWaitingPool(config.capturedWritesPerRegion),
    handleFieldOf,
    ...(deps.definitionOf ? { definitionOf: deps.definitionOf } : {}),
  };

  router.use('*', csrf({ unsafeOnly: false }), sessionMiddleware(sessions), requireAuth);

  router.all('/v1/*', async (c) => {
    const method = c.req.method;
    if (!ALLOWED_METHODS.has(method)) {
      throw new ProblemException({
        status: 405,
        code: 'method_not_allowed',
        title: 'Method Not Allowed',
        detail: `${method} is not proxied`,
        headers: { allow: [...ALLOWED_METHODS].join(', ') },
      });
    }
    const session = c.var.session;
    if (!session) throw unauthenticated(false);
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) {
      await sessions.destroy(session.idHash);
      throw unauthenticated(true);
    }
    const url = upstreamUrl(region.apiUrl, rawTarget(c));
    if (!url) {
      throw new ProblemException({
        status: 400,
        code: 'bad_path',
        title: 'Bad Request',
        detail: `Refused: the path must start with ${PROXY_PREFIX}/ as written`,
      });
    }

    const source = c.req.raw.headers;
    const lengthHeader = source.get('content-length');
    const length = lengthHeader === null ? undefined : Number(lengthHeader);
    const chunked = source.has('transfer-encoding');
    if (length === undefined && (method === 'POST' || method === 'PUT' || chunked)) {
      throw new ProblemException({
        status: 411,
        code: 'length_required',
        title: 'Length Required',
        detail: 'Request bodies need a Content-Length',
      });
    }
    if (length !== undefined && (!Number.isSafeInteger(length) || length < 0)) {
      throw new ProblemException({
        status: 400,
        code: 'bad_request',
        title: 'Bad Request',
        detail: 'Content-Length is not a valid length',
      });
    }
    // Only an upload may be large; every other body (JSON records, users, groups, comments,
    // watchers) is held whole by the API, so it is refused here from its declared length,
    // before a byte is read or sent upstream. Node's parser never reads past Content-Length.
    const upload = isUpload(method, c.req.path, source.get('content-type'));
    const maxBytes = upload ? config.maxUploadBytes : config.maxJsonBodyBytes;
    if (length !== undefined && length > maxBytes) {
      throw new ProblemException({
        status: 413,
        code: 'too_large',
        title: 'Content Too Large',
        detail: upload
          ? `Uploads are limited to ${maxBytes} bytes`
          : `Request bodies other than multipart uploads to .../attachments are limited to ${maxBytes} bytes`,
      });
    }
    const hasBody = length !== undefined && length > 0 && method !== 'GET' && method !== 'HEAD';
    // Record-changing writes only (never a read): the record history keeps what they change.
    const plan = recordChange ? capturePlan(method, c.req.path) : undefined;
    // A streamed body can be sent once; only requests without one may be replayed after a 401
    // (or with one read whole: a captured write's).
    let replayable = !hasBody;
    const idempotent = method === 'GET' || method === 'HEAD';

    // Taken before the token call too: a refused request sends nothing upstream at all.
    const { perSession, perUser, perRegion } = config.inFlight;
    const claims = {
      session: { key: `session:${session.idHash}`, max: perSession },
      user: { key: `user:${session.region}:${session.ownerId}`, max: perUser },
      region: { key: `region:${session.region}`, max: perRegion },
    };
    const taken = inFlight.acquire([claims.session, claims.user, claims.region]);
    if ('full' in taken) {
      const scope =
        taken.full === claims.session ? 'session' : taken.full === claims.user ? 'user' : 'region';
      logger.info('proxy in-flight cap reached', { requestId: c.var.requestId, scope });
      throw tooManyInFlight(scope, taken.full.max);
    }
    const slot = countedSlot(taken, metrics, session.region, upload);
    // An admitted upload may take longer than the request deadline (middlewares/request-deadline.ts);
    // the body idle timer (below) and the server's upload timeout still bound it.
    if (upload && hasBody) c.set('longBody', true);

    // The slot is freed when the answer is over: at once for an answer made here, when the
    // streamed body ends, fails or is abandoned for an answer streamed from the upstream.
    let streaming = false;
    let captured: CapturedWrite | undefined;
    try {
      const clientSignal = c.req.raw.signal;
      const capture = plan
        ? await openCapture(captureDeps, {
            ...{ session, plan, url, method, requestId: c.var.requestId, headers: source },
            ...{ clientSignal, body: hasBody ? () => requestBody(c) : undefined, upload },
          })
        : undefined;
      if (capture instanceof Response) return capture;
      captured = capture;
      if (capture?.replayable) replayable = true;
      let attempts = 0;
      for (let replay = 0; ; replay++) {
        let token: string;
        try {
          token = await tokens.get(session);
        } catch (error) {
          if (error instanceof CredentialsRejectedError) {
            logger.info('session credentials rejected', { requestId: c.var.requestId });
            await sessions.destroy(session.idHash);
            throw unauthenticated(true);
          }
          if (error instanceof UpstreamUnavailableError) {
            throw new ProblemException({
              status: error.kind === 'timeout' ? 504 : 502,
              code: 'upstream_unavailable',
              title: error.kind === 'timeout' ? 'Gateway Timeout' : 'Bad Gateway',
              detail: 'The workspace API could not issue a token; try again shortly',
            });
          }
          throw error;
        }

        let upstream: IncomingMessage;
        const sent = performance.now();
        const observe = (status: string) =>
          metrics.upstreamDuration.observe(
            { region: region.id, status },
            (performance.now() - sent) / 1000,
          );
        try {
          const prepared = await capture?.prepare(token);
          if (prepared instanceof Response) return prepared;
          // A body read whole goes as a fresh copy per attempt (it may be sent again); the
          // browser's stream only once.
          const body = capture?.body() ?? (hasBody ? requestBody(c) : undefined);
          const headers = upstreamHeaders(source, c.var.requestId, token, hasBody);
          upstream =
            prepared ??
            (await exchange({
              url,
              agents,
              method,
              headers: capture?.upstreamHeaders(headers) ?? headers,
              ...(body ? { body } : {}),
              idempotent,
              clientSignal,
              timeoutMs: config.upstreamTimeoutMs,
              bodyIdleMs: config.bodyIdleTimeoutMs,
              retry: config.retry,
              random: deps.random,
              onRetry: () => {
                attempts++;
                metrics.upstreamRetries.inc({ region: region.id });
              },
            }));
          attempts++;
          observe(String(upstream.statusCode ?? 502));
        } catch (error) {
          c.set('upstreamAttempts', attempts + 1);
          observe(
            clientSignal.aborted || error instanceof ClientAbortedError
              ? 'aborted'
              : error instanceof UpstreamTimeoutError
                ? 'timeout'
                : 'error',
          );
          if (clientSignal.aborted || error instanceof ClientAbortedError) {
            // The browser left; nobody reads this answer, it only names the outcome in the log.
            return new Response(null, { status: 499 });
          }
          if (error instanceof UpstreamTimeoutError) {
            throw new ProblemException({
              status: 504,
              code: 'upstream_timeout',
              title: 'Gateway Timeout',
              detail: `The workspace API did not answer within ${config.upstreamTimeoutMs} ms`,
            });
          }
          if (error instanceof BodyStalledError) {
            throw new ProblemException({
              status: 408,
              code: 'body_stalled',
              title: 'Request Timeout',
              detail: `The request body stopped arriving for ${config.bodyIdleTimeoutMs} ms`,
            });
          }
          logger.warn('upstream request failed', {
            requestId: c.var.requestId,
            error: error instanceof Error ? error.message : String(error),
          });
          throw new ProblemException({
            status: 502,
            code: 'upstream_unavailable',
            title: 'Bad Gateway',
            detail: 'The workspace API could not be reached',
          });
        }

        if (upstream.statusCode === 401) {
          tokens.invalidate(session.idHash, token);
          if (replayable && replay === 0) {
            upstream.resume();
            continue;
          }
        }
        c.set('upstreamStatus', upstream.statusCode);
        c.set('upstreamAttempts', attempts);
        const headers = downstreamHeaders(upstream, region);
        const status = upstream.statusCode ?? 502;
        if (plan && recordChange && status >= 200 && status < 300) {
          // The change is kept before the answer goes out, so the console's next read of the
          // history has it; a failure to keep it is logged and counted, never the user's error.
          const done = await capture?.finish(upstream, status, headers);
          const { recordId, fields = [] } = done ?? {};
          if (recordId && fields.length > 0) {
            await recordChange({
              region: session.region,
              recordType: plan.recordType,
              alias: plan.alias,
              recordId,
              kind: plan.kind,
              actor: actorOf(session),
              source: changeSource(source.get('x-change-source')),
              at: clock.now(),
              fields,
            });
          }
          if (done?.streams) {
            streaming = true;
            upstream.once('close', slot.release);
          }
          if (done) return done.response;
        }
        const encoding = encodeAnswer(
          c.req.header('accept-encoding'),
          method,
          upstream.statusCode ?? 502,
          headers,
          c.req.path,
        );
        // 'close' comes after the body ended, failed, or was destroyed (abort, idle timeout).
        streaming = true;
        upstream.once('close', slot.release);
        // Teed beside the pipe into the session's record copies (a refused write drops one).
        void filler.observe(upstream, {
          session,
          method,
          path: c.req.path,
          search: url.search,
          status,
        });
        const outgoing = c.env?.outgoing;
        if (outgoing) {
          outgoing.once('close', slot.release);
          c.set(
            'sentStatus',
            pipeToSocket(
              outgoing,
              upstream,
              method,
              headers,
              c.var.requestId,
              config.bodyIdleTimeoutMs,
              encoding,
            ),
          );
          return alreadySent();
        }
        return downstreamResponse(upstream, method, headers, config.bodyIdleTimeoutMs, encoding);
      }
    } finally {
      if (!streaming) slot.release();
      captured?.release();
    }
  });

  router.all('*', (c) => {
    throw new ProblemException({
      status: 404,
      code: 'not_found',
      title: 'Not Found',
      detail: `Only ${PROXY_PREFIX}/* is proxied, not ${c.req.path}`,
    });
  });

  return router;
}
