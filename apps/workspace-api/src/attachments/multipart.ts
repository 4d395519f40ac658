// Request bodies: the streaming multipart upload (constant memory, straight to a temp file while
// hashing). Small JSON and text bodies are read by body.ts.
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';

import { badRequest, ProblemException, unprocessable } from '../lib/errors.ts';
import { createTempWriteStream, tempBlobPath } from './blobs.ts';

/** Room for boundaries, part headers and a description around a file of the maximum size. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * A 413 that also closes the connection: the client may still be sending a large body, which we
 * will not read.
 *
 * @example
 * throw uploadTooLarge(262_144_000);
 */
export function uploadTooLarge(maxFileBytes: number): ProblemException {
  return new ProblemException(413, {
    detail: `Files are limited to ${maxFileBytes} bytes`,
    headers: { Connection: 'close' },
  });
}

/** A received upload, already on disk in a temp file of the blob folder. */
export type ReceivedUpload = {
  tempPath: string;
  size: number;
  sha256: string;
  /** The part's filename as sent (not yet cleaned). */
  filename: string;
  /** The part's Content-Type as sent (not yet sanitized). */
  mimeType: string;
  /** Text fields (e.g. `description`), last value wins. */
  fields: Record<string, string>;
};

export type ReceiveUploadOptions = {
  blobDir: string;
  maxFileBytes: number;
  /** Name of the file field. */
  fileField?: string;
};

/**
 * Streams a `multipart/form-data` request: the `fileField` part goes to a new temp file in
 * `blobDir` while its sha256 is computed; memory use does not depend on the file size. Rejects
 * with a problem: 415 not multipart, 413 over `maxFileBytes` (from Content-Length before reading
 * anything, or once the limit is crossed), 400 malformed, 422 no file part. On any failure,
 * client abort included, the temp file is removed; on success the caller owns it.
 *
 * @example
 * const upload = await receiveUpload(c.req.raw, { blobDir: config.blobDir, maxFileBytes: MAX_UPLOAD_BYTES });
 * // ... insert the row and commitBlob(config.blobDir, upload.tempPath, id) in one transaction
 */
export async function receiveUpload(
  request: Request,
  options: ReceiveUploadOptions,
): Promise<ReceivedUpload> {
  const fileField = options.fileField ?? 'file';
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ProblemException(415, {
      detail: 'Expected a multipart/form-data body with a `file` part',
    });
  }
  const maxBodyBytes = options.maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBodyBytes) {
    throw uploadTooLarge(options.maxFileBytes);
  }
  if (!request.body) throw unprocessable([{ field: fileField, message: 'Required' }]);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Non-ASCII filenames arrive as raw UTF-8 from browsers.
      defParamCharset: 'utf8',
      // One byte over the maximum, so that a file of exactly the maximum is accepted.
      limits: {
        fileSize: options.maxFileBytes + 1,
        files: 1,
        fields: 8,
        fieldSize: 8 * 1024,
        parts: 16,
        headerPairs: 32,
      },
    });
  } catch {
    throw badRequest('Malformed multipart Content-Type', [
      { field: 'Content-Type', message: 'Missing or invalid boundary' },
    ]);
  }

  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream);
  const fields: Record<string, string> = {};
  let file:
    | {
        tempPath: string;
        stream: Readable;
        done: Promise<void>;
        hash: ReturnType<typeof createHash>;
        size: number;
        filename: string;
        mimeType: string;
      }
    | undefined;
  const onAbort = () => source.destroy(new Error('client aborted the upload'));
  request.signal.addEventListener('abort', onAbort, { once: true });

  try {
    await new Promise<void>((resolve, reject) => {
      let total = 0;
      // Counts every byte of the body: a body of unknown length stops at the limit too.
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          total += chunk.length;
          if (total > maxBodyBytes) callback(uploadTooLarge(options.maxFileBytes));
          else callback(null, chunk);
        },
      });
      parser.on('file', (name, stream, info) => {
        if (name !== fileField || file) {
          stream.resume(); // not ours: skip its bytes
          return;
        }
        const tempPath = tempBlobPath(options.blobDir);
        const hash = createHash('sha256');
        const entry = {
          tempPath,
          stream,
          hash,
          size: 0,
          filename: info.filename ?? '',
          mimeType: info.mimeType,
          done: Promise.resolve(),
        };
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            hash.update(chunk);
            entry.size += chunk.length;
            callback(null, chunk);
          },
        });
        stream.on('limit', () => reject(uploadTooLarge(options.maxFileBytes)));
        entry.done = pipeline(stream, meter, createTempWriteStream(tempPath));
        entry.done.catch(reject);
        file = entry;
      });
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) {
          reject(unprocessable([{ field: name, message: 'Too long' }]));
          return;
        }
        fields[name] = value;
      });
      parser.on('filesLimit', () => undefined);
      parser.on('partsLimit', () => reject(badRequest('Too many parts in the multipart body')));
      parser.on('fieldsLimit', () => reject(badRequest('Too many fields in the multipart body')));
      // Settle on the pipeline, not on the parser's 'close': a destroyed parser closes too.
      pipeline(source, counter, parser).then(resolve, reject);
    });
    if (!file)
      throw unprocessable([{ field: fileField, message: 'Required: a file part named `file`' }]);
    await file.done;
    return {
      tempPath: file.tempPath,
      size: file.size,
      sha256: file.hash.digest('hex'),
      filename: file.filename,
      mimeType: file.mimeType,
      fields,
    };
  } catch (error) {
    // Stop reading, stop writing, then delete what was written (after the write stream closed, so
    // the file cannot reappear).
    source.destroy();
    const pending = file;
    if (pending) {
      pending.stream.destroy();
      await pending.done.catch(() => undefined);
      await fsp.rm(pending.tempPath, { force: true });
    }
    if (error instanceof ProblemException) throw error;
    throw badRequest('Malformed or interrupted multipart body', [
      { field: '(body)', message: (error as Error).message },
    ]);
  } finally {
    request.signal.removeEventListener('abort', onAbort);
  }
}
