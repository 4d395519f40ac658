// A proxied write with a JSON body as the console sends it: Content-Length (the proxy needs one),
// the CSRF header and the session cookie (through the harness), extra headers as given.
import type { Harness } from './harness.ts';

/**
 * Send `body` as JSON to `path` through the harness's BFF.
 *
 * @example
 * const res = await sendJson(h, '/api/v1/apps/support/SUP-1', { cookie, method: 'PUT', body: { Status: 'Open' } });
 */
export function sendJson(
  h: Harness,
  path: string,
  init: { cookie: string; method: string; body: unknown; headers?: Record<string, string> },
): Promise<Response> {
  const text = JSON.stringify(init.body);
  return h.api(path, {
    cookie: init.cookie,
    method: init.method,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...init.headers,
    },
    body: text,
  });
}
