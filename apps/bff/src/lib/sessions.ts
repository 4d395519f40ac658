// Session lifecycle: create at sign-in, load (with a short in-memory cache and throttled idle
// touch), expire by idle and absolute time, destroy at sign-out.
import type { Profile, SessionUser } from '@wsc/api-client';

import type { SessionRecord, SessionStore } from '../db/store.ts';
import type { Clock } from './clock.ts';
import type { BffConfig } from './config.ts';
import type { Sealer } from './crypto.ts';
import type { Logger } from './logger.ts';
import type { RegionId } from './region.ts';
import type { TokenManager } from './token-manager.ts';
import { hashSessionId, newSessionId } from './crypto.ts';

export const SESSION_COOKIE = '__Host-wsc_session';

/** Session ids are 43 base64url characters; anything else is not looked up at all. */
const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const MAX_CACHED_SESSIONS = 10_000;

/**
 * The Set-Cookie value for a session: `__Host-` prefix, Secure, HttpOnly, SameSite=Strict, Path=/,
 * no Domain. `maxAgeSeconds` 0 clears it.
 *
 * @example
 * c.header('set-cookie', sessionCookie(id, 43_200));
 */
export function sessionCookie(value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; Secure; HttpOnly; SameSite=Strict`;
}

/**
 * The session cookie's value from a Cookie header, if present.
 *
 * @example
 * readSessionCookie('a=1; __Host-wsc_session=abc'); // 'abc'
 */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type Sessions = {
  create(input: {
    clientId: string;
    clientSecret: string;
    region: RegionId;
    profile: Profile;
    ownerId: string;
    user: SessionUser;
    accessToken: string;
    tokenRefreshAt: number;
  }): Promise<{ id: string; record: SessionRecord }>;
  /** The live session for a cookie value, or undefined (unknown, expired or malformed). */
  load(id: string): Promise<SessionRecord | undefined>;
  destroy(idHash: string): Promise<void>;
};

/**
 * The session service.
 *
 * @example
 * const sessions = createSessions({ config, store, clock, sealer, tokens, logger });
 * const session = await sessions.load(cookieValue);
 */
export function createSessions(deps: {
  config: BffConfig;
  store: SessionStore;
  clock: Clock;
  sealer: Sealer;
  tokens: TokenManager;
  logger: Logger;
}): Sessions {
  const { config, store, clock, sealer, tokens, logger } = deps;
  const cache = new Map<string, { record: SessionRecord; loadedAt: number }>();
  // Concurrent requests of one session share one store read (a page opening fires many at once).
  const loading = new Map<string, Promise<SessionRecord | undefined>>();

  const remember = (record: SessionRecord, loadedAt: number) => {
    if (cache.size >= MAX_CACHED_SESSIONS && !cache.has(record.idHash)) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    const entry = { record, loadedAt };
    cache.set(record.idHash, entry);
    return entry;
  };

  const read = (idHash: string): Promise<SessionRecord | undefined> => {
    let pending = loading.get(idHash);
    if (!pending) {
      pending = store.get(idHash).finally(() => loading.delete(idHash));
      loading.set(idHash, pending);
    }
    return pending;
  };

  const evict = (idHash: string) => {
    cache.delete(idHash);
    tokens.forget(idHash);
  };

  const opens = (record: SessionRecord): boolean => {
    try {
      sealer.open(record.secretSealed, record.idHash);
      return true;
    } catch {
      return false;
    }
  };

  const destroy = async (idHash: string) => {
    evict(idHash);
    await store.delete(idHash);
  };

  return {
    async create(input) {
      const id = newSessionId();
      const idHash = hashSessionId(id);
      const now = clock.now();
      const record: SessionRecord = {
        idHash,
        clientId: input.clientId,
        secretSealed: sealer.seal(input.clientSecret, idHash),
        region: input.region,
        profile: input.profile,
        ownerId: input.ownerId,
        user: input.user,
        tokenSealed: sealer.seal(input.accessToken, idHash),
        tokenRefreshAt: input.tokenRefreshAt,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + config.absoluteTimeoutMs,
      };
      await store.create(record);
      remember(record, now);
      tokens.prime(idHash, input.accessToken, input.tokenRefreshAt);
      return { id, record };
    },

    async load(id) {
      if (!SESSION_ID_SHAPE.test(id)) return undefined;
      const idHash = hashSessionId(id);
      const now = clock.now();
      let entry = cache.get(idHash);
      if (!entry || now - entry.loadedAt >= config.sessionCacheMs) {
        const record = await read(idHash);
        if (!record) {
          evict(idHash);
          return undefined;
        }
        // A row this instance cannot open (SESSION_SECRET rotated, or the row altered) is a
        // session nobody can use: signed out (401, cookie cleared) rather than a 500 on every
        // call. Checked on each read from the store, which the cache keeps to one per 5 s.
        if (!opens(record)) {
          logger.warn('session unreadable; signed out', { session: idHash.slice(0, 8) });
          await destroy(idHash);
          return undefined;
        }
        // This instance may know of later activity than the store has yet (touches are
        // throttled and not awaited): never move the idle clock backwards on a reload.
        const known = cache.get(idHash)?.record.lastSeenAt ?? 0;
        if (known > record.lastSeenAt) record.lastSeenAt = known;
        entry = cache.get(idHash);
        // Another request of the same flight may have cached (and touched) it already.
        if (!entry || entry.loadedAt < now) entry = remember(record, now);
      }
      const record = entry.record;
      if (now >= record.expiresAt || now - record.lastSeenAt >= config.idleTimeoutMs) {
        await destroy(idHash);
        return undefined;
      }
      if (now - record.lastSeenAt >= config.touchIntervalMs) {
        record.lastSeenAt = now;
        // Not awaited: the request should not wait for the bookkeeping write.
        store.touch(idHash, now).catch((error: unknown) => {
          logger.warn('session touch failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      }
      return record;
    },

    destroy,
  };
}
