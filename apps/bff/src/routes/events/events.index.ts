// Live events (ADR 0023): `GET /bff/events`, a Server-Sent Event stream of who has which record
// open and which records changed through the console, and `PUT /bff/presence`, what a stream's tab
// has open. Presence is shared by every BFF instance on the store. This file wires the routes; the
// handlers, the hub and the presence table are beside it.
import { createMiddleware } from 'hono/factory';

import type { AppEnv } from '../../lib/app-env.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { LiveHub } from './events.hub.ts';
import type { PersonStreams } from './person-streams.ts';
import { createRouter } from '../../lib/create-app.ts';
import { problemResponse } from '../../lib/errors.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { crossSiteReason, csrf, expectedOrigins } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { eventsHandlers } from './events.handlers.ts';

/**
 * The stream is a GET an EventSource opens, which cannot send `X-CSRF`; it is still refused from
 * another site (Fetch Metadata, Origin), like every other `/bff` route.
 */
const sameSiteOnly = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url);
  const headers = c.req.raw.headers;
  const allowed = expectedOrigins(
    c.var.publicOrigins ?? null,
    headers.get('host') ?? url.host,
    url.protocol === 'https:',
  );
  const reason = crossSiteReason(headers, allowed);
  if (reason) {
    return problemResponse({
      status: 403,
      code: 'csrf',
      title: 'Forbidden',
      detail: `Refused: ${reason}`,
    });
  }
  return next();
});

/**
 * The router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createEventsRouter({ hub, api, config, sessions, personStreams }));
 */
export function createEventsRouter(deps: {
  hub: LiveHub;
  api: SessionApi;
  config: BffConfig;
  sessions: Sessions;
  personStreams: PersonStreams;
}) {
  const handlers = eventsHandlers(deps);
  const router = createRouter();
  router.get(
    '/events',
    sameSiteOnly,
    sessionMiddleware(deps.sessions),
    requireAuth,
    handlers.stream,
  );
  router.put(
    '/presence',
    csrf({ unsafeOnly: false }),
    jsonBodyLimit(4 * 1024),
    sessionMiddleware(deps.sessions),
    requireAuth,
    handlers.presence,
  );
  return router;
}
