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
// most 4 in flight per credential (lib/uploads.ts).
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';

import type { ServerLimits } from './env.ts';
import type { Logger } from './lib/types.ts';

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

/**
 * Serves `fetch` on host:port with the limits; resolves once listening.
 *
 * @example
 * const server = await startServer(app.fetch, { port: 8080, host: '127.0.0.1', limits: config.server });
 */
export async function startServer(
  fetch: (request: Request, env: unknown) => Response | Promise<Response>,
  options: { port: number; host: string; limits: ServerLimits; logger?: Logger },
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
