// CSRF defence in depth: a custom header (forces a CORS preflight we never approve), same-origin
// Origin, and Fetch Metadata. Runs before the session is even looked up.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/create-app.ts';
import { problemResponse } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function forbidden(detail: string): Response {
  return problemResponse({ status: 403, code: 'csrf', title: 'Forbidden', detail });
}

/**
 * The reason a request is refused as cross-site, or undefined when it may proceed.
 *
 * @example
 * crossSiteReason(new Headers({ origin: 'https://evil.example' }), 'console.example'); // 'foreign Origin'
 */
export function crossSiteReason(headers: Headers, ownHost: string): string | undefined {
  if (headers.get('sec-fetch-site') === 'cross-site') return 'cross-site request';
  const origin = headers.get('origin');
  if (origin !== null) {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (!host || host !== ownHost) return 'foreign Origin';
  }
  return undefined;
}

/**
 * Every request through it needs `X-CSRF: 1` and must not come from another site.
 *
 * @example
 * app.use('/api/*', csrf({ unsafeOnly: false }));
 */
export function csrf(options: { unsafeOnly: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (options.unsafeOnly && SAFE_METHODS.has(c.req.method)) return next();
    const headers = c.req.raw.headers;
    const reason = crossSiteReason(headers, headers.get('host') ?? new URL(c.req.url).host);
    if (reason) return forbidden(`Refused: ${reason}`);
    if (headers.get('x-csrf') !== '1') return forbidden('The X-CSRF: 1 header is required');
    return next();
  });
}
