// Sessions per person (ADR 0027): one owner id holds at most a configured number of sessions,
// across every instance on the store. A sign-in past it ends that person's oldest sessions rather
// than refusing the sign-in: someone who lost a browser's cookies can always sign in again, and
// what a repeated sign-in costs falls on the person doing it.
import type { Kysely } from 'kysely';

import type { BffDatabase } from '../db/schema.ts';

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
