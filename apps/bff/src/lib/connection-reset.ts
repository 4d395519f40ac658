// A connection that broke under a request (the keep-alive race: the upstream closed a pooled
// connection while idle just as a request went out on it; or the upstream crashed), told apart
// from one that was never made (refused, unreachable). ADR 0031.

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
