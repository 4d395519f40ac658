// Sign-in, sign-out, session info and public config: the `/bff/*` session routes.
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';

import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { AppEnv } from '../../lib/create-app.ts';
import type { Logger } from '../../lib/logger.ts';
import type { FailureLimiter } from '../../lib/rate-limit.ts';
import type { Sessions } from '../../lib/sessions.ts';
import { createRouter } from '../../lib/create-app.ts';
import { problemResponse } from '../../lib/errors.ts';
import { sessionCookie } from '../../lib/sessions.ts';
import {
  CredentialsRejectedError,
  fetchMe,
  fetchToken,
  UpstreamUnavailableError,
} from '../../lib/upstream.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';

export const LoginInputSchema = z.object({
  clientId: z.string().trim().min(1, 'Client ID is required').max(256),
  clientSecret: z.string().min(1, 'Client secret is required').max(1024),
  region: z.enum(['default', 'eu']),
});

/**
 * The client's address for rate limiting: the socket peer (no proxy headers are trusted).
 *
 * @example
 * const key = clientAddress(c);
 */
export function clientAddress(c: Context<AppEnv>): string {
  return c.env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

function upstreamProblem(error: UpstreamUnavailableError): Response {
  if (error.kind === 'rate_limited') {
    return problemResponse({
      status: 429,
      code: 'rate_limited',
      title: 'Too Many Requests',
      detail: 'The workspace API is rate limiting sign-ins; try again shortly',
      headers: { 'retry-after': String(error.retryAfter ?? 1) },
    });
  }
  return problemResponse({
    status: error.kind === 'timeout' ? 504 : 502,
    code: error.kind === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable',
    title: error.kind === 'timeout' ? 'Gateway Timeout' : 'Bad Gateway',
    detail: 'The workspace API could not be reached; try again shortly',
  });
}

/**
 * The `/bff` router.
 *
 * @example
 * app.route('/bff', createAuthRouter({ config, sessions, limiter, clock, fetch, logger }));
 */
export function createAuthRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  limiter: FailureLimiter;
  clock: Clock;
  fetch: typeof fetch;
  logger: Logger;
}) {
  const { config, sessions, limiter, clock, logger } = deps;
  const router = createRouter();
  const loadSession = sessionMiddleware(sessions);

  router.get('/config', (c) =>
    c.json(
      {
        regions: config.regions.map((r) => ({ id: r.id, label: r.label })),
        maxUploadBytes: config.maxUploadBytes,
      },
      200,
      { 'cache-control': 'no-store' },
    ),
  );

  router.post(
    '/login',
    csrf({ unsafeOnly: true }),
    bodyLimit({
      maxSize: 16 * 1024,
      onError: () =>
        problemResponse({ status: 413, code: 'too_large', title: 'Content Too Large' }),
    }),
    loadSession,
    async (c) => {
      const address = clientAddress(c);
      const wait = limiter.retryAfter(address);
      if (wait > 0) {
        return problemResponse({
          status: 429,
          code: 'login_rate_limited',
          title: 'Too Many Requests',
          detail: 'Too many failed sign-ins from this address; try again later',
          headers: { 'retry-after': String(wait) },
        });
      }
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return problemResponse({
          status: 400,
          code: 'bad_request',
          title: 'Bad Request',
          detail: 'The body must be JSON: {clientId, clientSecret, region}',
        });
      }
      const parsed = LoginInputSchema.safeParse(body);
      if (!parsed.success) {
        return problemResponse({
          status: 400,
          code: 'validation',
          title: 'Bad Request',
          detail: 'The sign-in form has problems',
          errors: parsed.error.issues.map((issue) => ({
            field: issue.path.join('.') || '(body)',
            message: issue.message,
          })),
        });
      }
      const input = parsed.data;
      const region = config.regions.find((r) => r.id === input.region);
      if (!region) {
        return problemResponse({
          status: 400,
          code: 'validation',
          title: 'Bad Request',
          detail: 'The sign-in form has problems',
          errors: [{ field: 'region', message: `Region "${input.region}" is not configured` }],
        });
      }

      let accessToken: string;
      let tokenRefreshAt: number;
      let user;
      try {
        const issuedAt = clock.now();
        const token = await fetchToken(
          deps.fetch,
          region,
          input.clientId,
          input.clientSecret,
          config.upstreamTimeoutMs,
        );
        accessToken = token.access_token;
        tokenRefreshAt = issuedAt + token.expires_in * 1000 * config.tokenRefreshRatio;
        user = await fetchMe(deps.fetch, region, accessToken, config.upstreamTimeoutMs);
      } catch (error) {
        if (error instanceof CredentialsRejectedError) {
          limiter.recordFailure(address);
          logger.info('sign-in refused', { requestId: c.var.requestId, region: region.id });
          return problemResponse({
            status: 401,
            code: 'invalid_credentials',
            title: 'Unauthorized',
            detail: 'Client ID or secret is not valid',
          });
        }
        if (error instanceof UpstreamUnavailableError) {
          logger.warn('sign-in upstream failure', {
            requestId: c.var.requestId,
            region: region.id,
            reason: error.message,
          });
          return upstreamProblem(error);
        }
        throw error;
      }

      // Rotation: a sign-in always gets a new id, and the session it replaces is gone.
      if (c.var.session) await sessions.destroy(c.var.session.idHash);
      const { id, record } = await sessions.create({
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        region: region.id,
        user,
        accessToken,
        tokenRefreshAt,
      });
      logger.info('signed in', { requestId: c.var.requestId, region: region.id, userId: user.id });
      return c.json({ user: record.user, region: record.region }, 200, {
        'set-cookie': sessionCookie(id, Math.floor(config.absoluteTimeoutMs / 1000)),
        'cache-control': 'no-store',
      });
    },
  );

  router.post('/logout', csrf({ unsafeOnly: true }), loadSession, async (c) => {
    if (c.var.session) await sessions.destroy(c.var.session.idHash);
    return c.body(null, 204, {
      'set-cookie': sessionCookie('', 0),
      'cache-control': 'no-store',
    });
  });

  router.get('/session', loadSession, requireAuth, (c) => {
    const session = c.var.session;
    if (!session) throw new Error('requireAuth let a request without a session through');
    return c.json(
      {
        user: session.user,
        region: session.region,
        expiresAt: new Date(
          Math.min(session.expiresAt, session.lastSeenAt + config.idleTimeoutMs),
        ).toISOString(),
      },
      200,
      { 'cache-control': 'no-store' },
    );
  });

  return router;
}
