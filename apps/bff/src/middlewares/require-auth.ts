// Rejects requests without a live session with 401 problem+json and clears a dead cookie.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';
import { ProblemException } from '../lib/errors.ts';
import { sessionCookie } from '../lib/sessions.ts';

/**
 * 401 unless `sessionMiddleware` found a live session.
 *
 * @example
 * app.use('/api/*', sessionMiddleware(sessions), requireAuth);
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.session) return next();
  throw unauthenticated(c.var.sessionId !== undefined);
});

/**
 * The 401 problem for a missing or dead session; `clearCookie` also clears the session cookie.
 *
 * @example
 * throw unauthenticated(true);
 */
export function unauthenticated(clearCookie: boolean): ProblemException {
  return new ProblemException({
    status: 401,
    code: 'unauthenticated',
    title: 'Unauthorized',
    detail: 'Sign in to continue',
    ...(clearCookie ? { headers: { 'set-cookie': sessionCookie('', 0) } } : {}),
  });
}
