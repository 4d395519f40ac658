// Sessions per person (ADR 0027): one owner id holds at most a configured number of sessions,
// across every instance on the store. A sign-in past it ends that person's oldest sessions rather
// than refusing the sign-in: someone who lost a browser's cookies can always sign in again, and
// what a repeated sign-in costs falls on the person doing it. Sign-ins themselves have a rate per
// credential (region and client id): looked at before the upstream is asked, so a credential
// past its rate costs neither a token call nor a session, but counted only once the upstream has
// taken the secret, so nobody can use up someone else's with a wrong one.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { Rate } from './token-bucket.ts';
import { tooManyRequests } from './errors.ts';
import { tokenBuckets } from './token-bucket.ts';

const tooOften = (wait: number) =>
  tooManyRequests(
    'sign_in_rate_limited',
    'This credential signed in too often just now; try again shortly',
    wait,
  );

/**
 * The sign-in rate per credential (per instance). `check` (before the upstream is asked) and
 * `admit` (once it took the secret) throw 429 with Retry-After past it; only `admit` counts.
 *
 * @example
 * const signIns = signInRate({ clock, rate: { ratePerSecond: 1 / 3, burst: 20 } });
 * signIns.check(region.id, input.clientId);
 */
export function signInRate(deps: { clock: Clock; rate: Rate }) {
  const buckets = tokenBuckets({ clock: deps.clock, rate: deps.rate, maxKeys: 50_000 });
  const key = (region: string, clientId: string) => `${region}\u0000${clientId}`;
  return {
    check(region: string, clientId: string): void {
      const wait = buckets.peek(key(region, clientId));
      if (wait > 0) throw tooOften(wait);
    },
    admit(region: string, clientId: string): void {
      const wait = buckets.take(key(region, clientId));
      if (wait > 0) throw tooOften(wait);
    },
  };
}

export type SignInRate = ReturnType<typeof signInRate>;

/**
 * The person's sessions past the newest `max` (the one just created, `keep`, always stays):
 * their id hashes, for the caller to end.
 *
 * @example
 * for (const idHash of await sessionsOverCap(db, record.ownerId, record.idHash, 10)) await sessions.destroy(idHash);
 */
export async function sessionsOverCap(
  db: Kysely<BffDatabase>,
  ownerId: string,
  keep: string,
  max: number,
): Promise<string[]> {
  if (max <= 0) return [];
  const rows = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('owner_id', '=', ownerId)
    .where('id_hash', '!=', keep)
    .orderBy('created_at', 'desc')
    .orderBy('id_hash', 'desc')
    .offset(max - 1)
    // Bounded: sessions are ended at each sign-in, so only a few are ever past the cap.
    .limit(1_000)
    .execute();
  return rows.map((row) => row.id_hash);
}
