// The keep-alive race (the CI failure of a 100-record bulk run, one PUT answered 502 "could not
// be reached"): the upstream closes a pooled connection while idle just as a request goes out on
// it. Over a real loopback server that drops a connection's second request unanswered, as a
// server whose keep-alive window ended does: an idempotent request with a body that can be sent
// again goes again on another connection; a POST, a streamed body, or a request on a connection
// that had never served one (the upstream may have done the work) goes out once.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { DroppingServer } from '../../../test/dropping-server.ts';
import type { UpstreamAgents } from '../../lib/upstream-pool.ts';
import { startDroppingServer } from '../../../test/dropping-server.ts';
import { StaleConnectionError } from '../../lib/connection-reset.ts';
import { createUpstreamAgents } from '../../lib/upstream-pool.ts';
import { exchange } from './proxy-exchange.ts';

let server: DroppingServer;
let agents: UpstreamAgents;

beforeEach(async () => {
  server = await startDroppingServer('{"ok":true}');
  agents = createUpstreamAgents(16);
});

afterEach(async () => {
  agents.http.destroy();
  await server.close();
});

const BODY = '{"Severity":"High"}';

function send(method: string, body?: Readable | (() => Readable)) {
  return exchange({
    url: `${server.base}/v1/apps/support-tickets/SUP-1`,
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
  expect(server.seen).toHaveLength(1);
}

describe('a pooled connection the upstream is about to close', () => {
  it('is closed a second before the window the upstream announces, and not reused', async () => {
    // `Keep-Alive: timeout=2`: the upstream closes idle connections after 2 s; the pool after 1 s.
    server.http.keepAliveTimeout = 2_000;
    await warmPool();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const reply = await send('PUT', () => Readable.from([Buffer.from(BODY)]));
    expect(reply.statusCode).toBe(200);
    reply.resume();
    const [get, put] = server.seen;
    expect(put?.socket).not.toBe(get?.socket);
  });
});

describe('a pooled connection the upstream closed', () => {
  it('sends a PUT whose body was read whole again, on another connection, once', async () => {
    await warmPool();
    server.drop = 'pooled';
    const reply = await send('PUT', () => Readable.from([Buffer.from(BODY)]));
    expect(reply.statusCode).toBe(200);
    reply.resume();
    const puts = server.seen.filter((s) => s.method === 'PUT');
    expect(puts.map((s) => [s.body, s.dropped])).toEqual([
      [BODY, true],
      [BODY, false],
    ]);
    expect(puts[1]?.socket).not.toBe(puts[0]?.socket);
  });

  it('sends a DELETE without a body again', async () => {
    await warmPool();
    server.drop = 'pooled';
    const reply = await send('DELETE');
    expect(reply.statusCode).toBe(200);
    expect(server.seen.filter((s) => s.method === 'DELETE')).toHaveLength(2);
  });

  it('never sends a POST again: it fails as the stale connection it met', async () => {
    await warmPool();
    server.drop = 'pooled';
    await expect(send('POST', () => Readable.from([Buffer.from(BODY)]))).rejects.toBeInstanceOf(
      StaleConnectionError,
    );
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
  });

  it('never sends a streamed body again', async () => {
    await warmPool();
    server.drop = 'pooled';
    await expect(send('PUT', Readable.from([Buffer.from(BODY)]))).rejects.toBeInstanceOf(
      StaleConnectionError,
    );
    expect(server.seen.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });

  it('never sends again what broke on a new connection (the upstream may have done it)', async () => {
    server.drop = 'fresh';
    const error = await send('PUT', () => Readable.from([Buffer.from(BODY)])).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(StaleConnectionError);
    expect(server.seen.filter((s) => s.method === 'PUT')).toHaveLength(1);
  });
});
