// A connection that broke under a request (the keep-alive race: the upstream closed a pooled
// connection while idle just as a request went out on it; or the upstream crashed), told apart
// from one that was never made (refused, unreachable); and the stale pooled connection both the
// proxy's exchange and the BFF's own calls send a request again after. ADR 0031.
import type { ClientRequest } from 'node:http';

/** Error codes of a connection that broke under a request. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * True when a failure is a reset connection rather than, say, a refused one (the code may sit
 * on a cause, as fetch wraps it).
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

/** Pooled connections found closed, one after another, before a request gives up. */
export const MAX_STALE_RETRIES = 3;

/**
 * A pooled keep-alive connection broke before any answer: the upstream closed it while idle just
 * as the request went out (the keep-alive race), so the request was not processed there. Node's
 * own advice, and Go's net/http: send it again on another connection when that is safe.
 */
export class StaleConnectionError extends Error {
  override readonly name = 'StaleConnectionError';
  constructor(cause: unknown) {
    super('the pooled connection was closed by the upstream', { cause });
  }
}

/**
 * The failure of `req` as a {@link StaleConnectionError} when it was a reset of a reused
 * connection (the request went out on a pooled connection and broke before any answer); else
 * undefined.
 *
 * @example
 * req.on('error', (error) => reject(asStaleConnection(req, error) ?? error));
 */
export function asStaleConnection(
  req: ClientRequest,
  error: unknown,
): StaleConnectionError | undefined {
  return req.reusedSocket && isConnectionReset(error) ? new StaleConnectionError(error) : undefined;
}
