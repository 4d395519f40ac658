// The BFF's own HTTP server with its limits set on purpose (DESIGN.md section 6: servers), rather
// than Node's defaults (headers 60 s, whole request 300 s, no connection cap).
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { serve } from '@hono/node-server';

import type { ServerLimits } from './config.ts';

/**
 * How often Node looks for requests past `headersTimeout` / `requestTimeout` (its default, 30 s,
 * would let a 20 s headers timeout run to 50 s). One pass walks the open requests only.
 */
const CHECK_INTERVAL_MS = 1_000;

/** What Node's HTTP parser refused: status, problem code and detail (ECONNRESET: nobody to answer). */
const PARSER_PROBLEMS: Record<string, { status: number; code: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers-too-large',
    detail: 'The request line and headers are larger than 16 KiB',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request-timeout',
    detail: 'The request headers did not arrive in time',
  },
};

/**
 * The raw answer to a request Node's parser refused (headers over 16 KiB, a broken request line,
 * headers that never finish): a problem document like every other BFF error, instead of Node's
 * bare status line. Undefined when the peer reset the connection.
 *
 * @example
 * socket.end(parserProblem({ code: 'HPE_HEADER_OVERFLOW' }));
 */
export function parserProblem(error: { code?: string }): string | undefined {
  if (error.code === 'ECONNRESET') return undefined;
  const { status, code, detail } = PARSER_PROBLEMS[error.code ?? ''] ?? {
    status: 400,
    code: 'malformed-request',
    detail: 'Malformed HTTP request',
  };
  const title = STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify({ type: `urn:wsc:bff:${code}`, title, status, detail });
  return [
    `HTTP/1.1 ${status} ${title}`,
    'Content-Type: application/problem+json',
    'Cache-Control: no-store',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

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
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way (Node's own default checks the same field) can only be cut.
    const started =
      (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
        ?.headersSent === true;
    const reply = socket.writable && !started ? parserProblem(error) : undefined;
    if (reply === undefined) socket.destroy();
    else socket.end(reply);
  });
  return server;
}
