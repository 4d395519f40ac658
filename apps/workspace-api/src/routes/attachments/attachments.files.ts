// Cleaning what clients send (file names, media types) and the headers that make serving stored
// bytes safe in a browser.

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidi overrides/isolates can disguise an extension ("invoice\u202Efdp.exe"); zero-width and BOM too.
const INVISIBLE_RE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
const MAX_NAME_CHARS = 255;

/**
 * A display name from a client file name: path parts dropped, control and invisible formatting
 * characters removed, trimmed, at most 255 characters; other Unicode is kept.
 *
 * @example
 * cleanFileName('C:\\Users\\ana\\..\\report\u0000.pdf'); // 'report.pdf'
 * cleanFileName('../../etc/passwd'); // 'passwd'
 */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base.normalize('NFC').replace(CONTROL_RE, '').replace(INVISIBLE_RE, '').trim();
  const chars = [...cleaned];
  const limited =
    chars.length > MAX_NAME_CHARS ? chars.slice(0, MAX_NAME_CHARS).join('').trim() : cleaned;
  return limited === '' || limited === '.' || limited === '..' ? 'attachment' : limited;
}

const TOKEN = '[a-z0-9!#$&^_.+-]{1,63}';
const MEDIA_TYPE_RE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/**
 * `type/subtype` from a part's Content-Type, lower-cased, parameters dropped; anything malformed
 * becomes `application/octet-stream`.
 *
 * @example
 * sanitizeMediaType('Text/CSV; charset=utf-8'); // 'text/csv'
 * sanitizeMediaType('evil\r\nX-Injected: 1'); // 'application/octet-stream'
 */
export function sanitizeMediaType(raw: string | undefined): string {
  const value = (raw ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE_RE.test(value) ? value : 'application/octet-stream';
}

/** Types a browser would render as active content (scripts, markup): served as octet-stream. */
const RISKY_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'text/ecmascript',
  'application/x-javascript',
  'text/css',
  'multipart/x-mixed-replace',
  'application/x-shockwave-flash',
  'text/vtt',
]);

/**
 * The Content-Type to serve stored bytes with: the stored media type unless a browser could run it.
 *
 * @example
 * servedContentType('image/png'); // 'image/png'
 * servedContentType('text/html'); // 'application/octet-stream'
 */
export function servedContentType(mediaType: string): string {
  return RISKY_TYPES.has(mediaType) || mediaType.endsWith('+xml')
    ? 'application/octet-stream'
    : mediaType;
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback and the RFC 5987 UTF-8 name.
 *
 * @example
 * contentDisposition('résumé.pdf'); // `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A byte range to serve, inclusive; or why none can be served. */
export type RangeResult =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Interprets a `Range` header for a body of `size` bytes. Only single `bytes=` ranges are served;
 * malformed or multi-range headers are ignored (the full body is sent, as RFC 9110 allows).
 *
 * @example
 * parseRange('bytes=0-99', 1000); // { kind: 'partial', start: 0, end: 99 }
 * parseRange('bytes=-10', 1000); // { kind: 'partial', start: 990, end: 999 }
 * parseRange('bytes=5000-', 1000); // { kind: 'unsatisfiable' }
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
