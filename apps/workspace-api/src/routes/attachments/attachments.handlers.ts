// Attachments: files streamed to the blob folder and URL links, both listed as one bare array.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context } from 'hono';

import type { RecordType } from '@wsc/api-client';
import type { Attachment, UrlLink } from '@wsc/api-client/strict';
import { MAX_UPLOAD_BYTES } from '@wsc/api-client';

import type { AttachmentRow, RecordRow } from '../../db/schema.ts';
import type { Profile } from '../../env.ts';
import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './attachments.routes.ts';
import { blobPath, commitBlob, removeBlob } from '../../attachments/blobs.ts';
import { MULTIPART_OVERHEAD_BYTES, receiveUpload } from '../../attachments/multipart.ts';
import { assertRoomForAttachment, lockRecord } from '../../attachments/uploads.ts';
import { notFound, rangeNotSatisfiable, unprocessable } from '../../lib/errors.ts';
import { isHosted } from '../../lib/profile.ts';
import { badTextProblem } from '../../lib/text.ts';
import { recordAt } from '../record-path.ts';
import {
  cleanFileName,
  contentDisposition,
  parseRange,
  sanitizeMediaType,
  servedContentType,
} from './attachments.files.ts';

const MAX_DESCRIPTION = 1000;

/** The content URL, relative to the server root (clients behind a proxy prefix it themselves). */
function contentUrl(record: RecordRow, row: AttachmentRow): string | null {
  if (row.blob_key === null) return null;
  const parts = [record.record_type, record.alias, record.id, 'attachments', row.id, 'content'];
  return `/v1/${parts.map(encodeURIComponent).join('/')}`;
}

/** The published Attachment: every key a string or number, none null, no extension keys. */
type PublishedAttachment = Omit<
  Attachment,
  'description' | 'contentUrl' | 'sha256' | 'url' | 'createdBy'
> & {
  description?: string;
  contentUrl?: string;
};

/**
 * An attachment in the profile. Hosted: no `sha256`, `url` or `createdBy`, and no null values (a
 * link is told by its `text/uri-list` media type and named by its URL, with no `contentUrl`).
 */
function replyAttachment(
  profile: Profile,
  record: RecordRow,
  row: AttachmentRow,
): Attachment | PublishedAttachment {
  const attachment = toAttachment(record, row);
  if (profile === 'extended') return attachment;
  const { description, contentUrl, sha256: _sha, url: _url, createdBy: _by, ...rest } = attachment;
  return {
    ...rest,
    ...(description === null ? {} : { description }),
    ...(contentUrl === null ? {} : { contentUrl }),
  };
}

function toAttachment(record: RecordRow, row: AttachmentRow): Attachment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    mediaType: row.media_type,
    size: Number(row.size),
    state: row.state,
    viewState: row.view_state,
    contentUrl: contentUrl(record, row),
    createdAt: row.created_at.toISOString(),
    ...(row.sha256 ? { sha256: row.sha256 } : {}),
    ...(row.url ? { url: row.url } : {}),
    createdBy: row.created_by,
  };
}

/**
 * The record and the attachment a path names (404/403 for the record as resolveRecord says; the
 * id is a UUID: the route's schema answers 404 for anything else).
 */
async function attachmentAt(
  c: Context<AppEnv>,
  path: { recordType: RecordType; alias: string; id: string; attachmentId: string },
): Promise<{ record: RecordRow; row: AttachmentRow }> {
  const { record } = await recordAt(c, path);
  const row = await c.var.deps.db
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', path.attachmentId.toLowerCase())
    .where('record_id', '=', record.id)
    .executeTakeFirst();
  if (!row) throw notFound(`No attachment ${path.attachmentId} on ${record.id}`);
  return { record, row };
}

/** `GET .../attachments`: every attachment and link of the record, oldest first (a bare array). */
export async function listAttachments(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listAttachments>,
) {
  const { record } = await recordAt(c, request.params());
  const rows = await c.var.deps.db
    .selectFrom('attachments')
    .selectAll()
    .where('record_id', '=', record.id)
    .orderBy('seq')
    .execute();
  const profile = c.var.deps.config.profile;
  return c.json(rows.map((row) => replyAttachment(profile, record, row)));
}

/** `GET .../attachments/{attachmentId}`: one attachment's metadata. */
export async function getAttachment(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.getAttachment>,
) {
  const { record, row } = await attachmentAt(c, request.params());
  return c.json(replyAttachment(c.var.deps.config.profile, record, row));
}

/**
 * `POST .../attachments` (multipart `file`, optional `description`) -> 202 Attachment (hosted
 * profile: 202 with an empty body, as published; the list shows the new file). The bytes go
 * to a temp file while hashing; then, in one transaction, the row is inserted and the temp file
 * renamed to the row's id before the commit: a failed insert or rename rolls the row back and
 * removes the temp file; a failed commit removes the renamed blob. A crash between rename and
 * commit leaves only an orphan blob, which the start-up sweep removes (see attachments/blobs.ts).
 * Before any byte is read: 429 past MAX_UPLOADS_IN_FLIGHT uploads of the credential, 422 past
 * MAX_ATTACHMENTS_PER_RECORD, 507 when the file would leave the blob volume under
 * BLOB_MIN_FREE_BYTES (attachments/uploads.ts).
 */
export async function uploadAttachment(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.uploadAttachment>,
) {
  const { record } = await recordAt(c, request.params());
  const { config, db, uploads } = c.var.deps;
  // Refusals that need no byte of the body come first: slots, the per-record cap, free space.
  const release = uploads.acquire(c.var.principal.clientId);
  try {
    await assertRoomForAttachment(db, record.id, 'file');
    await fsp.mkdir(config.blobDir, { recursive: true });
    const unreserve = await uploads.reserve(
      config.blobDir,
      expectedUploadBytes(c.req.raw),
      config.blobMinFreeBytes,
    );
    try {
      return await storeUpload(c, record);
    } finally {
      unreserve();
    }
  } finally {
    release();
  }
}

/** The bytes an upload may write: its declared length when sane, else the most a file may have. */
function expectedUploadBytes(request: Request): number {
  const most = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES;
  const declared = request.headers.get('content-length');
  if (declared === null || !/^\d+$/.test(declared)) return most;
  return Math.min(Number(declared), most);
}

async function storeUpload(c: Context<AppEnv>, record: RecordRow) {
  const { config, db } = c.var.deps;
  const upload = await receiveUpload(c.req.raw, {
    blobDir: config.blobDir,
    maxFileBytes: MAX_UPLOAD_BYTES,
  });
  const id = randomUUID();
  let renamed = false;
  try {
    const description = upload.fields.description?.trim() ?? '';
    if (description.length > MAX_DESCRIPTION) {
      throw unprocessable([
        { field: 'description', message: `At most ${MAX_DESCRIPTION} characters` },
      ]);
    }
    const badDescription = badTextProblem('description', description);
    if (badDescription) throw unprocessable([badDescription]);
    const row = await db.transaction().execute(async (trx) => {
      await lockRecord(trx, record.id);
      await assertRoomForAttachment(trx, record.id, 'file');
      const inserted = await trx
        .insertInto('attachments')
        .values({
          id,
          record_id: record.id,
          name: cleanFileName(upload.filename),
          description: description === '' ? null : description,
          media_type: sanitizeMediaType(upload.mimeType),
          size: upload.size,
          sha256: upload.sha256,
          blob_key: id,
          url: null,
          state: 'VALID',
          view_state: 'PRIVATE',
          created_at: new Date(),
          created_by: c.var.principal.email,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await commitBlob(config.blobDir, upload.tempPath, id);
      renamed = true;
      return inserted;
    });
    if (config.profile === 'hosted') return c.body(null, 202);
    return c.json(toAttachment(record, row), 202);
  } catch (error) {
    if (renamed) await removeBlob(config.blobDir, id).catch(() => undefined);
    else await fsp.rm(upload.tempPath, { force: true });
    throw error;
  }
}

/** `POST .../attachments/url-links {url, description?}` -> 201 echo with the new id (hosted: no id). */
export async function addUrlLink(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.addUrlLink>,
) {
  const { record } = await recordAt(c, request.params());
  const input = await request.body();
  const url = new URL(input.url).href;
  const id = randomUUID();
  const description = input.description?.trim() || null;
  await c.var.deps.db.transaction().execute(async (trx) => {
    await lockRecord(trx, record.id);
    await assertRoomForAttachment(trx, record.id, 'url');
    await trx
      .insertInto('attachments')
      .values({
        id,
        record_id: record.id,
        // A link is named by its URL (already percent-encoded by URL parsing: no control characters).
        name: url.slice(0, 255),
        description,
        media_type: 'text/uri-list',
        size: 0,
        sha256: null,
        blob_key: null,
        url,
        state: 'VALID',
        view_state: 'PRIVATE',
        created_at: new Date(),
        created_by: c.var.principal.email,
      })
      .execute();
  });
  const echo = { url, ...(description !== null ? { description } : {}) };
  if (isHosted(c)) return c.json(echo, 201);
  const body: UrlLink = { ...echo, id };
  return c.json(body, 201);
}

/** `DELETE .../attachments/{attachmentId}` -> 200: the row, then its blob (never a row without bytes). */
export async function removeAttachment(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.removeAttachment>,
) {
  const { row } = await attachmentAt(c, request.params());
  const { config, db, logger } = c.var.deps;
  await db.deleteFrom('attachments').where('id', '=', row.id).execute();
  if (row.blob_key) {
    // A failure here leaves an orphan blob only; the start-up sweep removes it.
    await removeBlob(config.blobDir, row.blob_key).catch((error: unknown) =>
      logger.error('blob delete failed', { key: row.blob_key, error: String(error) }),
    );
  }
  return c.body(null, 200);
}

/**
 * `GET .../attachments/{attachmentId}/content`: the bytes, streamed, with safe headers. Extended
 * profile: the stored media type, the sha256 ETag (If-None-Match -> 304) and single-range support
 * (206, or 416 when unsatisfiable). Hosted: as published, always 200 `application/octet-stream`
 * with the whole file (the attachment disposition names the file).
 */
export async function getAttachmentContent(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.getAttachmentContent>,
) {
  const { row } = await attachmentAt(c, request.params());
  if (row.blob_key === null) {
    throw notFound(`Attachment ${row.id} is a link (${row.url ?? ''}), it has no content`);
  }
  const hosted = isHosted(c);
  const etag = `"${row.sha256 ?? row.id}"`;
  const headers: Record<string, string> = {
    'Content-Type': hosted ? 'application/octet-stream' : servedContentType(row.media_type),
    'Content-Disposition': contentDisposition(row.name),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'private, no-cache',
  };
  if (!hosted) {
    headers['Accept-Ranges'] = 'bytes';
    headers.ETag = etag;
  }
  const ifNoneMatch = hosted ? undefined : c.req.header('If-None-Match');
  if (
    ifNoneMatch &&
    ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
  ) {
    return new Response(null, { status: 304, headers });
  }
  const size = Number(row.size);
  const ifRange = c.req.header('If-Range');
  // A Range with a stale If-Range gets the whole (new) body.
  const range =
    hosted || (ifRange !== undefined && ifRange !== etag)
      ? { kind: 'full' as const }
      : parseRange(c.req.header('Range'), size);
  if (range.kind === 'unsatisfiable') throw rangeNotSatisfiable(size);
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  if (range.kind === 'partial') headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
  const status = range.kind === 'partial' ? 206 : 200;
  if (c.req.method === 'HEAD' || size === 0) return new Response(null, { status, headers });
  const handle = await fsp.open(blobPath(c.var.deps.config.blobDir, row.blob_key), 'r');
  const stream = handle.createReadStream({ start, end });
  return new Response(Readable.toWeb(stream) as unknown as ReadableStream, { status, headers });
}
