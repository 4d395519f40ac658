// Serves the built console (apps/web/dist): hashed assets cached for a year, everything else
// revalidated, and index.html for client-side routes (SPA fallback); each from its precompressed
// copy (brotli or gzip, written by the build) when the browser accepts one.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

import type { Encoding } from '../../lib/compression.ts';
import { ENCODINGS, preferredEncoding } from '../../lib/compression.ts';
import { createRouter } from '../../lib/create-app.ts';
import { problemResponse } from '../../lib/errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT =
  'The Workspace Console is not built, so there is nothing to show here yet.\n' +
  'Build it with `pnpm --filter web build` (or point PUBLIC_DIR at a built console); no restart needed.\n' +
  'The BFF itself is running: /bff/* and /api/v1/* work.\n';

/** The file's size, or undefined when there is no such file. */
async function fileSize(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** Where the build puts a file's precompressed copy in each encoding. */
const COPY_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * A file's response, from its precompressed copy (`x.js.br`, `x.js.gz`, written by the build)
 * when the browser accepts one, with `Vary: Accept-Encoding` whenever such copies exist.
 */
async function fileResponse(
  file: string,
  method: string,
  cacheControl: string,
  acceptEncoding: string | undefined,
): Promise<Response | undefined> {
  const size = await fileSize(file);
  if (size === undefined) return undefined;
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const copies = new Map<Encoding, number>();
  for (const encoding of ENCODINGS) {
    const copySize = await fileSize(file + COPY_SUFFIX[encoding]);
    if (copySize !== undefined) copies.set(encoding, copySize);
  }
  const encoding = preferredEncoding(acceptEncoding, [...copies.keys()]);
  const sent = encoding === undefined ? file : file + COPY_SUFFIX[encoding];
  const headers: Record<string, string> = {
    'content-type': type,
    'content-length': String(encoding === undefined ? size : copies.get(encoding)),
    'cache-control': cacheControl,
    ...(copies.size > 0 ? { vary: 'Accept-Encoding' } : {}),
    ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
  };
  if (method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(createReadStream(sent)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}

/**
 * The catch-all static router; mount it last.
 *
 * @example
 * app.route('/', createStaticRouter(config.publicDir));
 */
export function createStaticRouter(publicDir: string | null) {
  const router = createRouter();
  const root = publicDir === null ? null : path.resolve(publicDir);
  const index = root === null ? null : path.join(root, 'index.html');

  router.on(['GET', 'HEAD'], '*', async (c) => {
    const pathname = c.req.path;
    if (pathname.startsWith('/api/') || pathname.startsWith('/bff/')) return c.notFound();
    const wantsHtml = (c.req.header('accept') ?? '').includes('text/html');
    if (root === null || index === null) {
      if (pathname === '/' || wantsHtml) {
        return c.text(NOT_BUILT, 503, { 'cache-control': 'no-store', 'retry-after': '30' });
      }
      return c.notFound();
    }
    if (pathname !== '/') {
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return problemResponse({ status: 400, code: 'bad_request', title: 'Bad Request' });
      }
      const file = path.resolve(root, `.${decoded}`);
      if (!file.startsWith(root + path.sep)) return c.notFound();
      const hashed = decoded.startsWith('/assets/');
      const found = await fileResponse(
        file,
        c.req.method,
        hashed ? IMMUTABLE : 'no-cache',
        c.req.header('accept-encoding'),
      );
      if (found) return found;
      // A missing asset is a 404, not index.html: a stale tab must not execute HTML as JS.
      if (hashed || !wantsHtml) return c.notFound();
    }
    const page = await fileResponse(
      index,
      c.req.method,
      'no-cache',
      c.req.header('accept-encoding'),
    );
    if (page) return page;
    return c.text(NOT_BUILT, 503, { 'cache-control': 'no-store', 'retry-after': '30' });
  });

  return router;
}
