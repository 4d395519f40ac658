// Pure rules of the proxy: which paths, methods and headers may cross the BFF.
import type { OutgoingHttpHeaders } from 'node:http';

export const PROXY_PREFIX = '/api/v1';

export const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);

/**
 * Whether an answer carries no body: a HEAD's, a 204's or a 304's.
 *
 * @example
 * isBodyless('HEAD', 200); // true
 */
export const isBodyless = (method: string, status: number): boolean =>
  method === 'HEAD' || status === 204 || status === 304;

/**
 * Node's outgoing headers as a web Headers (arrays as repeated headers), leaving out `skip`.
 *
 * @example
 * webHeaders({ 'content-type': 'application/json', vary: ['Origin', 'Accept-Encoding'] });
 */
export function webHeaders(headers: OutgoingHttpHeaders, skip?: string): Headers {
  const out = new Headers();
  for (const name in headers) {
    const value = headers[name];
    if (name === skip) continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else if (value !== undefined) out.set(name, String(value));
  }
  return out;
}

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

/** The media type of a Content-Type value: lower-cased, parameters dropped (`''` when absent). */
function essence(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Whether a proxied request is an upload, the only body allowed past the JSON limit: a POST of
 * `multipart/form-data` to a path ending in `/attachments`. Judged on the routed (decoded) path;
 * the raw target has already been checked for encoded separators.
 *
 * @example
 * isUpload('POST', '/api/v1/apps/support/SUP-1/attachments', 'multipart/form-data; boundary=x'); // true
 * isUpload('PUT', '/api/v1/apps/support/SUP-1', 'multipart/form-data; boundary=x'); // false
 */
export function isUpload(method: string, path: string, contentType: string | null): boolean {
  return (
    method === 'POST' &&
    path.endsWith('/attachments') &&
    essence(contentType) === 'multipart/form-data'
  );
}

/** Where the proxy's requests may go: its own origin, used only to parse a request target. */
const LOCAL_BASE = 'http://bff.invalid';

/**
 * The upstream URL of a proxied request target, or undefined when the target does not start
 * with `/api/v1/` as written. The target is parsed as a URL (not cut at a fixed length), its path
 * after `/api/v1` is appended to the API base's path, and its query follows as the URL parser
 * reads it (the encoding a browser sends); the host and scheme come only from the configured
 * base. Percent-encoding in the path is kept as sent, so a `%3F` stays a character of a segment
 * and never becomes a query.
 *
 * Hono routes on the decoded path, so `/%61pi/v1/me` reaches the proxy; refusing anything but the
 * literal prefix keeps what is routed and what is forwarded the same.
 *
 * @example
 * upstreamUrl('https://api.example.com/v1', '/api/v1/apps/support?first=10')?.href;
 * // 'https://api.example.com/v1/apps/support?first=10'
 * upstreamUrl('https://api.example.com/v1', '/%61pi/v1/me'); // undefined
 */
export function upstreamUrl(apiUrl: string, target: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(target, LOCAL_BASE);
  } catch {
    return undefined;
  }
  // An absolute-form target names its own host: never ours to follow.
  if (parsed.origin !== LOCAL_BASE || !target.startsWith('/')) return undefined;
  if (!parsed.pathname.startsWith(`${PROXY_PREFIX}/`)) return undefined;
  const url = new URL(apiUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${parsed.pathname.slice(PROXY_PREFIX.length)}`;
  url.search = parsed.search;
  url.hash = '';
  return url;
}

/**
 * Response types a browser may be given as they are: data the console reads (JSON, text) and
 * passive media. Anything else (HTML, SVG, XML, scripts, styles, unknown or missing types) is
 * served as `application/octet-stream` with `Content-Disposition: attachment`, so even a hostile
 * upstream or upload cannot make the console's origin render active content.
 */
const SAFE_RESPONSE_TYPES = new Set([
  'application/json',
  'application/problem+json',
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'text/plain',
  'text/csv',
  'text/uri-list',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/ogg',
]);

/**
 * The Content-Type and Content-Disposition to answer with for an upstream response: unchanged
 * for an allowlisted type; else `application/octet-stream` and an attachment disposition (the
 * upstream's file name is kept when it gave one).
 *
 * @example
 * responseTypeHeaders('text/html; charset=utf-8', 'inline; filename="a.html"');
 * // { contentType: 'application/octet-stream', disposition: 'attachment; filename="a.html"' }
 * responseTypeHeaders('application/json', undefined); // { contentType: 'application/json', disposition: undefined }
 */
export function responseTypeHeaders(
  contentType: string | undefined,
  disposition: string | undefined,
): { contentType: string; disposition: string | undefined } {
  if (contentType !== undefined && SAFE_RESPONSE_TYPES.has(essence(contentType))) {
    return { contentType, disposition };
  }
  const params = disposition === undefined ? '' : disposition.replace(/^[^;]*/, '');
  return { contentType: 'application/octet-stream', disposition: `attachment${params}` };
}
