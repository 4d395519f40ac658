// The BFF's own calls to the workspace API on behalf of a session (definitions, sampling): the
// typed api-client with the session's token from the token manager, one refresh and replay after
// an upstream 401, and the failures a route turns into problem documents.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

import type { ApiClient, Profile } from '@wsc/api-client';
import { createApiClient, isApiError } from '@wsc/api-client';

import type { SessionRecord } from '../db/store.ts';
import type { BffConfig } from './config.ts';
import type { Region } from './region.ts';
import type { Sessions } from './sessions.ts';
import type { TokenManager } from './token-manager.ts';
import { unauthenticated } from '../middlewares/require-auth.ts';
import { ProblemException } from './errors.ts';
import { CredentialsRejectedError, UpstreamUnavailableError } from './upstream-auth.ts';

export type SessionApi = {
  /**
   * Run `call` with a client of the session's region and profile. Throws what the client throws
   * (ApiError) and, from the token manager, CredentialsRejectedError / UpstreamUnavailableError.
   */
  run<T>(
    session: SessionRecord,
    region: Region,
    profile: Profile,
    call: (client: ApiClient, signal: AbortSignal) => Promise<T>,
    clientSignal?: AbortSignal,
  ): Promise<T>;
  /**
   * The problem for a failure no route-specific rule covers, for the route to throw: a session
   * whose credentials were revoked is ended (401); an unreachable API or token endpoint is
   * 502/504; a rate limit 429; an upstream status is passed on as a problem document; anything
   * else is rethrown.
   *
   * @example
   * try { ... } catch (error) { throw await api.failure(error, session); }
   */
  failure(error: unknown, session: SessionRecord): Promise<ProblemException>;
};

/**
 * The session API factory.
 *
 * @example
 * const api = createSessionApi({ config, sessions, tokens, fetch, random: Math.random });
 * const list = await api.run(session, region, 'extended', (client) => client.listDefinitions());
 */
export function createSessionApi(deps: {
  config: BffConfig;
  sessions: Sessions;
  tokens: TokenManager;
  fetch: typeof fetch;
  random: () => number;
}): SessionApi {
  const { config, tokens } = deps;
  return {
    async run(session, region, profile, call, clientSignal) {
      // Fetched here rather than in the client's getToken, whose errors would be re-labelled as
      // network failures by the client's retry loop.
      let token = await tokens.get(session);
      const client = createApiClient({
        baseUrl: region.apiUrl,
        profile,
        fetch: deps.fetch,
        getToken: async () => token,
        retry: {
          retries: config.retry.maxRetries,
          baseMs: config.retry.baseDelayMs,
          capMs: config.retry.maxDelayMs,
          maxRetryAfterMs: config.retry.maxRetryAfterMs,
          random: deps.random,
        },
        // The client replays once after this resolves true.
        onUnauthorized: async () => {
          tokens.invalidate(session.idHash, token);
          token = await tokens.get(session);
          return true;
        },
      });
      // One budget for the whole call (retries and a replay included); a browser that leaves
      // stops it too.
      const timeout = AbortSignal.timeout(config.upstreamTimeoutMs);
      return call(client, clientSignal ? AbortSignal.any([timeout, clientSignal]) : timeout);
    },

    async failure(error, session) {
      if (error instanceof CredentialsRejectedError) {
        await deps.sessions.destroy(session.idHash);
        return unauthenticated(true);
      }
      if (error instanceof UpstreamUnavailableError) {
        if (error.kind === 'rate_limited') {
          return new ProblemException({
            status: 429,
            code: 'rate_limited',
            title: 'Too Many Requests',
            detail: 'The workspace API is rate limiting; try again shortly',
            headers: { 'retry-after': String(error.retryAfter ?? 1) },
          });
        }
        return new ProblemException({
          status: error.kind === 'timeout' ? 504 : 502,
          code: 'upstream_unavailable',
          title: error.kind === 'timeout' ? 'Gateway Timeout' : 'Bad Gateway',
          detail: 'The workspace API could not issue a token; try again shortly',
        });
      }
      if (
        error instanceof Error &&
        (error.name === 'TimeoutError' || error.name === 'AbortError')
      ) {
        return new ProblemException({
          status: 504,
          code: 'upstream_timeout',
          title: 'Gateway Timeout',
          detail: `The workspace API did not answer within ${deps.config.upstreamTimeoutMs} ms`,
        });
      }
      if (isApiError(error)) {
        if (error.status === 0) {
          return new ProblemException({
            status: 502,
            code: 'upstream_unavailable',
            title: 'Bad Gateway',
            detail: 'The workspace API could not be reached',
          });
        }
        if (error.code === 'invalid_response' || error.status < 400) {
          return new ProblemException({
            status: 502,
            code: 'upstream_bad_reply',
            title: 'Bad Gateway',
            detail: error.detail ?? 'The workspace API answered in an unexpected shape',
          });
        }
        if (error.status === 429) {
          return new ProblemException({
            status: 429,
            code: 'rate_limited',
            title: 'Too Many Requests',
            detail: error.detail ?? 'The workspace API is rate limiting; try again shortly',
            headers:
              error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) },
          });
        }
        // Our own problem document with the upstream's status (403, 404, 5xx) and its message.
        const status = (error.status >= 600 ? 502 : error.status) as ContentfulStatusCode;
        return new ProblemException({
          status,
          code: 'upstream',
          title: error.title,
          ...(error.detail ? { detail: error.detail } : {}),
          ...(error.errors.length > 0 ? { errors: error.errors } : {}),
        });
      }
      throw error;
    },
  };
}
