// Request body size limits of the BFF's own JSON routes (DESIGN.md section 6: 1 MiB; sign-in and
// saved views 16 KiB). A declared length over the limit is refused before a byte is read; a body
// sent without one is counted as it arrives and refused at the first chunk past the limit.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';
import { problemResponse } from '../lib/errors.ts';

/** A body without a declared length ran past an outer limit while it was read. */
class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

function tooLarge(maxBytes: number): Response {
  return problemResponse({
    status: 413,
    code: 'too_large',
    title: 'Content Too Large',
    detail: `Request bodies here are limited to ${maxBytes} bytes`,
  });
}

/** 413 / 400 for a declared length, or undefined when the body may be read. */
function declaredProblem(raw: Request, maxBytes: number): Response | 'unknown' | undefined {
  const declared = raw.headers.get('content-length');
  if (declared === null || raw.headers.has('transfer-encoding')) return 'unknown';
  const length = Number(declared);
  if (!Number.isSafeInteger(length) || length < 0) {
    return problemResponse({
      status: 400,
      code: 'bad_request',
      title: 'Bad Request',
      detail: 'Content-Length is not a valid length',
    });
  }
  // Node's parser never delivers more than Content-Length, so checking it is enough.
  return length > maxBytes ? tooLarge(maxBytes) : undefined;
}

/**
 * The outer bound of every route under it, reading nothing itself: a declared length over
 * `maxBytes` is a 413; a body without one is passed on through a counter that fails the read at
 * the first chunk past `maxBytes`, so a route added later cannot read more whatever it does.
 *
 * @example
 * app.use('/bff/*', bodyGuard(1024 * 1024));
 */
export function bodyGuard(maxBytes: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = declaredProblem(raw, maxBytes);
    if (declared instanceof Response) return declared;
    if (declared === undefined) return next();
    let size = 0;
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > maxBytes) controller.error(new BodyTooLargeError());
          else controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      body: counted,
      signal: raw.signal,
      duplex: 'half',
    } as RequestInit);
    return next();
  });
}

/**
 * At most `maxBytes` of request body for a route that reads JSON, else 413 problem+json. A body
 * without a declared length is read here (and handed on buffered), so the answer comes at the
 * first chunk past the limit; a body that breaks off while it is read (the client left, the
 * request deadline cut it) is a 400, never a 500.
 *
 * @example
 * router.post('/login', jsonBodyLimit(16 * 1024), handler);
 */
export function jsonBodyLimit(maxBytes: number) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = declaredProblem(raw, maxBytes);
    if (declared instanceof Response) return declared;
    if (declared === undefined) return next();
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = raw.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          void reader.cancel().catch(() => undefined);
          return tooLarge(maxBytes);
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof BodyTooLargeError) return tooLarge(maxBytes);
      return problemResponse({
        status: 400,
        code: 'bad_request',
        title: 'Bad Request',
        detail: 'The request body did not arrive whole',
      });
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const headers = new Headers(raw.headers);
    headers.delete('transfer-encoding');
    headers.set('content-length', String(size));
    c.req.raw = new Request(raw.url, { method: raw.method, headers, body, signal: raw.signal });
    return next();
  });
}
