// What each streaming session may see, as the live hub holds it (ADR 0023, 0027): the
// `recordType/alias` keys, kept only for sessions with a stream on this instance, and asked again
// with the session's own credential before they are a minute old. A credential the upstream
// refuses ends the session on every instance; any other failure keeps the answer until it is a
// minute old, then nothing is visible until a refresh works (closed, never open).
import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Visible } from '../../lib/visible-definitions.ts';
import { CredentialsRejectedError } from '../../lib/upstream-auth.ts';
import { VISIBLE_TTL_MS } from '../../lib/visible-definitions.ts';

/** Sessions whose visible definitions are remembered at most (oldest forgotten first). */
const MAX_VISIBLE_SESSIONS = 10_000;

/**
 * The holder.
 *
 * @example
 * const seen = streamVisibility({ clock, logger, heartbeatMs: 15_000, visibleKeys, credentialsRejected });
 * const keys = await seen.get(session, true);
 */
export function streamVisibility(deps: {
  clock: Clock;
  logger: Logger;
  /** The hub's heartbeat: an answer is renewed when it would pass a minute by the next one. */
  heartbeatMs: number;
  visible: (
    session: SessionRecord,
    options?: { fresh?: boolean },
  ) => Promise<Pick<Visible, 'keys' | 'ttlMs'>>;
  credentialsRejected: (session: SessionRecord) => Promise<void>;
}) {
  const { clock, logger } = deps;
  const visible = new Map<string, { keys: Set<string>; at: number; ttl: number }>();

  const keep = (hash: string, keys: Set<string>, at: number, ttl: number) => {
    if (visible.size >= MAX_VISIBLE_SESSIONS && !visible.has(hash)) {
      const oldest = visible.keys().next();
      if (!oldest.done) visible.delete(oldest.value);
    }
    visible.set(hash, { keys, at, ttl });
  };

  const load = async (session: SessionRecord, streaming: boolean, fresh: boolean) => {
    const answer = await deps.visible(session, { fresh });
    // A session without a stream here (a presence change made through this instance for a
    // stream on another) is answered but not kept: the map holds streaming sessions only.
    if (streaming) keep(session.idHash, answer.keys, clock.now(), answer.ttlMs);
    return answer.keys;
  };

  const refreshOne = async (session: SessionRecord) => {
    const seen = visible.get(session.idHash);
    // Renewed when the answer would be past its time by the next heartbeat.
    if (seen && clock.now() - seen.at + deps.heartbeatMs < seen.ttl) return;
    try {
      await load(session, true, true);
    } catch (error) {
      if (error instanceof CredentialsRejectedError) {
        logger.info('live events: credential refused upstream; session ended', {
          session: session.idHash.slice(0, 8),
        });
        await deps.credentialsRejected(session);
        return;
      }
      logger.warn('visible definitions refresh failed', {
        error: error instanceof Error ? error.message : String(error),
      });
      // Past a minute without a confirmed answer: nothing is visible (retried each heartbeat).
      if (!seen || clock.now() - seen.at >= VISIBLE_TTL_MS) {
        keep(session.idHash, new Set(), seen?.at ?? 0, 0);
      }
    }
  };

  return {
    /** The keys kept for a streaming session, if any (events are sent only to those). */
    keysOf: (hash: string) => visible.get(hash)?.keys,

    /** The session's keys: kept ones while under a minute old, else asked (and kept if streaming). */
    async get(session: SessionRecord, streaming: boolean): Promise<Set<string>> {
      const seen = visible.get(session.idHash);
      if (seen && clock.now() - seen.at < seen.ttl) return seen.keys;
      return load(session, streaming, false);
    },

    /** Renews the answers of these sessions that are close to a minute old (each heartbeat). */
    async refresh(sessions: Iterable<SessionRecord>): Promise<void> {
      for (const session of sessions) {
        await refreshOne(session).catch((error: unknown) => {
          logger.warn('ending a refused session failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      }
    },

    forget(hash: string): void {
      visible.delete(hash);
    },

    size: () => visible.size,
  };
}
