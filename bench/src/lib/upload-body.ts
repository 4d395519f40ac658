// A multipart/form-data upload body of any size, generated on the fly (a 1 MiB pattern repeated),
// so a 250 MiB upload never sits in the benchmark's own memory either.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';

export type UploadBody = {
  boundary: string;
  length: number;
  contentType: string;
  stream: () => Readable;
};

/**
 * A multipart body with one `file` part of `fileBytes` bytes.
 *
 * @example
 * const body = multipartBody(250 * 1024 * 1024, 'big.bin');
 * body.length; // exact Content-Length
 */
export function multipartBody(fileBytes: number, filename: string): UploadBody {
  const boundary = `----bench${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pattern = randomBytes(1024 * 1024);
  return {
    boundary,
    length: head.length + fileBytes + tail.length,
    contentType: `multipart/form-data; boundary=${boundary}`,
    stream: () =>
      Readable.from(
        (function* () {
          yield head;
          for (let sent = 0; sent < fileBytes; sent += pattern.length) {
            yield sent + pattern.length <= fileBytes
              ? pattern
              : pattern.subarray(0, fileBytes - sent);
          }
          yield tail;
        })(),
      ),
  };
}

/**
 * POSTs an upload body and resolves with the status, the reply and the elapsed milliseconds.
 *
 * @example
 * const { status, ms } = await sendUpload(url, body, { Authorization: `Bearer ${token}` });
 */
export function sendUpload(
  url: string,
  body: UploadBody,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': body.contentType,
        'Content-Length': String(body.length),
      },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          ms: performance.now() - started,
          reply: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    body.stream().pipe(request);
  });
}
