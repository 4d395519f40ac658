// The per-session token cache: tokens in memory and, sealed, in the session row; one token call
// per session at a time (single flight), refreshed before they expire.
import type { SessionRecord, SessionStore } from '../db/store.ts';
import type { Clock } from './clock.ts';
import type { BffConfig } from './config.ts';
import type { Sealer } from './crypto.ts';
import type { Logger } from './logger.ts';
import type { TokenStyles } from './upstream-auth.ts';
import { CredentialsRejectedError, fetchToken, tokenRefreshTime } from './upstream-auth.ts';

type CachedToken = { token: string; refreshAt: number };

/** Entries kept in memory at most; past it the oldest are dropped (they reload from the store). */
const MAX_CACHED_TOKENS = 10_000;

export type TokenManager = {
  /** A valid access token for the session; one token call per session at a time. */
  get(session: SessionRecord): Promise<string>;
  /** Drop `staleToken` (after an upstream 401) so the next `get` fetches a new one. */
  invalidate(idHash: string, staleToken: string): void;
  forget(idHash: string): void;
  /** Seed the cache at sign-in with the token the credentials were checked with. */
  prime(idHash: string, token: string, refreshAt: number): void;
};

/**
 * Open a sealed session value. A value that does not open (SESSION_SECRET rotated, a row edited)
 * means the session's credentials are unusable: the same outcome as revoked credentials, so the
 * caller ends the session with 401 rather than failing every request with 500.
 *
 * @example
 * const secret = openSealed(sealer, session.secretSealed, session.idHash);
 */
export function openSealed(sealer: Sealer, sealed: string, context: string): string {
  try {
    return sealer.open(sealed, context);
  } catch {
    throw new CredentialsRejectedError('sealed session value does not open');
  }
}

/**
 * The per-session token cache. Tokens live in memory and, sealed, in the session row, so a BFF
 * restart or a second instance reuses them instead of calling the token endpoint again.
 *
 * @example
 * const tokens = createTokenManager({ config, store, clock, sealer, fetch, logger, styles: new Map() });
 * const token = await tokens.get(session);
 */
export function createTokenManager(deps: {
  config: BffConfig;
  store: SessionStore;
  clock: Clock;
  sealer: Sealer;
  fetch: typeof fetch;
  logger: Logger;
  styles: TokenStyles;
}): TokenManager {
  const { config, store, clock, sealer } = deps;
  const cache = new Map<string, CachedToken>();
  const inflight = new Map<string, Promise<string>>();
  // Stale tokens are remembered per session so a stored copy of one is not reused after a 401.
  const rejected = new Map<string, string>();

  const remember = (idHash: string, entry: CachedToken) => {
    if (cache.size >= MAX_CACHED_TOKENS && !cache.has(idHash)) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(idHash, entry);
  };

  const refresh = async (session: SessionRecord): Promise<string> => {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) throw new CredentialsRejectedError('region no longer configured');
    const secret = openSealed(sealer, session.secretSealed, session.idHash);
    const issuedAt = clock.now();
    const reply = await fetchToken({
      fetch: deps.fetch,
      region,
      clientId: session.clientId,
      clientSecret: secret,
      timeoutMs: config.upstreamTimeoutMs,
      styles: deps.styles,
    });
    const refreshAt = tokenRefreshTime(issuedAt, reply.expires_in, config.tokenRefreshRatio);
    remember(session.idHash, { token: reply.access_token, refreshAt });
    rejected.delete(session.idHash);
    await store.saveToken(
      session.idHash,
      sealer.seal(reply.access_token, session.idHash),
      refreshAt,
    );
    deps.logger.debug('token refreshed', { session: session.idHash.slice(0, 8) });
    return reply.access_token;
  };

  return {
    async get(session) {
      const now = clock.now();
      const cached = cache.get(session.idHash);
      if (cached && now < cached.refreshAt) return cached.token;
      const running = inflight.get(session.idHash);
      if (running) return running;
      // The stored token: after a restart, or refreshed meanwhile by another BFF instance.
      const storedUntil = session.tokenRefreshAt ?? 0;
      if (session.tokenSealed && now < storedUntil && storedUntil > (cached?.refreshAt ?? 0)) {
        const stored = openSealed(sealer, session.tokenSealed, session.idHash);
        if (rejected.get(session.idHash) !== stored) {
          remember(session.idHash, { token: stored, refreshAt: storedUntil });
          return stored;
        }
      }
      const promise = refresh(session).finally(() => inflight.delete(session.idHash));
      inflight.set(session.idHash, promise);
      return promise;
    },
    invalidate(idHash, staleToken) {
      rejected.set(idHash, staleToken);
      if (cache.get(idHash)?.token === staleToken) cache.delete(idHash);
    },
    forget(idHash) {
      cache.delete(idHash);
      rejected.delete(idHash);
    },
    prime(idHash, token, refreshAt) {
      remember(idHash, { token, refreshAt });
    },
  };
}
