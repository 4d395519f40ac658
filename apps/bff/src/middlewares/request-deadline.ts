// The time a client has to send its whole request (DESIGN.md section 6: servers). Node's own
// `requestTimeout` covers every request alike, so it cannot except uploads; this deadline is per
// request instead, and the proxy lifts it for an upload it has admitted (signed in, within its
// in-flight slots), which the body idle timer and the server's upload timeout still bound.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';

function timeoutAnswer(timeoutMs: number): string {
  const body = JSON.stringify({
    type: 'urn:wsc:bff:request_timeout',
    title: 'Request Timeout',
    status: 408,
    detail: `The request did not arrive whole within ${timeoutMs} ms`,
  });
  return (
    'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n' +
    'Content-Type: application/problem+json\r\nCache-Control: no-store\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** As Node answers its own request timeout: a 408 when nothing was answered yet, then close. */
function cutOff(
  incoming: IncomingMessage,
  outgoing: ServerResponse | undefined,
  timeoutMs: number,
) {
  const socket = incoming.socket;
  if (socket.writable && !outgoing?.headersSent) socket.write(timeoutAnswer(timeoutMs));
  socket.destroy();
}

/**
 * Cut off a request whose body has not fully arrived `timeoutMs` after its headers did, unless
 * the route set `longBody` (an admitted upload) or `streaming` (an event stream). Only under node-server (a real socket);
 * `app.request()` has no socket to cut.
 *
 * @example
 * app.use(requestDeadline(60_000));
 */
export function requestDeadline(timeoutMs: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.env?.incoming;
    // Nothing to wait for: no socket (app.request, whose test doubles may fake `incoming`), or
    // the whole request has arrived already.
    if (!incoming || incoming.complete !== false) return next();
    const outgoing = c.env?.outgoing;
    const timer = setTimeout(() => {
      // `complete` is set when the last body byte is parsed, whether or not anyone read it.
      // An event stream lives for hours by design; the heartbeat and the stream limits bound it.
      if (incoming.complete || c.var.longBody || c.var.streaming) return;
      cutOff(incoming, outgoing, timeoutMs);
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    incoming.once('close', clear);
    outgoing?.once('close', clear);
    return next();
  });
}
