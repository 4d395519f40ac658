// The keep-alive race (the CI failure of a 100-record bulk run, one PUT answered 502 "could not
// be reached"): the upstream closes a pooled connection while idle just as a request goes out on
// it. Over a real loopback server that drops a connection's second request unanswered, as a
// server whose keep-alive window ended does: an idempotent request with a body that can be sent
// again goes again on another connection; a POST, a streamed body, or a request on a connection
// that had never served one (the upstream may have done the work) goes out once.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { UpstreamAgents } from '../../lib/upstream-pool.ts';
import { createUpstreamAgents } from '../../lib/upstream-pool.ts';
import { exchange, StaleConnectionError } from './proxy-exchange.ts';

type Seen = { method: string; body: string; socket: Socket; dropped: boolean };

let server: Server;
let base: string;
let agents: UpstreamAgents;
let seen: Seen[];
/** Which requests the server drops unanswered: `pooled` those on a connection that served before. */
let drop: 'none' | 'pooled' | 'fresh';

beforeEach(async () => {
  seen = [];
  drop = 'none';
  const served = new WeakSet<Socket>();
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const socket = req.socket;
      const pooled = served.has(socket);
      const dropped = (drop === 'pooled' && pooled) || (drop === 'fresh' && !pooled);
      seen.push({
        method: req.method ?? '',
        body: Buffer.concat(chunks).toString(),
        socket,
        dropped,
      });
      served.add(socket);
      if (dropped) {
        drop = 'none';
        socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agents = createUpstreamAgents(16);
});

afterEach(async () => {
  agents.http.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const BODY = '{"Severity":"High"}';

function send(method: string, body?: Readable | (() => Readable)) {
  return exchange({
    url: `${base}/v1/apps/support-tickets/SUP-1`,
    agents,
    method,
    headers: body ? { 'content-type': 'application/json', 'content-length': BODY.length } : {},
    ...(body ? { body } : {}),
    idempotent: method === 'GET',
    clientSignal: new AbortController().signal,
    timeoutMs: 5_000,
    bodyIdleMs: 5_000,
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 },
    random: () => 0,
  });
}

/** One answered request, so the pool holds one idle connection that has served. */
async function warmPool() {
  const reply = await send('GET');
  reply.resume();
  await once(reply, 'end');
  expect(seen).toHaveLength(1);
}

describe('a pooled connection the upstream is about to close', () => {
  it('is closed a second before the window the upstream announces, and not reused', async () => {
    // `Keep-Alive: timeout=2`: the upstream closes idle connections after 2 s; the pool after 1 s.
    server.keepAliveTimeout = 2_000;
    await warmPool();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const reply = await send('PUT', () => Readable.from([Buffer.from(BODY)]));
    expect(reply.statusCode).toBe(200);
    reply.resume();
    const [get, put] = seen;
    expect(put?.socket).not.toBe(get?.socket);
  });
});

describe('a pooled connection the upstream closed', () => {
  it('sends a PUT whose body was read whole again, on another connection, once', async () => {
    await warmPool();
    drop = 'pooled';
    const reply = await send('PUT', () => Readable.from([Buffer.from(BODY)]));
    expect(reply.statusCode).toBe(200);
    reply.resume();
    const puts = seen.filter((s) => s.method === 'PUT');
    expect(puts.map((s) => [s.body, s.dropped])).toEqual([
      [BODY, true],
      [BODY, false],
    ]);
    expect(puts[1]?.socket).not.toBe(puts[0]?.socket);
  });

  it('sends a DELETE without a body again', async () => {
    await warmPool();
    drop = 'pooled';
    const reply = await send('DELETE');
    expect(reply.statusCode).toBe(200);
    expect(seen.filter((s) => s.method === 'DELETE')).toHaveLength(2);
  });

  it('never sends a POST again: it fails as the stale connection it met', async () => {
    await warmPool();
    drop = 'pooled';
    await expect(send('POST', () => Readable.from([Buffer.from(BODY)]))).rejects.toBeInstanceOf(
      StaleConnectionError,
    );
    expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('never sends a streamed body again', async () => {
    await warmPool();
    drop = 'pooled';
    await expect(send('PUT', Readable.from([Buffer.from(BODY)]))).rejects.toBeInstanceOf(
      StaleConnectionError,
    );
    expect(seen.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });

  it('never sends again what broke on a new connection (the upstream may have done it)', async () => {
    drop = 'fresh';
    const error = await send('PUT', () => Readable.from([Buffer.from(BODY)])).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StaleConnectionError);
    expect(seen.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });
});
