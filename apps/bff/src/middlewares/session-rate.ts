// The request rate of one session on the BFF's own routes (`/bff/*`): a token bucket per session,
// in memory per instance (ADR 0027). Past it: 429 problem+json with Retry-After, as the proxy
// passes the API's on. Requests without a live session are not counted here (the routes answer
// them with 401, and sign-in failures have their own limit); signing in and out always go through.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';
import type { Clock } from '../lib/clock.ts';
import type { Sessions } from '../lib/sessions.ts';
import type { Rate } from '../lib/token-bucket.ts';
import { tooManyRequests } from '../lib/errors.ts';
import { readSessionCookie } from '../lib/sessions.ts';
import { tokenBuckets } from '../lib/token-bucket.ts';

/** Buckets kept at most: far above the sessions one instance serves. */
const MAX_BUCKETS = 50_000;

/** Never limited: a session over its rate can still sign out, or sign in again. */
const EXEMPT = new Set(['/bff/login', '/bff/logout']);

/**
 * The middleware (mounted on `/bff/*`).
 *
 * @example
 * app.use('/bff/*', sessionRate({ sessions, clock, rate: { ratePerSecond: 20, burst: 120 } }));
 */
export function sessionRate(deps: { sessions: Sessions; clock: Clock; rate: Rate }) {
  const buckets = tokenBuckets({ clock: deps.clock, rate: deps.rate, maxKeys: MAX_BUCKETS });
  return createMiddleware<AppEnv>(async (c, next) => {
    if (deps.rate.ratePerSecond <= 0 || EXEMPT.has(c.req.path)) return next();
    const id = readSessionCookie(c.req.header('cookie'));
    // The routes load it again from the sessions' cache (no second store read).
    const session = id ? await deps.sessions.load(id) : undefined;
    if (!session) return next();
    const wait = buckets.take(session.idHash);
    if (wait > 0) {
      throw tooManyRequests(
        'rate_limited',
        `At most ${deps.rate.ratePerSecond} requests per second per session (bursts of ${deps.rate.burst})`,
        wait,
      );
    }
    return next();
  });
}
