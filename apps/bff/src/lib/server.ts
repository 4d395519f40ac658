// The BFF's own HTTP server with its limits set on purpose (DESIGN.md section 6: servers), rather
// than Node's defaults (headers 60 s, whole request 300 s, no connection cap).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

import type { ServerLimits } from './config.ts';

/**
 * How often Node looks for requests past `headersTimeout` / `requestTimeout` (its default, 30 s,
 * would let a 20 s headers timeout run to 50 s). One pass walks the open requests only.
 */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Serve `fetch` with the given limits:
 * - `headersTimeout`: the request line and headers must arrive within `headersTimeoutMs`
 *   (slowloris), else 408 and close.
 * - `requestTimeout`: Node's whole-request bound is the upload timeout, the longest any request
 *   may take to arrive. The shorter deadline for every other request is per request, in the app
 *   (middlewares/request-deadline.ts), because Node's own cannot except one request.
 * - `keepAliveTimeout`: an idle keep-alive connection is closed after `keepAliveTimeoutMs`.
 * - `maxConnections`: connections past it are closed at accept, so a flood of open sockets
 *   cannot take every file descriptor.
 *
 * @example
 * const server = startServer(app.fetch, { port: 3000, hostname: '127.0.0.1', limits: config.server });
 */
export function startServer(
  fetch: Parameters<typeof serve>[0]['fetch'],
  options: {
    port: number;
    hostname: string;
    limits: ServerLimits;
    /** For tests: Node's check interval of the two timeouts. */
    checkIntervalMs?: number;
    onListening?: (info: AddressInfo) => void;
  },
): Server {
  const { limits } = options;
  const server = serve(
    {
      fetch,
      port: options.port,
      hostname: options.hostname,
      serverOptions: {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.uploadTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: options.checkIntervalMs ?? CHECK_INTERVAL_MS,
      },
    },
    options.onListening,
  ) as Server;
  server.maxConnections = limits.maxConnections;
  // Node's socket inactivity timeout stays off: a proxied body that stops moving is cut by the
  // proxy's own idle timers (60 s), which answer properly instead of dropping the socket.
  server.timeout = 0;
  return server;
}
