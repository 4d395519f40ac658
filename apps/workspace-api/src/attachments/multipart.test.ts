import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemException } from '../lib/errors.ts';
import { receiveUpload } from './multipart.ts';

const BOUNDARY = 'xYzBoundary';
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wsa-multipart-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** A body of unknown length (no Content-Length), delivered in small chunks. */
function chunked(bytes: Buffer, chunk = 1000): Request {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
  return new Request('http://x/upload', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
  } as RequestInit);
}

function fileBody(data: Buffer, extra = ''): Buffer {
  return Buffer.concat([
    Buffer.from(
      `${extra}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(
      `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nabout it\r\n--${BOUNDARY}--\r\n`,
    ),
  ]);
}

const entries = () => fs.readdir(dir);

describe('receiveUpload', () => {
  it('streams a file of exactly the limit to a temp file with its sha256 and fields', async () => {
    const data = randomBytes(5000);
    const upload = await receiveUpload(chunked(fileBody(data)), {
      blobDir: dir,
      maxFileBytes: 5000,
    });
    expect(upload.size).toBe(5000);
    expect(upload.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    expect(upload.fields).toEqual({ description: 'about it' });
    expect((await fs.readFile(upload.tempPath)).equals(data)).toBe(true);
    await fs.rm(upload.tempPath);
  });

  it('stops at the limit when no length is known: 413 and no temp file', async () => {
    const error = await receiveUpload(chunked(fileBody(randomBytes(5001))), {
      blobDir: dir,
      maxFileBytes: 5000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemException);
    expect((error as ProblemException).status).toBe(413);
    expect(await entries()).toEqual([]);
  });

  it('counts the whole body too, so padding outside the file part cannot stream forever', async () => {
    const padded = fileBody(Buffer.from('small'), 'p'.repeat(200_000));
    const error = await receiveUpload(chunked(padded, 4096), {
      blobDir: dir,
      maxFileBytes: 10,
    }).catch((e: unknown) => e);
    expect((error as ProblemException).status).toBe(413);
    expect(await entries()).toEqual([]);
  });

  it('answers 400 for a missing boundary', async () => {
    const request = new Request('http://x', {
      method: 'POST',
      body: 'x',
      headers: { 'Content-Type': 'multipart/form-data; charset=utf-8' },
    });
    const error = await receiveUpload(request, { blobDir: dir, maxFileBytes: 10 }).catch(
      (e: unknown) => e,
    );
    expect((error as ProblemException).status).toBe(400);
  });
});
