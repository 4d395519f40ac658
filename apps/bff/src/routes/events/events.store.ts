// The presence table (migration 0008): one row per live event stream, shared by every BFF instance
// on the store. The instance serving a stream keeps its row alive (`expires_at`); any instance
// sweeps rows past it, so a dead instance's users vanish. Reads are per region and bounded.
import type { Kysely, Selectable } from 'kysely';

import type { IdentitySource, RecordType } from '@wsc/api-client';
import type { PresenceEntry, PresenceRecord } from '@wsc/api-client/bff-events';
import { ShownIdentitySchema } from '@wsc/api-client/bff-events';

import type { BffDatabase, PresenceTable } from '../../db/schema.ts';

/** Open records one region's read returns at most (far above the streams the limits allow). */
export const MAX_PRESENCE_ROWS = 5_000;

export type PresenceRow = Selectable<PresenceTable>;

/** What `owned` reads of a stream's row. */
export type OwnedStream = Pick<
  PresenceRow,
  'region' | 'record_type' | 'alias' | 'record_id' | 'editing'
>;

/** A stream as its row starts: who, where, served by which instance; no record yet. */
export type NewStream = {
  connectionId: string;
  sessionHash: string;
  instanceId: string;
  region: string;
  userId: string;
  userName: string;
  userIdentity: IdentitySource;
};

/**
 * A row with a record as an event carries it; `undefined` for a stream with nothing open.
 *
 * @example
 * const entry = toEntry(row);
 */
export function toEntry(row: PresenceRow): (PresenceEntry & { userId: string }) | undefined {
  if (row.record_type === null || row.alias === null || row.record_id === null) return undefined;
  return {
    connectionId: row.connection_id,
    userId: row.user_id,
    user: { id: row.user_id, name: row.user_name },
    identity: ShownIdentitySchema.parse(row.user_identity),
    // Rows are only written through PresenceInputSchema, which checks the record type.
    recordType: row.record_type as RecordType,
    alias: row.alias,
    recordId: row.record_id,
    editing: row.editing,
    since: new Date(Number(row.since)).toISOString(),
  };
}

/**
 * The table's queries.
 *
 * @example
 * const presence = presenceStore(store.db);
 * await presence.insert(stream, now, now + ttl);
 */
export function presenceStore(db: Kysely<BffDatabase>) {
  return {
    async insert(stream: NewStream, now: number, expiresAt: number) {
      await db
        .insertInto('presence')
        .values({
          connection_id: stream.connectionId,
          session_hash: stream.sessionHash,
          instance_id: stream.instanceId,
          region: stream.region,
          user_id: stream.userId,
          user_name: stream.userName,
          user_identity: stream.userIdentity,
          since: now,
          expires_at: expiresAt,
        })
        .execute();
    },

    /**
     * The live stream `connectionId` of this session (its region and what it shows), or
     * undefined when no live stream of this session has the id (another session's stream is not
     * found either). Read before any limit is counted, so a foreign id costs nothing.
     */
    async owned(connectionId: string, sessionHash: string, now: number) {
      return db
        .selectFrom('presence')
        .select(['region', 'record_type', 'alias', 'record_id', 'editing'])
        .where('connection_id', '=', connectionId)
        .where('session_hash', '=', sessionHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /**
     * Sets what an owned stream shows (`row` as `owned` read it): false when it showed that
     * already, so nobody needs telling.
     */
    async setRecord(
      connectionId: string,
      row: OwnedStream,
      record: PresenceRecord | null,
      now: number,
    ): Promise<boolean> {
      const same =
        record === null
          ? row.record_id === null
          : row.record_type === record.recordType &&
            row.alias === record.alias &&
            row.record_id === record.recordId &&
            row.editing === record.editing;
      if (same) return false;
      await db
        .updateTable('presence')
        .set({
          record_type: record?.recordType ?? null,
          alias: record?.alias ?? null,
          record_id: record?.recordId ?? null,
          editing: record?.editing ?? false,
          since: now,
        })
        .where('connection_id', '=', connectionId)
        .execute();
      return true;
    },

    async remove(connectionId: string) {
      await db.deleteFrom('presence').where('connection_id', '=', connectionId).execute();
    },

    /** Keeps an instance's rows alive until `expiresAt`. */
    async refresh(instanceId: string, expiresAt: number) {
      await db
        .updateTable('presence')
        .set({ expires_at: expiresAt })
        .where('instance_id', '=', instanceId)
        .execute();
    },

    /** Deletes rows past their expiry; the regions that lost one (to notify). */
    async sweep(now: number): Promise<string[]> {
      const rows = await db
        .deleteFrom('presence')
        .where('expires_at', '<=', now)
        .returning('region')
        .execute();
      return [...new Set(rows.map((r) => r.region))];
    },

    /** The region's open records, oldest first, at most MAX_PRESENCE_ROWS. */
    async openRecords(region: string, now: number): Promise<PresenceRow[]> {
      return db
        .selectFrom('presence')
        .selectAll()
        .where('region', '=', region)
        .where('record_id', 'is not', null)
        .where('expires_at', '>', now)
        .orderBy('since')
        .limit(MAX_PRESENCE_ROWS)
        .execute();
    },
  };
}

export type PresenceStore = ReturnType<typeof presenceStore>;
