// The BFF's own fetch over the proxy's pool, on a real loopback server: it behaves as fetch does
// for what the BFF uses (status, headers, bodies both ways, a timeout's TimeoutError, an encoded
// answer, a status fetch allows that Response cannot be built with) and reuses pooled sockets,
// including those opened ahead by warmConnections.
import { once } from 'node:events';
import { createServer } from 'node:http';
import zlib from 'node:zlib';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { agentFetch } from './pool-fetch.ts';
import { createUpstreamAgents, warmConnections } from './upstream-pool.ts';

let server: Server;
let base: string;
let connections = 0;
let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('agentFetch', () => {
  it('sends method, headers and body; answers status, headers and body', async () => {
    handle = (req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': req.method ?? '' });
      res.end(
        JSON.stringify({
          body,
          type: req.headers['content-type'],
          accept: req.headers['accept-encoding'],
        }),
      );
    };
    const doFetch = agentFetch(createUpstreamAgents(8));
    const res = await doFetch(`${base}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-seen')).toBe('POST');
    expect(await res.json()).toEqual({
      body: 'grant_type=client_credentials',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      accept: 'identity',
    });
  });

  it('rejects with the signal’s reason (a TimeoutError) when the answer does not come', async () => {
    handle = () => {};
    const doFetch = agentFetch(createUpstreamAgents(8));
    const error = await doFetch(`${base}/slow`, { signal: AbortSignal.timeout(50) }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe('TimeoutError');
  });

  it('undoes gzip, passes a 204 without a body and a status past 599 as is', async () => {
    const doFetch = agentFetch(createUpstreamAgents(8));
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('{"ok":true}'));
    };
    expect(await (await doFetch(`${base}/gz`)).json()).toEqual({ ok: true });
    handle = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    expect((await doFetch(`${base}/none`)).body).toBeNull();
    handle = (_req, res) => {
      res.writeHead(600, { 'content-type': 'text/plain' });
      res.end('odd');
    };
    const odd = await doFetch(`${base}/odd`);
    expect([odd.status, odd.ok, await odd.text()]).toEqual([600, false, 'odd']);
  });

  it('reuses one pooled connection, and takes the ones opened ahead first', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x');
    };
    const agents = createUpstreamAgents(8);
    const doFetch = agentFetch(agents);
    const from = connections;
    expect(warmConnections(agents, `${base}/v1`, 2)).toBe(2);
    // Nothing more while two are waiting.
    expect(warmConnections(agents, `${base}/v1`, 2)).toBe(0);
    await Promise.all([doFetch(`${base}/a`), doFetch(`${base}/b`)]).then((all) =>
      Promise.all(all.map((r) => r.text())),
    );
    for (let i = 0; i < 3; i++) await (await doFetch(`${base}/c`)).text();
    expect(connections - from).toBe(2);
    // Two idle in the pool now: warming opens nothing.
    expect(warmConnections(agents, `${base}/v1`, 2)).toBe(0);
  });

  it('a connection opened ahead to nowhere fails quietly; the request opens its own', async () => {
    const agents = createUpstreamAgents(8);
    expect(warmConnections(agents, 'http://127.0.0.1:1/v1', 1)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const error = await agentFetch(agents)('http://127.0.0.1:1/v1/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
  });
});
