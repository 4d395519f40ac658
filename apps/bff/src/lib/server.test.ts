// The BFF's own HTTP server limits (DESIGN.md section 6: servers), on real sockets with short
// values: headers timeout, the whole-request deadline (an admitted upload excepted), keep-alive
// timeout and the connection cap.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import type { ServerLimits } from './config.ts';
import { createHarness } from '../../test/harness.ts';
import { startServer } from './server.ts';
import { SESSION_COOKIE } from './sessions.ts';

const LIMITS: ServerLimits = {
  headersTimeoutMs: 500,
  requestTimeoutMs: 700,
  uploadTimeoutMs: 10_000,
  keepAliveTimeoutMs: 400,
  maxConnections: 4,
};

let h: Harness;
let server: Server;
let port: number;
let cookie: string;

beforeAll(async () => {
  h = await createHarness({ config: { server: LIMITS } });
  server = startServer(h.app.fetch, {
    port: 0,
    hostname: '127.0.0.1',
    limits: LIMITS,
    checkIntervalMs: 50,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});
beforeEach(async () => {
  h.upstream.reset();
  ({ cookie } = await h.login());
  h.upstream.reset();
});

/** A raw connection that records what it receives and when it closes. */
async function open(): Promise<{ socket: Socket; data: () => string; closedAt: () => number }> {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  let closedAt = 0;
  socket.on('data', (chunk) => (data += chunk.toString()));
  socket.on('close', () => (closedAt = Date.now()));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, data: () => data, closedAt: () => closedAt };
}

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** Send `total` bytes, `piece` at a time every `everyMs` (each pause well under the body idle timeout). */
const drip = async (socket: Socket, total: number, piece: number, everyMs: number) => {
  for (let sent = 0; sent < total && !socket.destroyed; sent += piece) {
    socket.write(Buffer.alloc(Math.min(piece, total - sent), 0x20));
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

/** The JSON body of a raw HTTP answer. */
const bodyOf = (raw: string): unknown => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('requests the HTTP parser refuses', () => {
  it('answers headers over 16 KiB (a long proxied filter) with a 431 problem, then closes', async () => {
    const c = await open();
    const filter = encodeURIComponent(`Title==${'x'.repeat(17_000)}`);
    c.socket.write(
      `GET /api/v1/apps/support-tickets?filter=${filter} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`,
    );
    await until(() => c.closedAt() > 0, 3_000);
    expect(c.data()).toMatch(/^HTTP\/1\.1 431 /);
    expect(c.data()).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(bodyOf(c.data())).toEqual({
      type: 'urn:wsc:bff:headers-too-large',
      title: 'Request Header Fields Too Large',
      status: 431,
      detail: expect.stringContaining('16 KiB'),
    });
    expect(h.upstream.requests).toHaveLength(0);
  });

  it('answers a malformed request line with a 400 problem', async () => {
    const c = await open();
    c.socket.write('GET /bff/health HTTP/1.1 extra\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => c.closedAt() > 0, 3_000);
    expect(c.data()).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(c.data())).toMatchObject({
      type: 'urn:wsc:bff:malformed-request',
      detail: 'Malformed HTTP request',
    });
  });
});

describe('server limits', () => {
  it('closes a connection whose headers do not arrive within headersTimeout (408)', async () => {
    const c = await open();
    const started = Date.now();
    c.socket.write(`GET /bff/health HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    await until(() => c.closedAt() > 0, 3_000);
    expect(c.data()).toMatch(/^HTTP\/1\.1 408/);
    expect(bodyOf(c.data())).toMatchObject({ type: 'urn:wsc:bff:request-timeout', status: 408 });
    expect(c.closedAt() - started).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
    expect(c.closedAt() - started).toBeLessThan(LIMITS.headersTimeoutMs + 1_000);
  });

  it('cuts off a body that keeps trickling past requestTimeout: sign-in and proxied JSON PUTs', async () => {
    // A record's PUT is read whole by the BFF first (the record history compares it with the
    // record), so nothing of it reaches the API; a group's PUT streams upstream as it arrives.
    for (const target of ['/bff/login', '/api/v1/apps/support/SUP-1', '/api/v1/groups/g1']) {
      const c = await open();
      const started = Date.now();
      c.socket.write(
        `${target === '/bff/login' ? 'POST' : 'PUT'} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Content-Type: application/json\r\nContent-Length: 1000\r\nX-CSRF: 1\r\n` +
          `Cookie: ${SESSION_COOKIE}=${cookie}\r\n\r\n`,
      );
      // One byte every 50 ms never stalls (no idle timeout) but would take 50 s in all.
      void drip(c.socket, 1000, 1, 50);
      await until(() => c.closedAt() > 0, 3_000);
      expect(c.data(), target).toMatch(/^HTTP\/1\.1 408/);
      expect(c.data(), target).toContain('urn:wsc:bff:request_timeout');
      expect(c.closedAt() - started, target).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
      expect(c.closedAt() - started, target).toBeLessThan(LIMITS.requestTimeoutMs + 1_000);
    }
    // The record's PUT never left the BFF; the group's was on its way upstream, and was abandoned
    // there too.
    expect(h.upstream.apiRequests().map((r) => `${r.method} ${r.url}`)).toEqual([
      'PUT /v1/groups/g1',
    ]);
    await until(() => h.upstream.apiRequests()[0]?.abortedAt !== undefined, 2_000);
    expect(h.upstream.apiRequests()[0]?.completed).toBe(false);
  });

  it('lets an admitted upload take longer than requestTimeout (its pauses stay under the idle timeout)', async () => {
    const size = 16 * 1024;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/apps/support/SUP-1/attachments',
          headers: {
            'content-length': String(size),
            'content-type': 'multipart/form-data; boundary=x',
            'x-csrf': '1',
            cookie: `${SESSION_COOKIE}=${cookie}`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      void (async () => {
        // 16 KiB over ~1.6 s: more than twice the request deadline.
        for (let i = 0; i < 16; i++) {
          req.write(Buffer.alloc(1024, 1));
          await new Promise((r) => setTimeout(r, 100));
        }
        req.end();
      })();
    });
    expect(status).toBe(200);
    expect(h.upstream.apiRequests()[0]?.bytes).toBe(size);
  });

  it('does not except an upload nobody admitted (no session): it is answered, then cut', async () => {
    const c = await open();
    c.socket.write(
      `POST /api/v1/apps/support/SUP-1/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\nX-CSRF: 1\r\n\r\n`,
    );
    void drip(c.socket, 100000, 10, 50);
    await until(() => c.closedAt() > 0, 3_000);
    expect(c.data()).toMatch(/^HTTP\/1\.1 401/);
    expect(h.upstream.requests).toHaveLength(0);
  });

  it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
    const c = await open();
    c.socket.write(`GET /bff/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await until(() => c.data().includes('"status":"ok"'));
    const answeredAt = Date.now();
    await until(() => c.closedAt() > 0, 3_000);
    expect(c.closedAt() - answeredAt).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 100);
    // Node 20 waits a fixed second past keepAliveTimeout (against races with the client).
    expect(c.closedAt() - answeredAt).toBeLessThan(LIMITS.keepAliveTimeoutMs + 2_000);
  });

  it('refuses connections past maxConnections at accept, and takes new ones once some close', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, () => open()));
    const extra = await open();
    await until(() => extra.closedAt() > 0, 1_000);
    expect(extra.data()).toBe('');
    for (const c of held) c.socket.destroy();
    await until(() => held.every((c) => c.closedAt() > 0));
    await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`http://127.0.0.1:${port}/bff/health`);
    expect(res.status).toBe(200);
  });
});
