// What uploads may take from the server: a few in flight per credential (each holds a socket, a
// temp file and up to 250 MiB of disk until it ends), and never the last free space of the blob
// volume, which by default is also the volume of the embedded database (DATA_DIR): a full disk
// would stop every write of the region, not just uploads.
import fsp from 'node:fs/promises';

import type { Db } from '../db/client.ts';
import { insufficientStorage, ProblemException, unprocessable } from '../lib/errors.ts';

/** Uploads one credential may have in flight at once (DESIGN.md section 6). */
export const MAX_UPLOADS_IN_FLIGHT = 4;

/**
 * Attachments and links per record. The published list is a bare array (no paging), so its size
 * is capped instead: 1,000 keeps the reply under ~1 MB and is far above any real record.
 */
export const MAX_ATTACHMENTS_PER_RECORD = 1_000;

export type StatFs = (path: string) => Promise<{ bavail: number; bsize: number }>;

/**
 * Counts uploads in flight per credential and the bytes they may still write to the blob volume.
 * One per process, like the rest of the limits (one process per region).
 *
 * @example
 * const release = deps.uploads.acquire(principal.clientId);
 * const unreserve = await deps.uploads.reserve(config.blobDir, expectedBytes, config.blobMinFreeBytes);
 */
export class UploadGate {
  readonly #inFlight = new Map<string, number>();
  #reserved = 0;

  constructor(
    readonly perCredential = MAX_UPLOADS_IN_FLIGHT,
    private readonly statfs: StatFs = (target) => fsp.statfs(target),
  ) {}

  /** Bytes promised to uploads in flight. */
  get reservedBytes(): number {
    return this.#reserved;
  }

  /** Uploads in flight, all credentials together. */
  get total(): number {
    let sum = 0;
    for (const count of this.#inFlight.values()) sum += count;
    return sum;
  }

  /** Uploads in flight for a credential. */
  inFlight(clientId: string): number {
    return this.#inFlight.get(clientId) ?? 0;
  }

  /**
   * Takes one of the credential's upload slots, or throws 429 with Retry-After when all are in
   * use. `Connection: close`: the body of the refused upload is not read. Call the returned
   * function exactly once when the upload ends, whatever its outcome.
   */
  acquire(clientId: string): () => void {
    const current = this.inFlight(clientId);
    if (current >= this.perCredential) {
      throw new ProblemException(429, {
        detail: `At most ${this.perCredential} uploads may be in flight per credential; retry when one ends`,
        headers: { 'Retry-After': '1', Connection: 'close' },
      });
    }
    this.#inFlight.set(clientId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inFlight(clientId) - 1;
      if (left > 0) this.#inFlight.set(clientId, left);
      else this.#inFlight.delete(clientId);
    };
  }

  /**
   * Promises `bytes` of the blob volume to an upload, or throws 507 when the volume's free space,
   * less what uploads in flight were promised, would fall under `minFreeBytes`. The promise is
   * counted in full until released, though the temp file fills part of it meanwhile: an
   * overestimate for the length of an upload, never an underestimate.
   */
  async reserve(blobDir: string, bytes: number, minFreeBytes: number): Promise<() => void> {
    const stats = await this.statfs(blobDir);
    const free = Number(stats.bavail) * Number(stats.bsize);
    if (free - this.#reserved - bytes < minFreeBytes) {
      throw insufficientStorage(
        'The attachment store is too full to accept this file; try again later or ask an administrator',
        { Connection: 'close' },
      );
    }
    this.#reserved += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#reserved -= bytes;
    };
  }
}

/**
 * Throws 422 when a record already has the most attachments and links it may have. Run inside the
 * inserting transaction after `lockRecord`, so that concurrent additions cannot pass it together.
 *
 * @example
 * await lockRecord(trx, record.id);
 * await assertRoomForAttachment(trx, record.id, 'file');
 */
export async function assertRoomForAttachment(db: Db, recordId: string, field: string) {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('record_id', '=', recordId)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= MAX_ATTACHMENTS_PER_RECORD) {
    throw unprocessable(
      [
        {
          field,
          message: `A record holds at most ${MAX_ATTACHMENTS_PER_RECORD} attachments and links; remove some first`,
        },
      ],
      'The record has too many attachments',
    );
  }
}

/**
 * Locks a record's row until the transaction ends (serializes additions to one record).
 *
 * @example
 * await db.transaction().execute(async (trx) => { await lockRecord(trx, record.id); ... });
 */
export async function lockRecord(db: Db, recordId: string): Promise<void> {
  await db.selectFrom('records').select('id').where('id', '=', recordId).forUpdate().execute();
}
