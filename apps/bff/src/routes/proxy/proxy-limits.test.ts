// The proxy's limits under load, faults and bad input (DESIGN.md section 6), each shown by
// performing the attack over a real loopback socket: in-flight caps per session, user and region
// (and that slots come back on completion, abort and error), a stalled download, JSON bodies over
// 1 MiB, the response type allowlist, and the upstream URL built from tricky paths.
import { connect } from 'node:net';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import { echoRoute, OTHER_CLIENT_ID, OTHER_CLIENT_SECRET } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { upstreamUrl } from './proxy-rules.ts';

const IDLE_MS = 400;

let h: Harness;
let base: string;
let cookie: string;

beforeAll(async () => {
  h = await createHarness({
    socket: true,
    config: {
      bodyIdleTimeoutMs: IDLE_MS,
      upstreamTimeoutMs: 2_000,
      // Per session and per user as in production; a small region cap to reach it here.
      inFlight: { perSession: 16, perUser: 32, perRegion: 40 },
    },
  });
  base = await h.listen();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  h.upstream.reset();
  ({ cookie } = await h.login());
  h.upstream.reset();
});

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const get = (path: string, session: string, signal?: AbortSignal) =>
  fetch(`${base}${path}`, {
    headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${session}` },
    ...(signal ? { signal } : {}),
  });

/**
 * An upstream that holds every request until `release()` (but answers `/quick` at once);
 * `closed` counts ended exchanges.
 */
function holdingUpstream() {
  const held: ServerResponse[] = [];
  let closed = 0;
  h.upstream.route = (req, res, rec) => {
    if (req.url?.endsWith('/quick')) {
      echoRoute(req, res, rec);
      return;
    }
    req.resume();
    res.on('close', () => closed++);
    held.push(res);
  };
  return {
    held,
    closed: () => closed,
    release() {
      for (const res of held.splice(0)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }
    },
  };
}

/**
 * Starts `n` held requests of a session and waits until the upstream has them all; resolves to
 * their answers once released.
 */
async function occupy(
  n: number,
  session: string,
  upstreamCount: () => number,
  signal?: AbortSignal,
) {
  const before = upstreamCount();
  const answers = Array.from({ length: n }, (_, i) =>
    get(`/api/v1/slow/${i}`, session, signal).catch((error: unknown) => error),
  );
  await until(() => upstreamCount() >= before + n);
  return answers;
}

describe('upstream in-flight caps', () => {
  it('refuses the 17th concurrent request of a session with 429 and Retry-After, sending nothing upstream', async () => {
    const up = holdingUpstream();
    // 15 held, one that comes and goes meanwhile (its slot is given back once), one more held.
    const answers = await occupy(15, cookie, () => up.held.length);
    expect((await get('/api/v1/quick', cookie)).status).toBe(200);
    answers.push(...(await occupy(1, cookie, () => up.held.length)));
    const refused = await get('/api/v1/one-more', cookie);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      status: 429,
      type: 'urn:wsc:bff:too_many_in_flight',
    });
    expect(h.upstream.apiRequests()).toHaveLength(17);
    expect(h.upstream.tokenCalls).toBe(0);
    up.release();
    for (const res of await Promise.all(answers)) expect((res as Response).status).toBe(200);
    // Completed requests gave their slots back.
    h.upstream.route = echoRoute;
    expect((await get('/api/v1/after', cookie)).status).toBe(200);
  });

  it('caps one user across sessions (32) and a region (40), while others keep going', async () => {
    const up = holdingUpstream();
    const second = (await h.login()).cookie;
    const third = (await h.login()).cookie;
    const bob = (await h.login({ clientId: OTHER_CLIENT_ID, clientSecret: OTHER_CLIENT_SECRET }))
      .cookie;
    h.upstream.requests.length = 0;
    const held = [
      ...(await occupy(16, cookie, () => up.held.length)),
      ...(await occupy(16, second, () => up.held.length)),
    ];
    // A third session of the same user: the user's 32 are taken.
    const userCapped = await get('/api/v1/x', third);
    expect(userCapped.status).toBe(429);
    expect(((await userCapped.json()) as { detail: string }).detail).toContain('user');
    // Another user still gets through, up to the region's 40.
    held.push(...(await occupy(8, bob, () => up.held.length)));
    const regionCapped = await get('/api/v1/x', bob);
    expect(regionCapped.status).toBe(503);
    expect(regionCapped.headers.get('retry-after')).toBe('1');
    expect(h.upstream.apiRequests()).toHaveLength(40);
    up.release();
    await Promise.all(held);
    h.upstream.route = echoRoute;
    expect((await get('/api/v1/x', third)).status).toBe(200);
  });

  it('gives the slot back when the browser aborts, when the upstream fails and when it stalls, never more than once', async () => {
    /** 16 held requests are admitted and the 17th is not: exactly 16 slots are free. */
    const exactlySixteenFree = async () => {
      const up = holdingUpstream();
      const answers = await occupy(16, cookie, () => up.held.length);
      expect((await get('/api/v1/x', cookie)).status).toBe(429);
      up.release();
      await Promise.all(answers);
    };
    const post = (method: string) =>
      fetch(`${base}/api/v1/x`, {
        method,
        headers: {
          'x-csrf': '1',
          cookie: `${SESSION_COOKIE}=${cookie}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });

    // 1. The browser aborts while the upstream has not answered.
    const waiting = holdingUpstream();
    const controller = new AbortController();
    const aborted = await occupy(16, cookie, () => waiting.held.length, controller.signal);
    controller.abort();
    await Promise.all(aborted);
    await until(() => waiting.closed() >= 16);
    await exactlySixteenFree();

    // 2. The browser aborts mid-download.
    let downloadsClosed = 0;
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(1024, 1));
      res.on('close', () => downloadsClosed++);
    };
    const midway = new AbortController();
    const downloads = await Promise.all(
      Array.from({ length: 16 }, () => get('/api/v1/file', cookie, midway.signal)),
    );
    for (const res of downloads) await res.body?.getReader().read();
    midway.abort();
    await until(() => downloadsClosed >= 16);
    await exactlySixteenFree();

    // 3. The upstream resets the connection (a POST is not retried: 502).
    h.upstream.route = (req) => req.socket.destroy();
    const failed = await Promise.all(Array.from({ length: 16 }, () => post('POST')));
    expect(failed.map((r) => r.status)).toEqual(Array(16).fill(502));
    await exactlySixteenFree();

    // 4. The upstream never answers (504 after the upstream timeout).
    h.upstream.route = (req) => req.resume();
    const timedOut = await Promise.all(Array.from({ length: 16 }, () => post('PUT')));
    expect(timedOut.map((r) => r.status)).toEqual(Array(16).fill(504));
    await exactlySixteenFree();

    // 5. The download stalls past the body idle timeout.
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(1024, 1));
    };
    const stalled = await Promise.all(Array.from({ length: 16 }, () => get('/api/v1/f', cookie)));
    await Promise.all(stalled.map((res) => res.arrayBuffer().catch(() => undefined)));
    await exactlySixteenFree();
  });
});

describe('a stalled response body', () => {
  it('is aborted after the body idle timeout, and the browser’s response ends', async () => {
    let upstreamClosed = false;
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': '100000',
      });
      res.write(Buffer.alloc(1000, 1));
      res.on('close', () => (upstreamClosed = true));
    };
    const res = await get('/api/v1/apps/support/SUP-1/attachments/a/content', cookie);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBeGreaterThan(0);
    const stalledAt = Date.now();
    await expect(
      (async () => {
        for (;;) {
          const next = await reader?.read();
          if (!next || next.done) return 'ended without error';
        }
      })(),
    ).rejects.toThrow();
    const waited = Date.now() - stalledAt;
    expect(waited).toBeGreaterThanOrEqual(IDLE_MS - 100);
    expect(waited).toBeLessThan(IDLE_MS + 2_000);
    await until(() => upstreamClosed, 1_000);
  });

  it('also when the browser stops reading: the upstream is closed', async () => {
    let upstreamClosed = false;
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => {
        if (!res.writableNeedDrain) res.write(Buffer.alloc(256 * 1024, 2));
      }, 5);
      res.on('close', () => {
        clearInterval(timer);
        upstreamClosed = true;
      });
    };
    const res = await get('/api/v1/apps/support/SUP-1/attachments/big/content', cookie);
    expect(res.status).toBe(200);
    // Never read: backpressure stops the bytes, then the idle timer ends the exchange.
    await until(() => upstreamClosed, IDLE_MS + 5_000);
    await res.body?.cancel().catch(() => undefined);
  });

  it('never cuts a download that keeps moving, however long it takes', async () => {
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(Buffer.alloc(1024, 3));
        if (++sent === 12) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
    };
    const started = Date.now();
    const res = await get('/api/v1/apps/support/SUP-1/attachments/slow/content', cookie);
    expect((await res.arrayBuffer()).byteLength).toBe(12 * 1024);
    expect(Date.now() - started).toBeGreaterThan(3 * IDLE_MS);
  });
});

/** Send a request's head only (no body bytes) and resolve with the status line's code. */
const headOnly = (head: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
    socket.write(head);
  });

describe('JSON bodies over 1 MiB', () => {
  it('are refused with 413 from the declared length, before a body byte is sent or read', async () => {
    const mib = 1024 * 1024;
    const head = (method: string, path: string, type: string, length: number) =>
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\n` +
      `Content-Length: ${length}\r\nX-CSRF: 1\r\nCookie: ${SESSION_COOKIE}=${cookie}\r\n\r\n`;
    expect(
      await headOnly(head('PUT', '/api/v1/apps/support/SUP-1', 'application/json', mib + 1)),
    ).toBe(413);
    expect(await headOnly(head('POST', '/api/v1/users', 'application/json', 200 * mib))).toBe(413);
    expect(h.upstream.requests).toHaveLength(0);
    // Exactly 1 MiB of JSON, and a 2 MiB multipart upload, go through.
    const json = await fetch(`${base}/api/v1/apps/support/SUP-1`, {
      method: 'PUT',
      headers: {
        'x-csrf': '1',
        cookie: `${SESSION_COOKIE}=${cookie}`,
        'content-type': 'application/json',
      },
      body: 'j'.repeat(mib),
    });
    expect(json.status).toBe(200);
    const upload = await fetch(`${base}/api/v1/apps/support/SUP-1/attachments`, {
      method: 'POST',
      headers: {
        'x-csrf': '1',
        cookie: `${SESSION_COOKIE}=${cookie}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: 'm'.repeat(2 * mib),
    });
    expect(upload.status).toBe(200);
    // The record history reads the record before an update (a GET, no body): not counted here.
    const writes = h.upstream.apiRequests().filter((r) => r.method !== 'GET');
    expect(writes.map((r) => r.bytes)).toEqual([mib, 2 * mib]);
  });
});

describe('response types', () => {
  it('passes allowlisted types as they are and turns everything else into an octet-stream attachment', async () => {
    const cases: {
      type: string | undefined;
      disposition?: string;
      expect: { type: string; disposition: string | null };
    }[] = [
      { type: 'application/json', expect: { type: 'application/json', disposition: null } },
      {
        type: 'text/plain; charset=utf-8',
        expect: { type: 'text/plain; charset=utf-8', disposition: null },
      },
      {
        type: 'image/png',
        disposition: "attachment; filename*=UTF-8''a.png",
        expect: { type: 'image/png', disposition: "attachment; filename*=UTF-8''a.png" },
      },
      {
        type: 'application/pdf',
        disposition: 'inline; filename="r.pdf"',
        expect: { type: 'application/pdf', disposition: 'inline; filename="r.pdf"' },
      },
      {
        type: 'text/html; charset=utf-8',
        disposition: 'inline; filename="a.html"',
        expect: { type: 'application/octet-stream', disposition: 'attachment; filename="a.html"' },
      },
      ...[
        'TEXT/HTML',
        'image/svg+xml',
        'application/xhtml+xml',
        'text/xml',
        'application/xml',
        'text/javascript',
        'text/x-javascript',
        'text/jscript',
        'application/x-ecmascript',
        'text/livescript',
        'text/javascript1.5',
        'text/css',
        'multipart/x-mixed-replace; boundary=x',
        'application/x-shockwave-flash',
        'something/unknown',
        'garbage',
        undefined,
      ].map((type) => ({
        type,
        expect: { type: 'application/octet-stream', disposition: 'attachment' },
      })),
    ];
    for (const item of cases) {
      h.upstream.route = (req, res) => {
        req.resume();
        res.writeHead(200, {
          ...(item.type === undefined ? {} : { 'content-type': item.type }),
          ...(item.disposition === undefined ? {} : { 'content-disposition': item.disposition }),
        });
        res.end('<script>alert(1)</script>');
      };
      const res = await get('/api/v1/apps/support/SUP-1/attachments/a/content', cookie);
      const label = String(item.type);
      expect(res.headers.get('content-type'), label).toBe(item.expect.type);
      expect(res.headers.get('content-disposition'), label).toBe(item.expect.disposition);
      expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
      await res.arrayBuffer();
    }
  });
});

describe('the upstream URL', () => {
  it('is built from the parsed path: encodings kept, the literal /api/v1/ prefix required', async () => {
    const echoed = async (path: string) => {
      const res = await fetch(`${base}${path}`, {
        headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${cookie}` },
      });
      return { status: res.status, body: (await res.json()) as { url?: string; type?: string } };
    };
    const kept = [
      '/api/v1/apps/support%20tickets/SUP-1',
      '/api/v1/apps/a%3Fb/SUP-1?first=1',
      '/api/v1/apps/a%23b',
      '/api/v1/apps/x;y=1/SUP-1',
      '/api/v1/apps/%E2%9C%93',
      '/api/v1/apps?filter=Title%3D%3D%27a%2F..%2F..%27&first=10',
      '/api/v1/apps?x=//evil.example',
    ];
    for (const path of kept) {
      const { status, body } = await echoed(path);
      expect(status, path).toBe(200);
      expect(body.url, path).toBe(path.slice('/api'.length));
    }
    // Routed to the proxy by the decoded path, but not /api/v1/ as written: refused, not cut.
    for (const path of ['/%61pi/v1/me', '/api/%76%31/me', '/%41PI/v1/me']) {
      const { status, body } = await echoed(path);
      expect([400, 404], path).toContain(status);
      if (status === 400) expect(body.type).toBe('urn:wsc:bff:bad_path');
    }
    expect((await echoed('/api/v1@evil.example/me')).status).toBe(404);
    expect(h.upstream.apiRequests().map((r) => r.url)).toEqual(
      kept.map((p) => p.slice('/api'.length)),
    );
  });

  it('keeps the configured host and base path whatever the target says', () => {
    const cases: [string, string, string | undefined][] = [
      [
        'https://api.example.com/v1',
        '/api/v1/apps/x?first=1',
        'https://api.example.com/v1/apps/x?first=1',
      ],
      ['https://api.example.com/base/v1', '/api/v1/me', 'https://api.example.com/base/v1/me'],
      ['https://api.example.com/v1', '/api/v1/a%2F..%2Fb', 'https://api.example.com/v1/a%2F..%2Fb'],
      ['https://api.example.com/v1', '//evil.example/api/v1/me', undefined],
      ['https://api.example.com/v1', 'http://evil.example/api/v1/me', undefined],
      ['https://api.example.com/v1', '/api/v1', undefined],
      ['https://api.example.com/v1', '/api/v10/me', undefined],
      ['https://api.example.com/v1', '/%61pi/v1/me', undefined],
      ['https://api.example.com/v1', '/api/v1/me#frag', 'https://api.example.com/v1/me'],
    ];
    for (const [api, target, expected] of cases) {
      expect(upstreamUrl(api, target)?.href, target).toBe(expected);
    }
  });
});
