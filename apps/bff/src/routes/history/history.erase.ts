// An administrator's erase (issue 26 M3 and I1, ADR 0026): one record's history, or everything the
// BFF store keeps about one person in the region (a right-to-erasure request). What is erased, and
// what is not (their name inside other people's entries' values, for one), is listed in
// docs/security.md; each table named here is checked empty of the person by history-erase.test.ts.
import type { Kysely } from 'kysely';

import type { PersonErased, RecordHistoryErased } from '@wsc/api-client/bff-history';

import type { BffDatabase } from '../../db/schema.ts';

const count = (result: { numDeletedRows: bigint } | undefined) =>
  Number(result?.numDeletedRows ?? 0);

/**
 * Deletes one record's history in the region.
 *
 * @example
 * await eraseRecordHistory(db, 'default', { recordType: 'apps', alias: 'tickets', recordId: 'SUP-1' });
 */
export async function eraseRecordHistory(
  db: Kysely<BffDatabase>,
  region: string,
  record: { recordType: string; alias: string; recordId: string },
): Promise<RecordHistoryErased> {
  const result = await db
    .deleteFrom('record_history')
    .where('region', '=', region)
    .where('record_type', '=', record.recordType)
    .where('alias', '=', record.alias)
    .where('record_id', '=', record.recordId)
    .executeTakeFirst();
  return { history: count(result) };
}

/**
 * The session hashes of a person in the region: the route ends them through the session service
 * (which also closes their event streams on every instance) before erasing the rest.
 *
 * @example
 * for (const hash of await sessionsOf(db, 'default', ownerId)) await sessions.destroy(hash);
 */
export async function sessionsOf(
  db: Kysely<BffDatabase>,
  region: string,
  ownerId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('region', '=', region)
    .where('owner_id', '=', ownerId)
    .execute();
  return rows.map((r) => r.id_hash);
}

/**
 * Deletes, in one transaction, what the store keeps of one person (owner id) in the region: their
 * history entries as actor, presence rows, saved views (their shares go with them), bulk runs,
 * preferences and their daily history budget. Sessions are the route's (see {@link sessionsOf}).
 *
 * @example
 * const erased = await erasePersonData(db, 'default', ownerId);
 */
export async function erasePersonData(
  db: Kysely<BffDatabase>,
  region: string,
  ownerId: string,
): Promise<Omit<PersonErased, 'sessions'>> {
  return db.transaction().execute(async (trx) => {
    const history = await trx
      .deleteFrom('record_history')
      .where('region', '=', region)
      .where('actor_id', '=', ownerId)
      .executeTakeFirst();
    const presence = await trx
      .deleteFrom('presence')
      .where('region', '=', region)
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    const views = await trx
      .deleteFrom('saved_views')
      .where('region', '=', region)
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    const runs = await trx
      .deleteFrom('bulk_runs')
      .where('region', '=', region)
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    const preferences = await trx
      .deleteFrom('user_preferences')
      .where('region', '=', region)
      .where('user_id', '=', ownerId)
      .executeTakeFirst();
    // Usage counts carry no content; kept per person, not per region.
    const budget = await trx
      .deleteFrom('history_budget')
      .where('actor_id', '=', ownerId)
      .executeTakeFirst();
    return {
      history: count(history),
      presence: count(presence),
      savedViews: count(views),
      bulkRuns: count(runs),
      preferences: count(preferences),
      budget: count(budget),
    };
  });
}
