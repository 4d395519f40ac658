import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import type { TestServer } from './testing/http-server.ts';
import type { UploadProgress, XhrLike, XhrProgressLike } from './upload.ts';
import { createApiClient } from './client.ts';
import { ApiError } from './errors.ts';
import { MAX_UPLOAD_BYTES } from './schemas/attachments.ts';
import * as f from './testing/fixtures.ts';
import { sendJson, startTestServer } from './testing/http-server.ts';
import { assertUploadSize, multipartFraming, sendWithXhr, uploadTransport } from './upload.ts';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'wsc-upload-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});

const api = () =>
  createApiClient({
    baseUrl: `${server.origin}/v1`,
    getToken: async () => 'tok',
    headers: { 'X-CSRF': '1' },
  });

describe('Node transport (fetch with a counted stream)', () => {
  it('is chosen where there is no XMLHttpRequest', () => {
    expect(uploadTransport()).toBe('stream');
  });

  it('streams a file from disk as exact multipart bytes with a known Content-Length', async () => {
    const bytes = randomBytes(300_000);
    const file = join(dir, 'report "final".bin');
    await writeFile(file, bytes);
    server.handle((_req, res) => sendJson(res, 202, f.attachment));
    const progress: UploadProgress[] = [];

    const result = await api().uploadAttachment(
      'apps',
      'support',
      'SUP-42',
      { path: file },
      {
        description: 'Q4 — numbers',
        onProgress: (p) => progress.push(p),
      },
    );
    expect(result).toEqual(f.attachment);

    const [req] = server.requests;
    if (!req) throw new Error('no request');
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/apps/support/SUP-42/attachments');
    expect(req.headers.authorization).toBe('Bearer tok');
    expect(req.headers['x-csrf']).toBe('1');
    expect(req.headers['transfer-encoding']).toBeUndefined();
    expect(Number(req.headers['content-length'])).toBe(req.body.byteLength);

    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(
      String(req.headers['content-type']),
    )?.[1];
    expect(boundary).toMatch(/^----wsc-[0-9a-f]{32}$/);
    const expected = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nQ4 — numbers\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report %22final%22.bin"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    expect(req.body.equals(expected)).toBe(true);

    // An independent multipart parser (undici's) agrees.
    const form = await new Response(req.body, {
      headers: { 'Content-Type': String(req.headers['content-type']) },
    }).formData();
    expect(form.get('description')).toBe('Q4 — numbers');
    const part = form.get('file') as File;
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes)).toBe(true);

    const total = req.body.byteLength;
    expect(progress.at(-1)).toEqual({ loaded: total, total });
    expect(
      progress.every(
        (p, i) => p.total === total && (i === 0 || p.loaded > (progress[i - 1]?.loaded ?? 0)),
      ),
    ).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('uploads a Blob/File in Node, with its name and type', async () => {
    server.handle((_req, res) => sendJson(res, 202, f.attachment));
    const file = new File(['hello'], 'hello.txt', { type: 'text/plain' });
    await api().uploadAttachment('apps', 'support', 'SUP-42', file);
    const [req] = server.requests;
    const form = await new Response(req?.body, {
      headers: { 'Content-Type': String(req?.headers['content-type']) },
    }).formData();
    const part = form.get('file') as File;
    expect(part.name).toBe('hello.txt');
    expect(part.type).toBe('text/plain');
    expect(await part.text()).toBe('hello');
    expect(form.has('description')).toBe(false);
  });

  it('maps a server rejection to ApiError and never retries the POST', async () => {
    server.handle((_req, res) =>
      sendJson(res, 503, { type: 'about:blank', title: 'Service Unavailable', status: 503 }),
    );
    await expect(
      api().uploadAttachment('apps', 'support', 'SUP-42', new Blob(['x'])),
    ).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a file over 250 MiB with 413 file_too_large before any request', async () => {
    const huge = join(dir, 'huge.bin');
    await writeFile(huge, '');
    await truncate(huge, MAX_UPLOAD_BYTES + 1); // sparse: no disk space used
    let tokenAsked = false;
    const client = createApiClient({
      baseUrl: `${server.origin}/v1`,
      getToken: async () => ((tokenAsked = true), 'tok'),
    });
    const error = await client
      .uploadAttachment('apps', 'support', 'SUP-42', { path: huge })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, code: 'file_too_large' });
    expect(server.requests).toHaveLength(0);
    expect(tokenAsked).toBe(false);
  });

  it('accepts exactly 250 MiB in the pre-check', () => {
    expect(() => assertUploadSize(MAX_UPLOAD_BYTES)).not.toThrow();
    expect(() => assertUploadSize(MAX_UPLOAD_BYTES + 1)).toThrow(ApiError);
  });

  it('cancels mid-way: the request is cut off and the AbortError surfaces', async () => {
    const file = join(dir, 'big.bin');
    await writeFile(file, randomBytes(8 * 1024 * 1024));
    let received = 0;
    let completed = false;
    let closed: () => void = () => undefined;
    const requestClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const raw = createServer((req: IncomingMessage, res) => {
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      req.on('end', () => {
        completed = true;
        res.end();
      });
      req.on('close', closed);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = raw.address() as AddressInfo;
      const controller = new AbortController();
      const client = createApiClient({ baseUrl: `http://127.0.0.1:${port}/v1` });
      const error = await client
        .uploadAttachment(
          'apps',
          'support',
          'SUP-42',
          { path: file },
          {
            signal: controller.signal,
            onProgress: (p) => {
              if (p.loaded >= 2 * 1024 * 1024) controller.abort();
            },
          },
        )
        .catch((e: unknown) => e);
      expect((error as Error).name).toBe('AbortError');
      await requestClosed;
      expect(completed).toBe(false);
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(8 * 1024 * 1024);
    } finally {
      raw.closeAllConnections();
      raw.close();
    }
  });

  it('frames with a fresh random boundary each time', () => {
    const a = multipartFraming('a', 'text/plain');
    const b = multipartFraming('a', 'text/plain');
    expect(a.boundary).not.toBe(b.boundary);
    expect(new TextDecoder().decode(a.tail)).toBe(`\r\n--${a.boundary}--\r\n`);
  });
});

/** A small stand-in for the browser's XMLHttpRequest: records what is sent, answers on demand. */
class FakeXhr implements XhrLike {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  requestHeaders: Record<string, string> = {};
  body: FormData | undefined;
  aborted = false;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders = '';
  withCredentials = true;
  upload: { onprogress: ((event: XhrProgressLike) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.requestHeaders[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  respond(status: number, body: unknown, headers = 'content-type: application/json\r\n') {
    this.status = status;
    this.statusText = status === 202 ? 'Accepted' : 'Error';
    this.responseText = JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

function lastXhr(): FakeXhr {
  if (!FakeXhr.last) throw new Error('no XMLHttpRequest was created');
  return FakeXhr.last;
}

/** Lets the client's async set-up (size check, token) run until it calls `send`. */
async function untilSent(): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.last?.body).toBeDefined());
  return lastXhr();
}

describe('browser transport (XMLHttpRequest)', () => {
  beforeEach(() => {
    FakeXhr.last = undefined;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const browserApi = () => createApiClient({ baseUrl: '/api/v1', headers: { 'X-CSRF': '1' } });

  it('is chosen where XMLHttpRequest exists', () => {
    expect(uploadTransport()).toBe('xhr');
  });

  it('posts FormData with the extra headers, same-origin credentials, and reports progress', async () => {
    const progress: UploadProgress[] = [];
    const file = new File(['hello world'], 'notes.txt', { type: 'text/plain' });
    const pending = browserApi().uploadAttachment('apps', 'sup port', 'SUP-42', file, {
      description: 'notes',
      onProgress: (p) => progress.push(p),
    });
    const xhr = await untilSent();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/v1/apps/sup%20port/SUP-42/attachments');
    expect(xhr.requestHeaders['X-CSRF']).toBe('1');
    expect(xhr.requestHeaders['Authorization']).toBeUndefined();
    expect(xhr.withCredentials).toBe(false);
    expect(xhr.body?.get('description')).toBe('notes');
    expect((xhr.body?.get('file') as File).name).toBe('notes.txt');

    xhr.progress(100, 300);
    xhr.progress(250, 300);
    xhr.respond(202, f.attachment);
    await expect(pending).resolves.toEqual(f.attachment);
    expect(progress).toEqual([
      { loaded: 100, total: 300 },
      { loaded: 250, total: 300 },
      { loaded: 300, total: 300 },
    ]);
  });

  it('aborts the XHR when the signal fires and rethrows the AbortError', async () => {
    const controller = new AbortController();
    const pending = browserApi().uploadAttachment('apps', 'support', 'SUP-42', new Blob(['x']), {
      signal: controller.signal,
    });
    const xhr = await untilSent();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(xhr.aborted).toBe(true);
  });

  it('maps an error answer through the same ApiError path', async () => {
    const pending = browserApi().uploadAttachment('apps', 'support', 'SUP-42', new Blob(['x']));
    const xhr = await untilSent();
    xhr.respond(
      422,
      {
        type: 'about:blank',
        title: 'Unprocessable',
        status: 422,
        errors: [{ field: 'file', message: 'empty' }],
      },
      'content-type: application/problem+json\r\n',
    );
    await expect(pending).rejects.toMatchObject({
      status: 422,
      errors: [{ field: 'file', message: 'empty' }],
    });
  });

  it('maps a transport failure to network_error (and does not retry the POST)', async () => {
    const pending = browserApi().uploadAttachment('apps', 'support', 'SUP-42', new Blob(['x']));
    const xhr = await untilSent();
    FakeXhr.last = undefined;
    xhr.onerror?.();
    await expect(pending).rejects.toMatchObject({ status: 0, code: 'network_error' });
    expect(FakeXhr.last).toBeUndefined();
  });

  it('refuses a file path in the browser', async () => {
    await expect(
      sendWithXhr(
        { url: '/x', headers: {}, file: { path: '/etc/hosts' }, fetch: globalThis.fetch },
        FakeXhr,
      ),
    ).rejects.toThrow(/only be uploaded from Node/);
  });
});
