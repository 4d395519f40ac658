// DESIGN.md section 6, "servers": headersTimeout, the whole-request limit, keep-alive and
// connection limits set on purpose, uploads excepted from the body time limit. Each test runs a
// real server on a loopback port (limits in milliseconds, scaled down) and a raw socket client.
import net from 'node:net';
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../test/harness.ts';
import type { ServerLimits } from './env.ts';
import { createHarness } from '../test/harness.ts';
import { insertRecords } from './records/records.ts';
import { isUploadRequest, startServer } from './server.ts';

let h: Harness;
let ticket: string;
const servers: Server[] = [];

beforeAll(async () => {
  h = await createHarness();
  const tickets = h.deps.workspace.find('apps', 'support-tickets');
  if (!tickets) throw new Error('demo workspace missing');
  const [row] = await insertRecords(h.db, tickets, [{ Title: 'Slow', Status: 'New' }], 'a@b.c');
  ticket = row?.id ?? '';
});
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
afterAll(() => h.close());

const LIMITS: ServerLimits = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 400,
  bodyIdleTimeoutMs: 1_000,
  keepAliveTimeoutMs: 300,
  maxConnections: 50,
};

async function serveWith(
  limits: Partial<ServerLimits> = {},
  profile: 'extended' | 'hosted' = 'extended',
): Promise<number> {
  const { server, port } = await startServer(h.app.fetch, {
    port: 0,
    host: '127.0.0.1',
    limits: { ...LIMITS, ...limits },
    profile,
  });
  servers.push(server);
  return port;
}

/** A raw client: what it received, and when the server closed the connection. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const opened = performance.now();
  let received = '';
  let closedAfter: number | undefined;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => {
      closedAfter = performance.now() - opened;
      resolve(closedAfter);
    }),
  );
  return {
    socket,
    closed,
    received: () => received,
    isClosed: () => closedAfter !== undefined,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The JSON body of a raw HTTP answer. */
function problemOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('requests the HTTP parser refuses', () => {
  it('answers headers over 16 KiB (a long filter) with a 431 problem, then closes', async () => {
    const port = await serveWith();
    const client = connect(port);
    const filter = encodeURIComponent(`Title==${'x'.repeat(17_000)}`);
    client.socket.write(
      `GET /v1/apps/support-tickets?filter=${filter} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.tokens.member}\r\n\r\n`,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 431 /);
    expect(client.received()).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    expect(problemOf(client.received())).toMatchObject({
      status: 431,
      title: 'Request Header Fields Too Large',
      detail: expect.stringContaining('16 KiB'),
    });
  });

  it('answers a malformed request line with a 400 problem', async () => {
    const port = await serveWith();
    const client = connect(port);
    client.socket.write('GET /health HTTP/1.1 extra\r\nHost: 127.0.0.1\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(client.received())).toMatchObject({
      status: 400,
      detail: 'Malformed HTTP request',
    });
  });

  it('answers in the hosted format in the hosted profile', async () => {
    const port = await serveWith({}, 'hosted');
    const client = connect(port);
    client.socket.write(
      `GET /v1/users?x=${'y'.repeat(17_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 431 /);
    expect(client.received()).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(problemOf(client.received())).toEqual({ message: expect.stringContaining('16 KiB') });
  });
});

describe('server limits', () => {
  it('cuts off a client that never finishes its headers (slowloris) after HEADERS_TIMEOUT_MS', async () => {
    const port = await serveWith();
    const client = connect(port);
    client.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // Keep dribbling header bytes: activity does not extend the headers deadline.
    const drip = setInterval(() => client.socket.write('X-Slow: 1\r\n'), 50);
    const closedAfter = await client.closed;
    clearInterval(drip);
    expect(closedAfter).toBeGreaterThanOrEqual(250);
    expect(closedAfter).toBeLessThan(2_000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(problemOf(client.received())).toMatchObject({ status: 408 });
  });

  it('closes a non-upload request whose body is still arriving after REQUEST_TIMEOUT_MS', async () => {
    const port = await serveWith();
    const client = connect(port);
    client.socket.write(
      [
        `POST /v1/apps/support-tickets/${ticket}/comment HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${h.tokens.member}`,
        'Content-Type: text/plain',
        'Content-Length: 5000',
        '',
        'a little',
      ].join('\r\n'),
    );
    // Bytes keep coming (so the idle limit never fires), just never all of them.
    const drip = setInterval(() => client.socket.write('x'), 50);
    const closedAfter = await client.closed;
    clearInterval(drip);
    expect(closedAfter).toBeGreaterThanOrEqual(350);
    expect(closedAfter).toBeLessThan(2_000);
  });

  it('lets an upload take far longer than REQUEST_TIMEOUT_MS while its bytes keep coming', async () => {
    const port = await serveWith();
    const boundary = 'slow-upload';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const pieces = 15;
    const length = head.length + pieces * 100 + tail.length;
    const client = connect(port);
    client.socket.write(
      [
        `POST /v1/apps/support-tickets/${ticket}/attachments HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${h.tokens.member}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${length}`,
        'Connection: close',
        '',
        head,
      ].join('\r\n'),
    );
    const started = performance.now();
    for (let i = 0; i < pieces; i += 1) {
      await sleep(100);
      client.socket.write('u'.repeat(100));
    }
    client.socket.write(tail);
    await client.closed;
    // 1.5 s of body against a 400 ms request limit: accepted.
    expect(performance.now() - started).toBeGreaterThan(1_400);
    expect(client.received()).toMatch(/^HTTP\/1\.1 202/);
  });

  it('closes an upload whose body stops arriving for BODY_IDLE_TIMEOUT_MS', async () => {
    const port = await serveWith({ bodyIdleTimeoutMs: 500 });
    const client = connect(port);
    client.socket.write(
      [
        `POST /v1/apps/support-tickets/${ticket}/attachments HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${h.tokens.member}`,
        'Content-Type: multipart/form-data; boundary=b',
        'Content-Length: 100000',
        '',
        '--b\r\n',
      ].join('\r\n'),
    );
    const closedAfter = await client.closed;
    expect(closedAfter).toBeGreaterThanOrEqual(450);
    expect(closedAfter).toBeLessThan(3_000);
    // The aborted upload gives its slot back (its temp file is removed, see attachments.test.ts).
    const deadline = Date.now() + 2_000;
    while (h.deps.uploads.inFlight(h.credentials.member.clientId) > 0 && Date.now() < deadline)
      await sleep(10);
    expect(h.deps.uploads.inFlight(h.credentials.member.clientId)).toBe(0);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const port = await serveWith();
    const client = connect(port);
    client.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closedAfter = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
    // Node closes it after keepAliveTimeout plus its own 1 s of grace; the default would be 5 s.
    expect(closedAfter).toBeGreaterThanOrEqual(250);
    expect(closedAfter).toBeLessThan(3_000);
  });

  it('refuses connections past MAX_CONNECTIONS', async () => {
    const port = await serveWith({ maxConnections: 2, headersTimeoutMs: 10_000 });
    const held = [connect(port), connect(port)];
    for (const client of held) client.socket.write('GET /health HTTP/1.1\r\n');
    await sleep(100);
    const third = connect(port);
    third.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await third.closed;
    expect(third.received()).toBe('');
    expect(held.some((client) => client.isClosed())).toBe(false);
    // A place frees up when one of them leaves.
    held[0]?.socket.destroy();
    await held[0]?.closed;
    await sleep(50);
    const fourth = connect(port);
    fourth.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await fourth.closed;
    expect(fourth.received()).toMatch(/^HTTP\/1\.1 200/);
  });

  it('knows the upload route by method and target only', () => {
    expect(isUploadRequest('POST', `/v1/apps/support-tickets/${ticket}/attachments`)).toBe(true);
    expect(isUploadRequest('POST', '/v1/tasks/tasks/TSK-1/attachments?x=1')).toBe(true);
    expect(isUploadRequest('POST', '/v1/apps/a/b/attachments/url-links')).toBe(false);
    expect(isUploadRequest('PUT', '/v1/apps/a/b/attachments')).toBe(false);
    expect(isUploadRequest('POST', '/v1/apps/a/b/comment')).toBe(false);
  });
});
