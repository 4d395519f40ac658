// Event streams per person (ADR 0027): one owner id holds at most a configured number of streams
// on every BFF instance together, counted from the presence table they all share (one row per
// live stream) plus the streams this instance is opening for that person. Instances opening at
// the very same moment may each pass once; the count catches up at the next open.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../../db/schema.ts';
import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import { tooManyRequests } from '../../lib/errors.ts';

const tooMany = (max: number) =>
  tooManyRequests(
    'too_many_streams',
    `At most ${max} event streams per person (all sessions and servers)`,
    10,
  );

/**
 * The limiter. `admit` resolves to a release, to call once the stream's presence row exists
 * (from then on the table counts it) or when opening failed.
 *
 * @example
 * const limit = personStreams({ db: store.db, clock, max: 12 });
 * const release = await limit.admit(session, hub.streamsOf(session.ownerId)); // 429 past the cap
 */
export function personStreams(deps: { db: Kysely<BffDatabase>; clock: Clock; max: number }) {
  const opening = new Map<string, number>();

  const live = async (ownerId: string): Promise<number> => {
    const row = await deps.db
      .selectFrom('presence')
      .select(({ fn }) => fn.countAll<number | string>().as('n'))
      .where('user_id', '=', ownerId)
      .where('expires_at', '>', deps.clock.now())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  const release = (ownerId: string) => {
    const left = (opening.get(ownerId) ?? 1) - 1;
    if (left > 0) opening.set(ownerId, left);
    else opening.delete(ownerId);
  };

  return {
    /**
     * Takes a slot of the person or throws 429. `here`: the person's streams open on this
     * instance, which alone may already fill the cap (then no count is read from the store).
     */
    async admit(session: SessionRecord, here: number): Promise<() => void> {
      if (deps.max <= 0) return () => undefined;
      const owner = session.ownerId;
      if (here + (opening.get(owner) ?? 0) >= deps.max) throw tooMany(deps.max);
      // Counted before the await, so that this instance's concurrent opens see each other.
      opening.set(owner, (opening.get(owner) ?? 0) + 1);
      let held = true;
      const done = () => {
        if (!held) return;
        held = false;
        release(owner);
      };
      try {
        if ((await live(owner)) + (opening.get(owner) ?? 0) > deps.max) throw tooMany(deps.max);
      } catch (error) {
        done();
        throw error;
      }
      return done;
    },
  };
}

export type PersonStreams = ReturnType<typeof personStreams>;
