// Attaches the signed-in session (if any) to the context; never rejects by itself.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../lib/app-env.ts';
import type { Sessions } from '../lib/sessions.ts';
import { readSessionCookie } from '../lib/sessions.ts';

/**
 * Load the session named by the `__Host-wsc_session` cookie into `c.var.session`.
 *
 * @example
 * app.use('/api/*', sessionMiddleware(sessions));
 */
export function sessionMiddleware(sessions: Sessions) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = readSessionCookie(c.req.header('cookie'));
    c.set('sessionId', id);
    c.set('session', id ? await sessions.load(id) : undefined);
    await next();
  });
}
