// Sign-in, sign-out, session info and public config: the `/bff/*` session routes.

import type {
  BffConfig as BffConfigReply,
  FieldProblem,
  LoginResult,
  Session,
} from '@wsc/api-client';
import { capabilitiesFor } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SignInRate } from '../../lib/person-sessions.ts';
import type { ProfileDetector } from '../../lib/profiles.ts';
import type { FailureLimiter } from '../../lib/rate-limit.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { TokenStyles } from '../../lib/upstream-auth.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import type { RecordCopies } from '../proxy/record-copies.ts';
import type { OwnViews } from '../saved-views/saved-views.own.ts';
import type { FirstReads } from './first-reads.ts';
import type { SignedIn, SignInDeps } from './sign-in-upstream.ts';
import { requestClient } from '../../lib/client-address.ts';
import { createRouter } from '../../lib/create-app.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { sessionCookie } from '../../lib/sessions.ts';
import { CredentialsRejectedError, UpstreamUnavailableError } from '../../lib/upstream-auth.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { firstPageOf } from './first-page-of.ts';
import { keepFirstPage, optionalRead, readFirst } from './first-reads.ts';
import { LoginRequestSchema } from './login-request.ts';
import { signInUpstream } from './sign-in-upstream.ts';

/** Sign-in bodies: an id, a secret, a region and an email fit many times over (DESIGN.md §6). */
export const LOGIN_BODY_BYTES = 16 * 1024;

function upstreamProblem(error: UpstreamUnavailableError): ProblemException {
  if (error.kind === 'rate_limited') {
    return new ProblemException({
      status: 429,
      code: 'rate_limited',
      title: 'Too Many Requests',
      detail: 'The workspace API is rate limiting sign-ins; try again shortly',
      headers: { 'retry-after': String(error.retryAfter ?? 1) },
    });
  }
  return new ProblemException({
    status: error.kind === 'timeout' ? 504 : 502,
    code: error.kind === 'timeout' ? 'upstream_timeout' : 'upstream_unavailable',
    title: error.kind === 'timeout' ? 'Gateway Timeout' : 'Bad Gateway',
    detail: 'The workspace API could not be reached; try again shortly',
  });
}

/**
 * What the console is told of a session (`GET /bff/session`, and the sign-in's own reply): it ends
 * at the absolute limit or after the idle timeout from the last request, whichever comes first.
 */
function sessionReply(record: SessionRecord, config: BffConfig): Session {
  return {
    user: record.user,
    region: record.region,
    expiresAt: new Date(
      Math.min(record.expiresAt, record.lastSeenAt + config.idleTimeoutMs),
    ).toISOString(),
    capabilities: capabilitiesFor(record.profile),
  };
}

/**
 * The `/bff` router.
 *
 * @example
 * app.route('/bff', createAuthRouter({ config, sessions, limiter, clock, fetch, logger, profiles, tokenStyles, signIns, workspace, copies, ownViews }));
 */
export function createAuthRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  limiter: FailureLimiter;
  clock: Clock;
  fetch: typeof fetch;
  logger: Logger;
  profiles: ProfileDetector;
  tokenStyles: TokenStyles;
  warm?: SignInDeps['warm'];
  /** Sign-ins per credential (ADR 0027): past it, 429 before the upstream is asked. */
  signIns: SignInRate;
  /** A hosted region's definitions, answered with the sign-in. */
  workspace: WorkspaceStore;
  /** The proxy's per-session record copies: the first page read at sign-in goes there too. */
  copies?: RecordCopies;
  /** The person's own saved views, answered with the sign-in. */
  ownViews?: OwnViews;
}) {
  const { config, sessions, limiter, logger, profiles, ownViews } = deps;
  const router = createRouter();
  const loadSession = sessionMiddleware(sessions);

  router.get('/config', (c) => {
    const reply: BffConfigReply = {
      regions: config.regions.map((r) => {
        const profile = profiles.known(r);
        // The form offers the optional email only where nobody else can name the person.
        const askEmail = profile !== 'extended' && config.identities === null;
        return {
          id: r.id,
          label: r.label,
          ...(profile ? { profile } : {}),
          ...(askEmail ? { askEmail } : {}),
        };
      }),
      maxUploadBytes: config.maxUploadBytes,
    };
    return c.json(reply, 200, { 'cache-control': 'no-store' });
  });

  router.post(
    '/login',
    csrf({ unsafeOnly: true }),
    jsonBodyLimit(LOGIN_BODY_BYTES),
    loadSession,
    async (c) => {
      const address = requestClient(c, config.trustProxy);
      const wait = await limiter.retryAfter(address);
      if (wait > 0) {
        throw new ProblemException({
          status: 429,
          code: 'login_rate_limited',
          title: 'Too Many Requests',
          detail: 'Too many failed sign-ins from this address; try again later',
          headers: { 'retry-after': String(wait) },
        });
      }
      const body = await readJsonBody(
        c,
        'The body must be JSON: {clientId, clientSecret, region, email?}',
      );
      const parsed = LoginRequestSchema.safeParse(body);
      const rawRegion = (body as { region?: unknown } | null)?.region;
      const region = config.regions.find((r) => r.id === rawRegion);
      const problems: FieldProblem[] = parsed.success ? [] : fieldProblems(parsed.error.issues);
      if (!region && !problems.some((p) => p.field === 'region')) {
        problems.push({
          field: 'region',
          message:
            typeof rawRegion === 'string'
              ? `Region "${rawRegion.slice(0, 32)}" is not configured`
              : 'Choose a region',
        });
      }
      if (!parsed.success || !region || problems.length > 0) {
        throw new ProblemException({
          status: 400,
          code: 'validation',
          title: 'Bad Request',
          detail: 'The sign-in form has problems',
          errors: problems,
        });
      }
      const input = parsed.data;
      deps.signIns.check(region.id, input.clientId);

      let signedIn: SignedIn & { alongside?: FirstReads };
      try {
        signedIn = await signInUpstream(
          deps,
          {
            region,
            clientId: input.clientId,
            clientSecret: input.clientSecret,
            email: input.email,
            requestId: c.var.requestId,
          },
          (token, profile, signal) =>
            readFirst(deps, {
              region,
              profile,
              token,
              firstPage: firstPageOf(input.next),
              requestId: c.var.requestId,
              signal,
            }),
        );
      } catch (error) {
        if (error instanceof CredentialsRejectedError) {
          await limiter.recordFailure(address);
          logger.info('sign-in refused', {
            requestId: c.var.requestId,
            region: region.id,
            client: address,
          });
          throw new ProblemException({
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
          throw upstreamProblem(error);
        }
        throw error;
      }
      const { accessToken, tokenRefreshAt, profile, user, ownerId } = signedIn;

      // Rotation: a sign-in always gets a new id, and the session it replaces is gone.
      if (c.var.session) await sessions.destroy(c.var.session.idHash);
      const [{ id, record }, views] = await Promise.all([
        sessions.create({
          clientId: input.clientId,
          clientSecret: input.clientSecret,
          region: region.id,
          profile,
          ownerId,
          user,
          accessToken,
          tokenRefreshAt,
        }),
        // The person's own views, read beside the session; a store that cannot answer leaves
        // them to the console, as the sign-in's other reads.
        ownViews &&
          optionalRead(deps, 'saved views', c.var.requestId, () =>
            ownViews({ userId: ownerId, region: region.id }),
          ),
      ]);
      logger.info('signed in', {
        requestId: c.var.requestId,
        region: region.id,
        profile,
        identity: user.identity,
        owner: ownerId,
      });
      const reads = signedIn.alongside ?? {};
      if (deps.copies) {
        const { maxListBytes } = config.recordCopies;
        keepFirstPage(deps.copies, record.idHash, reads, maxListBytes);
      }
      const reply: LoginResult = {
        ...sessionReply(record, config),
        ...reads,
        ...(views ? { views } : {}),
      };
      return c.json(reply, 200, {
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
    return c.json(sessionReply(session, config), 200, { 'cache-control': 'no-store' });
  });

  return router;
}
