// Who may use the administrators' routes, decided on authority at most a minute old (ADR 0027)
// rather than on the role the session was given at sign-in: extended, the upstream's `/v1/me`
// with the session's own token; hosted, the operator's identities file as it is now, plus a check
// that the upstream still takes the session's credential. A credential the upstream refuses
// surfaces as CredentialsRejectedError, which `api.failure` turns into the end of the session.
import { createMiddleware } from 'hono/factory';

import { isApiError } from '@wsc/api-client';

import type { SessionRecord } from '../db/store.ts';
import type { AppEnv } from './app-env.ts';
import type { Clock } from './clock.ts';
import type { BffConfig } from './config.ts';
import type { IdentitiesSource } from './identities-source.ts';
import type { SessionApi } from './session-api.ts';
import { unauthenticated } from '../middlewares/require-auth.ts';
import { coalescedCache } from './coalesced-cache.ts';
import { ProblemException } from './errors.ts';
import { findIdentity } from './identities.ts';
import { CredentialsRejectedError } from './upstream-auth.ts';

/** The oldest answer an administrators' decision may rest on. */
export const AUTHORITY_MAX_AGE_MS = 60_000;

/** Sessions whose answers are kept at most. */
const MAX_SESSIONS = 10_000;

export type Role = 'ADMIN' | 'MEMBER' | 'UNKNOWN';

export type Authority = {
  /**
   * The session's role now (at most AUTHORITY_MAX_AGE_MS old). Throws CredentialsRejectedError
   * when the upstream refuses the credential, and the upstream's failures otherwise (the caller
   * answers them with `api.failure`: access closes).
   */
  currentRole(session: SessionRecord): Promise<Role>;
  /**
   * Resolves when the upstream took the session's credential within AUTHORITY_MAX_AGE_MS; throws
   * like `currentRole`.
   */
  verifyCredential(session: SessionRecord): Promise<void>;
  /** Whether an identities file names the hosted region's people (then it alone makes admins). */
  identitiesConfigured(): Promise<boolean>;
};

/**
 * A 401 from the upstream after the token was refreshed means the credential itself is refused:
 * as CredentialsRejectedError; any other error as it is.
 *
 * @example
 * try { await api.run(...); } catch (error) { throw asRejection(error); }
 */
export function asRejection(error: unknown): unknown {
  return isApiError(error) && error.status === 401
    ? new CredentialsRejectedError('upstream refused the refreshed token')
    : error;
}

/**
 * The authority service: one per app, shared by every administrators' route.
 *
 * @example
 * const authority = createAuthority({ config, api, identities, clock });
 * if ((await authority.currentRole(session)) !== 'ADMIN') throw forbidden();
 */
export function createAuthority(deps: {
  config: BffConfig;
  api: SessionApi;
  identities: IdentitiesSource;
  clock: Clock;
}): Authority {
  const { config, api, identities, clock } = deps;
  const roles = coalescedCache<Role>({
    clock,
    ttlMs: AUTHORITY_MAX_AGE_MS,
    maxEntries: MAX_SESSIONS,
  });
  const credentials = coalescedCache<true>({
    clock,
    ttlMs: AUTHORITY_MAX_AGE_MS,
    maxEntries: MAX_SESSIONS,
  });

  const regionOf = (session: SessionRecord) => {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) throw new CredentialsRejectedError('region no longer configured');
    return region;
  };

  /** `/v1/me` with the session's token: the role the API gives the credential's owner now. */
  const roleFromApi = (session: SessionRecord) =>
    roles.get(session.idHash, async () => {
      try {
        const me = await api.run(session, regionOf(session), 'extended', (client, signal) =>
          client.me({ signal }),
        );
        return me.role;
      } catch (error) {
        throw asRejection(error);
      }
    });

  /**
   * Hosted: any answer but 401 (after one refresh) to a published read means the credential
   * still works; what it may read does not matter here. Network failures are thrown (closed).
   */
  const verifyCredential = (session: SessionRecord): Promise<void> =>
    credentials
      .get(session.idHash, async () => {
        try {
          await api.run(session, regionOf(session), session.profile, (client, signal) =>
            client.listUsers({ first: 1, signal }),
          );
        } catch (error) {
          const rejected = asRejection(error);
          if (rejected instanceof CredentialsRejectedError) throw rejected;
          if (!(isApiError(error) && error.status >= 200 && error.status < 500)) throw error;
        }
        return true as const;
      })
      .then(() => undefined);

  return {
    async currentRole(session) {
      if (session.profile !== 'hosted') return roleFromApi(session);
      const named = await identities.current();
      const role = named ? findIdentity(named, session.region, session.clientId)?.role : undefined;
      // Only a role that grants something is worth an upstream call.
      if (role === 'ADMIN') await verifyCredential(session);
      return role ?? 'UNKNOWN';
    },
    async verifyCredential(session) {
      if (session.profile !== 'hosted') {
        await roleFromApi(session);
        return;
      }
      await verifyCredential(session);
    },
    async identitiesConfigured() {
      return (await identities.current()) !== null;
    },
  };
}

/**
 * Administrators only: 403 (with `detail`) for anyone whose current role is not ADMIN; a refused
 * credential ends the session (401); an upstream that cannot answer closes the route (502/504).
 *
 * @example
 * router.get('/history', requireAdmin(authority, api, 'Only administrators may read the whole history'), handler);
 */
export function requireAdmin(authority: Authority, api: SessionApi, detail: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const session = c.var.session;
    if (!session) throw unauthenticated(false);
    let role: Role;
    try {
      role = await authority.currentRole(session);
    } catch (error) {
      throw await api.failure(error, session);
    }
    if (role !== 'ADMIN') {
      throw new ProblemException({ status: 403, code: 'forbidden', title: 'Forbidden', detail });
    }
    return next();
  });
}
