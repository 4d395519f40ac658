import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_UPLOAD_BYTES, ProblemSchema } from '@wsc/api-client';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { blobPath, sweepBlobDir, writeBlob } from '../../attachments/blobs.ts';
import { insertRecords } from '../../records/records.ts';

let h: Harness;
let ticket: string;
let refund: string;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  const tickets = h.deps.workspace.find('apps', 'support-tickets');
  const refunds = h.deps.workspace.find('transactions', 'refunds');
  if (!tickets || !refunds) throw new Error('demo workspace missing');
  ticket =
    (
      await insertRecords(h.db, tickets, [{ Title: 'Files', Status: 'New' }], h.users.admin.email)
    )[0]?.id ?? '';
  refund =
    (
      await insertRecords(
        h.db,
        refunds,
        [{ Reason: 'R', Amount: '1', Currency: 'EUR', Status: 'Paid' }],
        h.users.admin.email,
      )
    )[0]?.id ?? '';
  base = `/v1/apps/support-tickets/${ticket}/attachments`;
});
afterAll(() => h.close());

const BOUNDARY = '----wsc-test-boundary';

/** A multipart body built by hand, so tests can send names FormData would escape. */
function multipart(
  parts: Array<{
    name: string;
    filename?: string;
    filenameStar?: string;
    type?: string;
    data: string | Buffer;
  }>,
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    if (part.filenameStar !== undefined) head += `; filename*=UTF-8''${part.filenameStar}`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

async function send(
  method: string,
  target: string,
  init: { token?: string; body?: RequestInit['body']; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  return h.app.request(target, {
    method,
    headers,
    ...(init.body !== undefined ? { body: init.body, duplex: 'half' } : {}),
  } as RequestInit);
}

async function uploadRaw(body: Buffer, token = h.tokens.member, target = base) {
  return send('POST', target, {
    token,
    body,
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

async function upload(file: File, description?: string, token = h.tokens.member) {
  const form = new FormData();
  form.append('file', file);
  if (description !== undefined) form.append('description', description);
  return send('POST', base, { token, body: form });
}

async function blobDirEntries(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      else out.push(entry.name);
    }
  };
  await walk(h.config.blobDir);
  return out;
}

const tempFiles = async () =>
  (await blobDirEntries()).filter((name) => name.startsWith('.upload-'));

describe('upload and download', () => {
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
  const sha = createHash('sha256').update(bytes).digest('hex');
  let attachment: ReturnType<typeof AttachmentSchema.parse>;

  it('uploads a file (202 Attachment) and downloads the same bytes (sha256 round trip)', async () => {
    const res = await upload(
      new File([bytes], 'résumé ✓.bin', { type: 'application/x-custom' }),
      'My file',
    );
    expect(res.status).toBe(202);
    attachment = AttachmentSchema.parse(await res.json());
    expect(attachment).toMatchObject({
      name: 'résumé ✓.bin',
      description: 'My file',
      mediaType: 'application/x-custom',
      size: bytes.length,
      state: 'VALID',
      viewState: 'PRIVATE',
      sha256: sha,
      createdBy: 'agent@example.com',
      contentUrl: `${base}/${attachment.id}/content`,
    });
    const download = await send('GET', attachment.contentUrl ?? '', { token: h.tokens.member });
    expect(download.status).toBe(200);
    const got = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(sha);
    expect(download.headers.get('ETag')).toBe(`"${sha}"`);
    expect(download.headers.get('Content-Length')).toBe(String(bytes.length));
    expect(await tempFiles()).toEqual([]);
    expect(await blobDirEntries()).toContain(attachment.id);
  });

  it('sends safe headers: attachment disposition (RFC 5987), nosniff, sandbox CSP, Accept-Ranges', async () => {
    const res = await send('GET', attachment.contentUrl ?? '', { token: h.tokens.member });
    await res.arrayBuffer();
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="r_sum_ _.bin"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%9C%93.bin`,
    );
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Security-Policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('Accept-Ranges')).toBe('bytes');
    expect(res.headers.get('Content-Type')).toBe('application/x-custom');
  });

  it('serves single ranges (206 + Content-Range), suffix ranges, 416 when unsatisfiable, 304 on ETag', async () => {
    const url = attachment.contentUrl ?? '';
    const part = await send('GET', url, {
      token: h.tokens.member,
      headers: { Range: 'bytes=100-199' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await send('GET', url, {
      token: h.tokens.member,
      headers: { Range: 'bytes=-10' },
    });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true);
    const open = await send('GET', url, {
      token: h.tokens.member,
      headers: { Range: `bytes=${bytes.length - 5}-` },
    });
    expect(open.headers.get('Content-Range')).toBe(
      `bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`,
    );
    await open.arrayBuffer();
    const bad = await send('GET', url, {
      token: h.tokens.member,
      headers: { Range: `bytes=${bytes.length}-` },
    });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('Content-Range')).toBe(`bytes */${bytes.length}`);
    expect(((await bad.json()) as { title: string }).title).toBe('Range Not Satisfiable');
    const stale = await send('GET', url, {
      token: h.tokens.member,
      headers: { Range: 'bytes=0-9', 'If-Range': '"other"' },
    });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const cached = await send('GET', url, {
      token: h.tokens.member,
      headers: { 'If-None-Match': `"${sha}"` },
    });
    expect(cached.status).toBe(304);
  });

  it('lists attachments as a bare array and gets one; 404 for unknown or malformed ids', async () => {
    const list = AttachmentListSchema.parse(
      (await h.request('GET', base, { token: h.tokens.member })).json,
    );
    expect(list.map((item) => item.id)).toContain(attachment.id);
    const one = AttachmentSchema.parse(
      (await h.request('GET', `${base}/${attachment.id}`, { token: h.tokens.member })).json,
    );
    expect(one.sha256).toBe(sha);
    for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'not-a-uuid']) {
      const res = await h.request('GET', `${base}/${id}`, { token: h.tokens.member });
      expect(res.status).toBe(404);
      ProblemSchema.parse(res.json);
      expect(
        (await h.request('GET', `${base}/${id}/content`, { token: h.tokens.member })).status,
      ).toBe(404);
    }
  });

  it('deletes the row and the blob (200), then 404', async () => {
    expect(
      (await h.request('DELETE', `${base}/${attachment.id}`, { token: h.tokens.member })).status,
    ).toBe(200);
    expect(await blobDirEntries()).not.toContain(attachment.id);
    expect(
      (await h.request('GET', `${base}/${attachment.id}`, { token: h.tokens.member })).status,
    ).toBe(404);
    expect(
      (await h.request('DELETE', `${base}/${attachment.id}`, { token: h.tokens.member })).status,
    ).toBe(404);
  });
});

describe('cleaning what clients send', () => {
  it('strips paths and control/bidi characters from names, keeps unicode', async () => {
    const res = await uploadRaw(
      // RFC 5987 form, so control characters reach the server as they would from a hostile client.
      multipart([
        {
          name: 'file',
          filenameStar: encodeURIComponent('..\\..\\secret/../x/in\u0007\u202Evoice\tü.txt'),
          type: 'text/plain',
          data: 'hi',
        },
      ]),
    );
    expect(res.status).toBe(202);
    expect(AttachmentSchema.parse(await res.json()).name).toBe('invoiceü.txt');
    const dots = AttachmentSchema.parse(
      await (await uploadRaw(multipart([{ name: 'file', filename: '..', data: 'x' }]))).json(),
    );
    expect(dots.name).toBe('attachment');
  });

  it('sanitizes media types and serves risky ones as octet-stream in a sandbox', async () => {
    const weird = AttachmentSchema.parse(
      await (
        await uploadRaw(
          multipart([
            { name: 'file', filename: 'a.csv', type: 'Text/CSV; charset=utf-8', data: 'x' },
          ]),
        )
      ).json(),
    );
    expect(weird.mediaType).toBe('text/csv');
    const html = AttachmentSchema.parse(
      await (
        await upload(new File(['<script>alert(1)</script>'], 'x.html', { type: 'text/html' }))
      ).json(),
    );
    expect(html.mediaType).toBe('text/html');
    const svg = AttachmentSchema.parse(
      await (await upload(new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' }))).json(),
    );
    for (const item of [html, svg]) {
      const res = await send('GET', item.contentUrl ?? '', { token: h.tokens.member });
      await res.arrayBuffer();
      expect(res.headers.get('Content-Type')).toBe('application/octet-stream');
      expect(res.headers.get('Content-Disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('Content-Security-Policy')).toContain('sandbox');
    }
  });

  it('answers 422 without a file part, 415 for non-multipart, 400 for a broken body; no temp file is left', async () => {
    const missing = await uploadRaw(multipart([{ name: 'description', data: 'no file' }]));
    expect(missing.status).toBe(422);
    expect(ProblemSchema.parse(await missing.json()).errors?.[0]?.field).toBe('file');
    const json = await send('POST', base, {
      token: h.tokens.member,
      body: '{}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(415);
    const cut = multipart([{ name: 'file', filename: 'a.txt', data: 'x'.repeat(5000) }]).subarray(
      0,
      3000,
    );
    expect((await uploadRaw(cut)).status).toBe(400);
    const longDescription = await upload(new File(['x'], 'a.txt'), 'd'.repeat(1001));
    expect(longDescription.status).toBe(422);
    expect(await tempFiles()).toEqual([]);
  });
});

describe('limits and interruptions', () => {
  it('answers 413 from Content-Length without reading the body, leaving no temp file', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          controller.enqueue(new TextEncoder().encode(`--${BOUNDARY}\r\n`));
        },
      },
      { highWaterMark: 0 },
    );
    const res = await send('POST', base, {
      token: h.tokens.member,
      body,
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(MAX_UPLOAD_BYTES + 10_000_000),
      },
    });
    expect(res.status).toBe(413);
    expect(ProblemSchema.parse(await res.json()).status).toBe(413);
    expect(pulls).toBe(0);
    expect(await tempFiles()).toEqual([]);
  });

  describe('over a real socket', () => {
    let server: ServerType;
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => {
        server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
          port = info.port;
          resolve();
        });
      });
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    function rawRequest(headers: Record<string, string>) {
      const socket = net.connect(port, '127.0.0.1');
      const head = [
        `POST ${base} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${h.tokens.member}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      return { socket, closed, received: () => received };
    }

    async function until(check: () => Promise<boolean> | boolean, ms = 5000) {
      const deadline = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it('leaves no row and no file when the client aborts mid-upload', async () => {
      const before = await h.db
        .selectFrom('attachments')
        .select('id')
        .where('record_id', '=', ticket)
        .execute();
      const partHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const req = rawRequest({
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(4_000_000),
      });
      req.socket.write(partHead);
      req.socket.write(Buffer.alloc(1_000_000, 7));
      await until(async () => (await tempFiles()).length > 0);
      req.socket.destroy();
      await until(async () => (await tempFiles()).length === 0);
      const after = await h.db
        .selectFrom('attachments')
        .select('id')
        .where('record_id', '=', ticket)
        .execute();
      expect(after).toHaveLength(before.length);
      expect((await blobDirEntries()).length).toBe(
        before.length -
          (
            await h.db
              .selectFrom('attachments')
              .select('id')
              .where('blob_key', 'is', null)
              .where('record_id', '=', ticket)
              .execute()
          ).length,
      );
    });

    it('answers 413 and closes the connection for a huge Content-Length with a tiny body', async () => {
      const req = rawRequest({
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(MAX_UPLOAD_BYTES * 2),
      });
      req.socket.write(`--${BOUNDARY}\r\n`);
      await req.closed;
      expect(req.received()).toMatch(/^HTTP\/1\.1 413/);
      expect(await tempFiles()).toEqual([]);
    });
  });
});

describe('URL links', () => {
  it('adds an http(s) link (201 echo) that lists as text/uri-list with size 0 and no content', async () => {
    const res = await h.request('POST', `${base}/url-links`, {
      token: h.tokens.member,
      body: { url: 'https://example.com/a b?x=1', description: 'Docs' },
    });
    expect(res.status).toBe(201);
    const link = UrlLinkSchema.parse(res.json);
    expect(link).toMatchObject({ url: 'https://example.com/a%20b?x=1', description: 'Docs' });
    const listed = AttachmentListSchema.parse(
      (await h.request('GET', base, { token: h.tokens.member })).json,
    ).find((item) => item.id === link.id);
    expect(listed).toMatchObject({
      mediaType: 'text/uri-list',
      url: 'https://example.com/a%20b?x=1',
      size: 0,
      contentUrl: null,
    });
    expect(listed?.sha256).toBeUndefined();
    expect(
      (await h.request('GET', `${base}/${link.id ?? ''}/content`, { token: h.tokens.member }))
        .status,
    ).toBe(404);
  });

  it('rejects javascript:, data:, relative and other schemes with 422 on url', async () => {
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      '/relative',
      'ftp://example.com/x',
      'JAVASCRIPT://x%0aalert(1)',
    ]) {
      const res = await h.request('POST', `${base}/url-links`, {
        token: h.tokens.member,
        body: { url },
      });
      expect(res.status).toBe(422);
      expect(ProblemSchema.parse(res.json).errors?.[0]?.field).toBe('url');
    }
  });
});

describe('permissions', () => {
  it('answers 403 to a member on a closed definition and 404 for unknown records', async () => {
    const refundBase = `/v1/transactions/refunds/${refund}/attachments`;
    expect((await h.request('GET', refundBase, { token: h.tokens.member })).status).toBe(403);
    const denied = await send('POST', refundBase, {
      token: h.tokens.member,
      body: multipart([{ name: 'file', filename: 'a.txt', data: 'x' }]),
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    expect(denied.status).toBe(403);
    expect(
      (
        await h.request('POST', `${refundBase}/url-links`, {
          token: h.tokens.member,
          body: { url: 'https://x.y' },
        })
      ).status,
    ).toBe(403);
    expect((await h.request('GET', refundBase, { token: h.tokens.billing })).status).toBe(200);
    expect(
      (
        await h.request('GET', '/v1/apps/support-tickets/SUP-31337/attachments', {
          token: h.tokens.member,
        })
      ).status,
    ).toBe(404);
    expect(await tempFiles()).toEqual([]);
  });
});

describe('start-up recovery', () => {
  it('removes temp files and blobs without a row, and keeps blobs that have one', async () => {
    const kept = AttachmentSchema.parse(
      await (await upload(new File(['keep me'], 'keep.txt'))).json(),
    );
    const orphan = '0f8fad5b-d9cb-469f-a165-70867728950e';
    await writeBlob(h.config.blobDir, orphan, Buffer.from('crashed between rename and commit'));
    await fs.writeFile(path.join(h.config.blobDir, '.upload-deadbeef'), 'half an upload');
    const result = await sweepBlobDir(h.db, h.config.blobDir);
    expect(result).toEqual({ temps: 1, orphans: 1 });
    await expect(fs.stat(blobPath(h.config.blobDir, orphan))).rejects.toThrow();
    expect(await fs.readFile(blobPath(h.config.blobDir, kept.id), 'utf8')).toBe('keep me');
    expect(await tempFiles()).toEqual([]);
  });
});
