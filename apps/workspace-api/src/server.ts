// The HTTP server's own limits, set on purpose instead of Node's defaults (which wait 60 s for
// headers, 300 s for a whole request whatever its size, for ever on an idle socket, and accept
// any number of connections).
//
// Uploads are the exception to the whole-request limit: a legitimate 250 MiB file over a slow
// link takes far longer than any sensible request limit (at 1 Mbit/s, 35 minutes). Node's own
// `requestTimeout` cannot tell requests apart, so it is off, and this file arms a whole-request
// timer (REQUEST_TIMEOUT_MS) on every request that is not an upload. Uploads are bounded instead
// by the idle limit (BODY_IDLE_TIMEOUT_MS: a connection on which no byte moves for that long is
// closed, so a stalled or trickling-to-nothing upload ends), by the 250 MiB size limit, and by at
// most 4 in flight per credential (attachments/uploads.ts).
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';

import type { Profile, ServerLimits } from './env.ts';
import type { Logger } from './lib/types.ts';
import { problemBody } from './lib/errors.ts';

/** `POST /v1/{recordType}/{alias}/{id}/attachments`: the only route with large bodies. */
const UPLOAD_TARGET_RE =
  /^\/v1\/(?:apps|elements|tasks|transactions)\/[^/?#]+\/[^/?#]+\/attachments\/?(?:[?#]|$)/;

/**
 * Whether a request (method and raw target) is an upload, exempt from the whole-request limit.
 *
 * @example
 * isUploadRequest('POST', '/v1/apps/support-tickets/SUP-1/attachments'); // true
 */
export function isUploadRequest(method: string | undefined, target: string | undefined): boolean {
  return method === 'POST' && UPLOAD_TARGET_RE.test(target ?? '');
}

/**
 * Node server options for the limits: headersTimeout, requestTimeout 0 (see the file comment),
 * keepAliveTimeout, and a check interval short enough for the headers timeout to be exact to a
 * fraction of itself (Node checks every 30 s by default).
 *
 * @example
 * createServer(serverOptions(config.server), listener);
 */
export function serverOptions(limits: ServerLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(
      1_000,
      Math.max(50, Math.floor(limits.headersTimeoutMs / 4)),
    ),
  };
}

/**
 * Sets the limits that are properties of a created server: the idle timeout of every socket, the
 * connection count, and the whole-request timer of non-upload requests (a body still arriving
 * when it fires closes the connection).
 *
 * @example
 * const server = createServer(serverOptions(limits), listener);
 * applyServerLimits(server, limits);
 */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = 0;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // No 'timeout' listener: Node destroys a socket that is idle this long.
  server.timeout = limits.bodyIdleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  server.on('request', (req, res) => {
    if (isUploadRequest(req.method, req.url)) return;
    const timer = setTimeout(() => {
      // The body was fully received (req.complete): a slow handler is not the client's fault.
      if (!req.complete) req.socket.destroy();
    }, limits.requestTimeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    res.once('finish', clear);
    res.once('close', clear);
  });
}

/** What Node's HTTP parser refused, as a status and a sentence (ECONNRESET: nobody to answer). */
function clientErrorStatus(
  error: NodeJS.ErrnoException,
  limits: ServerLimits,
): { status: number; detail: string } | undefined {
  switch (error.code) {
    case 'ECONNRESET':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        detail:
          'The request line and headers are larger than 16 KiB (a filter this long belongs in fewer, shorter conditions)',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        detail: `The request headers did not arrive within ${limits.headersTimeoutMs} ms`,
      };
    default:
      return { status: 400, detail: 'Malformed HTTP request' };
  }
}

/**
 * The raw answer to a request Node's parser refused (headers over 16 KiB, a broken request line,
 * headers that never finish), in the profile's error format, so even these are a problem document
 * (or `{message}`) rather than Node's bare status line. Undefined when there is nobody to answer.
 *
 * @example
 * socket.end(clientErrorReply('extended', error, limits));
 */
export function clientErrorReply(
  profile: Profile,
  error: NodeJS.ErrnoException,
  limits: ServerLimits,
): string | undefined {
  const refused = clientErrorStatus(error, limits);
  if (!refused) return undefined;
  const { status, detail } = refused;
  const [contentType, body] =
    profile === 'extended'
      ? ['application/problem+json', JSON.stringify(problemBody(status, { detail }))]
      : ['application/json', JSON.stringify({ message: detail })];
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Whether a response has started on the socket (then a parser error can only close it). */
function responseStarted(socket: Duplex): boolean {
  // Node's own clientError default makes the same check on this internal field.
  return (
    (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent ===
    true
  );
}

/**
 * Serves `fetch` on host:port with the limits; resolves once listening.
 *
 * @example
 * const server = await startServer(app.fetch, { port: 8080, host: '127.0.0.1', limits: config.server });
 */
export async function startServer(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  options: {
    port: number;
    host: string;
    limits: ServerLimits;
    /** The error format of requests the HTTP parser refuses (default extended). */
    profile?: Profile;
    logger?: Logger;
  },
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: serverOptions(options.limits),
      },
      (info) => resolve({ server, port: info.port }),
    ) as Server;
    applyServerLimits(server, options.limits);
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
      const reply =
        socket.writable && !responseStarted(socket)
          ? clientErrorReply(options.profile ?? 'extended', error, options.limits)
          : undefined;
      if (reply === undefined) socket.destroy();
      else socket.end(reply);
    });
    // At most one line per minute: a connection flood must not become a log flood.
    let lastLogged = -Infinity;
    let dropped = 0;
    server.on('drop', () => {
      dropped += 1;
      const now = Date.now();
      if (now - lastLogged < 60_000) return;
      lastLogged = now;
      options.logger?.error('connections refused: MAX_CONNECTIONS reached', { dropped });
      dropped = 0;
    });
  });
}
