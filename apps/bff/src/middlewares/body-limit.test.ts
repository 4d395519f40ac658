// JSON bodies of the BFF's own routes (DESIGN.md section 6): sign-in and saved views 16 KiB,
// every other /bff route 1 MiB; 413 from the declared length before a body byte is read, and at
// the first byte past the limit for a body sent without a length. Over a real socket, so "before
// reading" means the answer comes while the client has not sent the body.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../test/fake-upstream.ts';
import type { Harness } from '../../test/harness.ts';
import { startFakeUpstream } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { regionFor } from '../lib/config.ts';
import { SESSION_COOKIE } from '../lib/sessions.ts';

const KIB = 1024;
const MIB = 1024 * KIB;

let upstream: FakeUpstream;
let h: Harness;
let port: number;
let cookie: string;

beforeAll(async () => {
  upstream = await startFakeUpstream({ mode: 'hosted' });
  h = await createHarness({
    upstream,
    socket: true,
    config: { regions: [regionFor('default', upstream.apiUrl, { profile: 'hosted' })] },
  });
  port = Number(new URL(await h.listen()).port);
  ({ cookie } = await h.login());
});
afterAll(async () => {
  await h.close();
  await upstream.close();
});

/**
 * Write `head`, then `body` (if any) without ending the request, and resolve with the status of
 * the answer; the socket is left open meanwhile, so an answer proves the server did not wait.
 */
const answerTo = (head: string, body?: Buffer): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer while the body was pending: ${head.split('\r\n')[0]}`));
    }, 30_000);
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const end = data.indexOf('\r\n\r\n');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      const length = /content-length: (\d+)/i.exec(data);
      const bodyless = match?.[1] === '204' || match?.[1] === '304';
      const whole = bodyless || (length && data.length >= end + 4 + Number(length[1]));
      if (match && end !== -1 && whole) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(match[1]), text: data.slice(end + 4) });
      }
    });
    socket.on('error', reject);
    socket.write(head);
    if (body) socket.write(body);
  });

const head = (method: string, path: string, length: number | 'chunked') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
  `X-CSRF: 1\r\nCookie: ${SESSION_COOKIE}=${cookie}\r\n\r\n`;

/** One chunk of chunked framing, without the terminating zero chunk. */
const chunk = (bytes: number) =>
  Buffer.concat([
    Buffer.from(`${bytes.toString(16)}\r\n`),
    Buffer.alloc(bytes, 0x20),
    Buffer.from('\r\n'),
  ]);

/** `reads`: the route reads a JSON body (the others answer without reading one). */
const ROUTES: { method: string; path: string; limit: number; reads: boolean }[] = [
  { method: 'POST', path: '/bff/login', limit: 16 * KIB, reads: true },
  { method: 'POST', path: '/bff/views', limit: 16 * KIB, reads: true },
  {
    method: 'PUT',
    path: '/bff/views/00000000-0000-4000-8000-000000000000',
    limit: 16 * KIB,
    reads: true,
  },
  { method: 'POST', path: '/bff/workspace/sample', limit: MIB, reads: true },
  { method: 'PUT', path: '/bff/workspace/definitions/apps/support', limit: MIB, reads: true },
  // Routes that read no body, and routes that do not exist, are bounded all the same.
  { method: 'POST', path: '/bff/logout', limit: MIB, reads: false },
  {
    method: 'PUT',
    path: '/bff/views/00000000-0000-4000-8000-000000000000/default',
    limit: MIB,
    reads: false,
  },
  { method: 'POST', path: '/bff/no-such-route', limit: MIB, reads: false },
];

describe('JSON body limits of the /bff routes', () => {
  it('answer 413 from a declared length over the limit, before any body byte is sent', async () => {
    for (const { method, path, limit } of ROUTES) {
      const { status, text } = await answerTo(head(method, path, limit + 1));
      expect(status, `${method} ${path}`).toBe(413);
      expect(JSON.parse(text), path).toMatchObject({ status: 413, type: 'urn:wsc:bff:too_large' });
      // A 1 GB declaration is answered just as fast.
      expect((await answerTo(head(method, path, 1024 * MIB))).status, path).toBe(413);
    }
    expect(upstream.apiRequests()).toEqual([]);
  });

  it('answer 413 at the first chunk past the limit of a body sent without a length', async () => {
    for (const { method, path, limit, reads } of ROUTES) {
      // limit + 1 bytes, and the body never ends: the answer cannot have waited for it.
      const { status } = await answerTo(head(method, path, 'chunked'), chunk(limit + 1));
      // A route that reads no body answers without reading it (and the rest is discarded).
      if (reads) expect(status, `${method} ${path}`).toBe(413);
      else expect(status, `${method} ${path}`).not.toBe(413);
    }
  });

  it('let a body within the limit through to the route (which then judges it)', async () => {
    const { status } = await answerTo(
      head('POST', '/bff/login', 16 * KIB),
      Buffer.alloc(16 * KIB, 0x20),
    );
    // Spaces are not a sign-in: the route's own 400, not the limit's 413.
    expect(status).toBe(400);
  });
});
