// CSRF defence in depth: a custom header (forces a CORS preflight we never approve), a same-origin
// Origin (scheme, host and port), and Fetch Metadata. Runs before the session is even looked up.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';
import { problemResponse } from '../lib/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function forbidden(detail: string): Response {
  return problemResponse({ status: 403, code: 'csrf', title: 'Forbidden', detail });
}

/** Hosts a browser treats as a secure context over plain http (so the Secure cookie works). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * The origins the console is served from. Configured (`BFF_PUBLIC_ORIGIN`): exactly those.
 * Otherwise derived from the Host header: `https://<host>` (behind a TLS-terminating proxy the BFF
 * itself sees plain http, so the scheme cannot come from the socket), plus `http://<host>` for a
 * loopback host reached without TLS (local development: browsers give the Secure cookie to
 * http://localhost and nothing else over plain http).
 *
 * @example
 * expectedOrigins(null, 'console.example', false); // ['https://console.example']
 * expectedOrigins(null, 'localhost:3000', false); // ['https://localhost:3000', 'http://localhost:3000']
 * expectedOrigins(['https://console.example'], 'internal:3000', false); // ['https://console.example']
 */
export function expectedOrigins(
  configured: readonly string[] | null,
  host: string,
  tls: boolean,
): string[] {
  if (configured) return [...configured];
  let secure: URL;
  try {
    secure = new URL(`https://${host}`);
  } catch {
    return [];
  }
  // A Host with a path, credentials or the like is not a host: nothing matches it.
  if (secure.host !== host.toLowerCase() && `${secure.host}:443` !== host.toLowerCase()) return [];
  const origins = [secure.origin];
  if (!tls && isLoopback(secure.hostname)) origins.push(new URL(`http://${host}`).origin);
  return origins;
}

/**
 * The reason a request is refused as cross-site, or undefined when it may proceed. The Origin,
 * when sent, must equal one of `allowed` in scheme, host and port: `http://console.example` is
 * foreign to an `https://console.example` deployment.
 *
 * @example
 * crossSiteReason(new Headers({ origin: 'https://evil.example' }), ['https://console.example']); // 'foreign Origin'
 * crossSiteReason(new Headers({ origin: 'http://console.example' }), ['https://console.example']); // 'foreign Origin'
 */
export function crossSiteReason(headers: Headers, allowed: readonly string[]): string | undefined {
  if (headers.get('sec-fetch-site') === 'cross-site') return 'cross-site request';
  const origin = headers.get('origin');
  if (origin !== null) {
    let normalized: string | undefined;
    try {
      const url = new URL(origin);
      // `null` and opaque origins parse to 'null': never ours.
      normalized = url.origin === 'null' ? undefined : url.origin;
    } catch {
      normalized = undefined;
    }
    if (!normalized || !allowed.includes(normalized)) return 'foreign Origin';
  }
  return undefined;
}

/**
 * Every request through it needs `X-CSRF: 1` and must not come from another site. The allowed
 * origins come from `c.var.publicOrigins` (set by the app from `BFF_PUBLIC_ORIGIN`).
 *
 * @example
 * app.use('/api/*', csrf({ unsafeOnly: false }));
 */
export function csrf(options: { unsafeOnly: boolean }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (options.unsafeOnly && SAFE_METHODS.has(c.req.method)) return next();
    const headers = c.req.raw.headers;
    const url = new URL(c.req.url);
    const allowed = expectedOrigins(
      c.var.publicOrigins ?? null,
      headers.get('host') ?? url.host,
      url.protocol === 'https:',
    );
    const reason = crossSiteReason(headers, allowed);
    if (reason) return forbidden(`Refused: ${reason}`);
    if (headers.get('x-csrf') !== '1') return forbidden('The X-CSRF: 1 header is required');
    return next();
  });
}
