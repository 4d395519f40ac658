// The Hono app skeleton shared by the BFF and its tests: request ids, one access-log line per
// request, security headers, problem+json for 404 and for every error.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';

import type { AppEnv } from './app-env.ts';
import type { Logger } from './logger.ts';
import { requestClient } from './client-address.ts';
import { problemResponse } from './errors.ts';

/** Incoming request ids are echoed only when they are short and made of harmless characters. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Applied to every response; the CSP only matters for HTML but costs nothing elsewhere. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * A router with the app's env typing.
 *
 * @example
 * const auth = createRouter().post('/login', handler);
 */
export function createRouter() {
  return new Hono<AppEnv>();
}

/**
 * The base app: request id, access log, security headers, 404 and error mapping.
 *
 * @example
 * const app = createBaseApp(logger);
 * app.route('/bff', authRouter);
 */
export function createBaseApp(logger: Logger, trustProxy = 0) {
  const app = createRouter();

  app.use(async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    await next();
    // A response already written to the socket carried these headers itself.
    if (c.var.sentStatus === undefined) {
      const headers = c.res.headers;
      headers.set('x-request-id', requestId);
      for (const name in SECURITY_HEADERS) headers.set(name, SECURITY_HEADERS[name] as string);
    }
    const url = c.req.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    // Every request at debug (LOG_LEVEL=debug); failures are logged where they happen.
    logger.debug('request', {
      requestId,
      method: c.req.method,
      // Path and query (filters are useful when triaging); never headers, cookies or bodies.
      path: pathStart === -1 ? '/' : url.slice(pathStart),
      status: c.var.sentStatus ?? c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      client: requestClient(c, trustProxy),
      ...(c.var.upstreamStatus === undefined ? {} : { upstreamStatus: c.var.upstreamStatus }),
      ...(c.var.upstreamAttempts === undefined ? {} : { upstreamAttempts: c.var.upstreamAttempts }),
    });
  });

  app.notFound((c) =>
    problemResponse({
      status: 404,
      code: 'not_found',
      title: 'Not Found',
      detail: `No route for ${c.req.method} ${c.req.path}`,
    }),
  );

  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse();
    // Name and message only: a stack or cause could carry request data.
    logger.error('unhandled error', {
      requestId: c.var.requestId,
      error: error.name,
      message: error.message,
    });
    return problemResponse({
      status: 500,
      code: 'internal',
      title: 'Internal Server Error',
      detail: `Something went wrong; quote request id ${c.var.requestId}`,
    });
  });

  return app;
}
