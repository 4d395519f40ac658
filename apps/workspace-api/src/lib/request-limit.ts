// The per-credential request limit: the middleware over the `requests` token buckets (rate-limit.ts).
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from './types.ts';
import { tooManyRequests } from './errors.ts';

/**
 * Per-credential limit; mount after requireAuth. 429 when empty. Adds the RateLimit headers in the
 * extended profile only (the hosted service sends none; its 429s keep Retry-After).
 *
 * @example
 * v1.use(requireAuth, rateLimitPerCredential);
 */
export const rateLimitPerCredential = createMiddleware<AppEnv>(async (c, next) => {
  const limiter = c.var.deps.limiters.requests;
  if (!limiter.enabled) return next();
  const result = limiter.take(c.var.principal.clientId);
  const headers = limiter.headers('per-credential', result);
  if (!result.allowed) throw tooManyRequests(result.retryAfter, headers);
  await next();
  if (c.var.deps.config.profile === 'hosted') return;
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
