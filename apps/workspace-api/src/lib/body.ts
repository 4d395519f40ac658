// Small request bodies (JSON, form, text): read with a byte budget. A declared Content-Length over
// the budget is refused before a byte is read; a body of unknown length (chunked) is counted as
// it streams and reading stops at the first chunk past the budget. Nothing is buffered beyond the
// budget, so a 250 MB JSON body costs the server at most the budget and one chunk.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from './types.ts';
import { errorResponse, ProblemException } from './errors.ts';

/** JSON and text bodies of every route but uploads and the token endpoint: 1 MiB. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;

/** `POST /oauth/token`: 16 KiB, far above any real credential, checked before any secret work. */
export const TOKEN_BODY_MAX_BYTES = 16 * 1024;

/**
 * The 413 for a body over its budget. `Connection: close`: the client may still be sending, and
 * the rest will not be read.
 *
 * @example
 * throw bodyTooLarge(JSON_BODY_MAX_BYTES);
 */
export function bodyTooLarge(maxBytes: number): ProblemException {
  return new ProblemException(413, {
    detail: `Request bodies here are limited to ${maxBytes} bytes`,
    headers: { Connection: 'close' },
  });
}

/**
 * Whether the request declares a body longer than `maxBytes` (a malformed length counts as too
 * long: it cannot be trusted to be small).
 *
 * @example
 * if (declaresMoreThan(c.req.raw, JSON_BODY_MAX_BYTES)) throw bodyTooLarge(JSON_BODY_MAX_BYTES);
 */
export function declaresMoreThan(request: Request, maxBytes: number): boolean {
  const declared = request.headers.get('content-length');
  if (declared === null) return false;
  return !/^\d+$/.test(declared.trim()) || Number(declared) > maxBytes;
}

/**
 * Reads the body as UTF-8 text, at most `maxBytes` of it (413 `bodyTooLarge` beyond, from the
 * declared length before reading, else at the first chunk that crosses the budget, which stops
 * the read). Invalid UTF-8 becomes U+FFFD, as `Request.text()` does.
 *
 * @example
 * const text = await readBodyText(c, JSON_BODY_MAX_BYTES);
 */
export async function readBodyText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  const request = c.req.raw;
  if (declaresMoreThan(request, maxBytes)) throw bodyTooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop pulling: the rest of the body is never read (node-server drains or closes it).
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Middleware for routes with a JSON or text body: 413 from the declared Content-Length before the
 * handler runs (readBodyText also counts the bytes of a body without one). The reply is in the
 * app's profile (problem+json, or the hosted `{message}`).
 *
 * @example
 * router.post('/users', jsonBodyLimit, createUser);
 */
export const jsonBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
  if (declaresMoreThan(c.req.raw, JSON_BODY_MAX_BYTES)) {
    return errorResponse(c.var.deps.config.profile, 413, {
      detail: `Request bodies here are limited to ${JSON_BODY_MAX_BYTES} bytes`,
      headers: { Connection: 'close' },
    });
  }
  await next();
});
