// The blob folder (BLOB_DIR): attachment bytes stored under their attachment's generated id, never
// under a client-supplied name. Uploads are written to a temp file in the same folder (so the final
// rename is atomic) and renamed only inside the database transaction that inserts their row.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import type { Db } from '../db/client.ts';
import type { Logger } from '../lib/types.ts';

/** Temp files start with this prefix; anything with it is garbage after a restart. */
export const TEMP_PREFIX = '.upload-';

const KEY_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The path of a stored blob. Keys are generated UUIDs; anything else is refused, so a path can never
 * escape the folder. Blobs are spread over 256 sub-folders by the key's first two hex digits.
 *
 * @example
 * blobPath('/data/blobs', '0f8fad5b-d9cb-469f-a165-70867728950e'); // '/data/blobs/0f/0f8fad5b-...'
 */
export function blobPath(blobDir: string, key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`Invalid blob key: ${key}`);
  return path.join(blobDir, key.slice(0, 2), key);
}

/**
 * A fresh temp file path in the blob folder (same file system as the final location).
 *
 * @example
 * const temp = tempBlobPath(config.blobDir);
 */
export function tempBlobPath(blobDir: string): string {
  return path.join(blobDir, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`);
}

/**
 * A write stream for a new temp file: created exclusively, owner-only, flushed to disk on close.
 *
 * @example
 * await pipeline(source, createTempWriteStream(temp));
 */
export function createTempWriteStream(tempPath: string): fs.WriteStream {
  return fs.createWriteStream(tempPath, { flags: 'wx', mode: 0o600, flush: true });
}

/**
 * Moves a finished temp file to its final key (atomic rename within the folder).
 *
 * @example
 * await commitBlob(config.blobDir, temp, attachmentId);
 */
export async function commitBlob(blobDir: string, tempPath: string, key: string): Promise<void> {
  const target = blobPath(blobDir, key);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await fsp.rename(tempPath, target);
}

/**
 * Writes a small blob from memory (seed data): temp file, then rename.
 *
 * @example
 * await writeBlob(config.blobDir, id, Buffer.from('hello'));
 */
export async function writeBlob(blobDir: string, key: string, bytes: Uint8Array): Promise<void> {
  await fsp.mkdir(blobDir, { recursive: true });
  const temp = tempBlobPath(blobDir);
  try {
    await fsp.writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
    await commitBlob(blobDir, temp, key);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes a blob; a missing one is not an error (deletes are idempotent).
 *
 * @example
 * await removeBlob(config.blobDir, attachment.blob_key);
 */
export async function removeBlob(blobDir: string, key: string): Promise<void> {
  await fsp.rm(blobPath(blobDir, key), { force: true });
}

/**
 * Start-up recovery: deletes temp files (uploads cut short by a crash) and blobs that have no
 * attachment row (a crash between the rename and the commit, or after a row's delete). Run before
 * serving requests, so no upload is in flight.
 *
 * @example
 * const { temps, orphans } = await sweepBlobDir(db, config.blobDir, logger);
 */
export async function sweepBlobDir(
  db: Db,
  blobDir: string,
  logger?: Logger,
): Promise<{ temps: number; orphans: number }> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(blobDir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { temps: 0, orphans: 0 };
    throw error;
  }
  let temps = 0;
  let orphans = 0;
  for (const entry of entries) {
    if (entry.isFile() && entry.name.startsWith(TEMP_PREFIX)) {
      await fsp.rm(path.join(blobDir, entry.name), { force: true });
      temps += 1;
      continue;
    }
    if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
    const keys = (await fsp.readdir(path.join(blobDir, entry.name))).filter((name) =>
      KEY_RE.test(name),
    );
    for (let start = 0; start < keys.length; start += 500) {
      const batch = keys.slice(start, start + 500);
      const known = await db
        .selectFrom('attachments')
        .select('blob_key')
        .where('blob_key', 'in', batch)
        .execute();
      const keep = new Set(known.map((row) => row.blob_key));
      for (const key of batch) {
        if (keep.has(key)) continue;
        await fsp.rm(path.join(blobDir, entry.name, key), { force: true });
        orphans += 1;
      }
    }
  }
  if (temps + orphans > 0) logger?.info('blob folder recovered', { temps, orphans });
  return { temps, orphans };
}
