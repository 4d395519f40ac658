// Presence names a record only if it exists and the session may read it (ADR 0027): otherwise
// anyone could raise "X is editing" on any id, one that does not exist yet included. Asked of the
// upstream with the session's own token (`GET /{type}/{alias}/{id}`, as the history's per-record
// route does), and the answer kept a minute per person and record, so a tab that goes back and
// forth between records, or a person who signs in again, costs one read per record.
import type { PresenceRecord } from '@wsc/api-client/bff-events';
import { isApiError } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import { asRejection } from '../../lib/authority.ts';
import { coalescedCache } from '../../lib/coalesced-cache.ts';

/** How long a "yes" is kept; a "no" is asked again sooner (the record may be created). */
const READABLE_TTL_MS = 60_000;
const UNREADABLE_TTL_MS = 5_000;

/**
 * The check. Resolves false for 403/404; throws the upstream's other failures (the route answers
 * them with `api.failure`: a presence the BFF cannot check is refused, never accepted).
 *
 * @example
 * const readable = recordReadable({ api, config, clock });
 * if (!(await readable(session, input.record))) throw notFound();
 */
export function recordReadable(deps: { api: SessionApi; config: BffConfig; clock: Clock }) {
  const cache = coalescedCache<boolean>({
    clock: deps.clock,
    ttlMs: READABLE_TTL_MS,
    maxEntries: 20_000,
    ttlOf: (readable) => (readable ? READABLE_TTL_MS : UNREADABLE_TTL_MS),
  });
  return (session: SessionRecord, record: PresenceRecord): Promise<boolean> => {
    // Per person: all their sessions may read the same records.
    const key = [
      session.region,
      session.ownerId,
      record.recordType,
      record.alias,
      record.recordId,
    ].join('\u0000');
    return cache.get(key, async () => {
      const region = deps.config.regions.find((r) => r.id === session.region);
      if (!region) return false;
      try {
        await deps.api.run(session, region, session.profile, (client, signal) =>
          client.getRecord(record.recordType, record.alias, record.recordId, { signal }),
        );
        return true;
      } catch (error) {
        if (isApiError(error) && (error.status === 403 || error.status === 404)) return false;
        throw asRejection(error);
      }
    });
  };
}

export type RecordReadable = ReturnType<typeof recordReadable>;
