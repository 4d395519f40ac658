// The handlers of `GET /bff/events` (the stream) and `PUT /bff/presence`; the hub beside them holds
// the streams. Refusals are thrown problems the app's onError renders.
import type { Context } from 'hono';

import { PresenceInputSchema } from '@wsc/api-client/bff-events';

import type { AppEnv } from '../../lib/app-env.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { LiveHub } from './events.hub.ts';
import type { PersonStreams } from './person-streams.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { unauthenticated } from '../../middlewares/require-auth.ts';

/**
 * The handlers (the router in events.index.ts mounts them).
 *
 * @example
 * router.get('/events', eventsHandlers({ hub, api, config, sessions, personStreams }).stream);
 */
export function eventsHandlers(deps: {
  hub: LiveHub;
  api: SessionApi;
  config: BffConfig;
  sessions: Sessions;
  /** Streams per person on every instance (ADR 0027). */
  personStreams: PersonStreams;
}) {
  const { hub, api, config, sessions } = deps;

  const sessionOf = async (c: Context<AppEnv>) => {
    const session = c.var.session;
    if (!session) throw unauthenticated(false);
    if (!config.regions.some((r) => r.id === session.region)) {
      await sessions.destroy(session.idHash);
      throw unauthenticated(true);
    }
    return session;
  };

  return {
    stream: async (c: Context<AppEnv>) => {
      // Before anything is awaited: the request deadline's timer reads it when it fires.
      c.set('streaming', true);
      const session = await sessionOf(c);
      // The session's and the instance's caps first (in memory), then the person's (a count).
      const admission = hub.admit(session);
      let personal: () => void;
      try {
        personal = await deps.personStreams.admit(session, hub.streamsOf(session.ownerId));
      } catch (error) {
        admission.release();
        throw error;
      }
      let body: ReadableStream<Uint8Array>;
      try {
        try {
          await hub.visibleTo(session);
        } catch (error) {
          admission.release();
          throw await api.failure(error, session);
        }
        body = await hub.open(admission);
      } finally {
        // Opened: the stream's presence row counts it from now on (or it failed to open).
        personal();
      }
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          // Neither a cache nor a proxy may hold the stream back or rewrite it.
          'cache-control': 'no-store, no-transform',
          'x-accel-buffering': 'no',
        },
      });
    },

    presence: async (c: Context<AppEnv>) => {
      const session = await sessionOf(c);
      const parsed = PresenceInputSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) {
        throw new ProblemException({
          status: 400,
          code: 'validation',
          title: 'Bad Request',
          detail: 'The presence has problems',
          errors: fieldProblems(parsed.error.issues),
        });
      }
      try {
        await hub.setPresence(session, parsed.data);
      } catch (error) {
        if (error instanceof ProblemException) throw error;
        throw await api.failure(error, session);
      }
      return c.body(null, 204, { 'cache-control': 'no-store' });
    },
  };
}
