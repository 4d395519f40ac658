// Content-Encoding for what the BFF sends: the console's precompressed assets, and JSON (its own
// and proxied) compressed as it streams. Attachment content is never compressed (it passes byte
// for byte, Range and all); neither is anything the browser did not ask for.
import zlib from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { parseAccept } from 'hono/utils/accept';

export type Encoding = 'br' | 'gzip';

/** Our order of preference when the browser accepts both equally (brotli is smaller). */
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/**
 * The encoding to send, from an `Accept-Encoding` header: the highest q among `available`, ties
 * going to the earlier one in `available`; `*` covers encodings not named; q=0 refuses. Undefined:
 * send it as it is (identity).
 *
 * @example
 * preferredEncoding('gzip, deflate, br, zstd', ['br', 'gzip']); // 'br'
 * preferredEncoding('br;q=0, gzip;q=0.5', ['br', 'gzip']); // 'gzip'
 */
export function preferredEncoding(
  header: string | undefined,
  available: readonly Encoding[] = ENCODINGS,
): Encoding | undefined {
  if (!header) return undefined;
  const accepts = parseAccept(header);
  const wildcard = accepts.find((accept) => accept.type === '*')?.q ?? 0;
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of available) {
    const q = accepts.find((accept) => accept.type.toLowerCase() === encoding)?.q ?? wildcard;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}

/** JSON worth compressing: the API's and the BFF's JSON and problem documents. */
const JSON_TYPE = /^application\/(?:problem\+)?json\s*(?:;|$)/i;

/**
 * Whether a proxied response may be compressed: JSON with a body, not a download (no
 * Content-Disposition), not a part of a range, and not already encoded.
 *
 * @example
 * compressibleResponse(200, { 'content-type': 'application/json' }); // true
 * compressibleResponse(200, { 'content-type': 'application/json', 'content-disposition': 'attachment' }); // false
 */
export function compressibleResponse(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
): boolean {
  const type = headers['content-type'];
  return (
    status !== 204 &&
    status !== 206 &&
    status !== 304 &&
    typeof type === 'string' &&
    JSON_TYPE.test(type) &&
    headers['content-disposition'] === undefined &&
    headers['content-encoding'] === undefined
  );
}

/**
 * `source` compressed as it streams: brotli at quality 4 (about gzip's CPU for a smaller result;
 * 11 is for build time only) or gzip at level 6. The compressor is flushed whenever the source
 * pauses (nothing more arrived in this turn of the event loop), so what the upstream has sent
 * reaches the browser without waiting for the encoder's window to fill: an answer is never held
 * back, only compressed.
 *
 * @example
 * compressStream(upstream, 'br').pipe(response);
 */
export function compressStream(source: Readable, encoding: Encoding): Transform {
  const compress =
    encoding === 'br'
      ? zlib.createBrotliCompress({
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          },
        })
      : zlib.createGzip({ level: 6 });
  const flushKind =
    encoding === 'br' ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
  let scheduled = false;
  source.pipe(compress);
  // After pipe(): the source is already flowing, so this listener changes nothing about it.
  source.on('data', () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (!compress.writableEnded && !compress.destroyed) compress.flush(flushKind);
    });
  });
  return compress;
}

/**
 * Adds `Accept-Encoding` to a Vary value (the answer depends on it), keeping what is there.
 *
 * @example
 * withVary(undefined); // 'Accept-Encoding'
 */
export function withVary(current: string | undefined): string {
  if (!current) return 'Accept-Encoding';
  if (current === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(current)) return current;
  return `${current}, Accept-Encoding`;
}
