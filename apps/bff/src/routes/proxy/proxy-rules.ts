// Pure rules of the proxy: which paths, methods and headers may cross the BFF.

export const PROXY_PREFIX = '/api/v1';

export const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);

/** Request headers a browser may send upstream. Never Cookie, Authorization, X-CSRF or Origin. */
export const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'content-length',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
  'range',
] as const;

/** Response headers passed back; everything else (Set-Cookie, hop-by-hop, WWW-Authenticate) is dropped. */
const PASSED_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'content-disposition',
  'content-language',
  'etag',
  'last-modified',
  'location',
  'retry-after',
  'x-content-type-options',
]);

/**
 * Whether an upstream response header may reach the browser. `RateLimit*` pass through unchanged.
 *
 * @example
 * isPassedResponseHeader('ratelimit-policy'); // true
 * isPassedResponseHeader('set-cookie'); // false
 */
export function isPassedResponseHeader(name: string): boolean {
  return (
    PASSED_RESPONSE_HEADERS.has(name) ||
    name.startsWith('ratelimit') ||
    name.startsWith('x-ratelimit')
  );
}

// Dot segments (plain or encoded), encoded slashes and backslashes, NUL, backslashes, empty segments.
const UNSAFE_PATH = /%2e|%2f|%5c|%00|\\|\/\/|(?:^|\/)\.\.?(?:\/|$)/i;

/**
 * Why a raw request target is refused before routing, or undefined when it is acceptable.
 * Only the path is judged; the query string is forwarded as is.
 *
 * @example
 * unsafeTargetReason('/api/v1/records/%2e%2e/users'); // 'path traversal or encoded separator'
 * unsafeTargetReason('http://evil.example/api/v1/me'); // 'absolute URL'
 */
export function unsafeTargetReason(target: string): string | undefined {
  if (!target.startsWith('/')) return 'absolute URL';
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  if (UNSAFE_PATH.test(path)) return 'path traversal or encoded separator';
  return undefined;
}
