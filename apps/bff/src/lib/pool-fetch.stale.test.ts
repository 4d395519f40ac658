// The keep-alive race for the BFF's own calls (a loaded CI run ended a session with 502 instead
// of 401: the token request after the API's 401 went out on a pooled connection the API was
// closing). Over a real loopback server that drops a request unanswered, as a server whose
// keep-alive window ended does: on a pooled connection the call goes again on another; on a new
// connection (the upstream may have done the work) it fails once.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { UpstreamAgents } from './upstream-pool.ts';
import { agentFetch } from './pool-fetch.ts';
import { createUpstreamAgents } from './upstream-pool.ts';

let server: Server;
let base: string;
let agents: UpstreamAgents;
let seen: { method: string; body: string; dropped: boolean }[];
/** Which request the server drops unanswered next: on a connection that served before, or a new one. */
let drop: 'none' | 'pooled' | 'fresh';

beforeEach(async () => {
  seen = [];
  drop = 'none';
  const served = new WeakSet<Socket>();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const pooled = served.has(req.socket);
      const dropped = (drop === 'pooled' && pooled) || (drop === 'fresh' && !pooled);
      seen.push({ method: req.method ?? '', body: Buffer.concat(chunks).toString(), dropped });
      served.add(req.socket);
      if (dropped) {
        drop = 'none';
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"access_token":"t","expires_in":60}');
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

const tokenRequest = (fetchUpstream: typeof fetch) =>
  fetchUpstream(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });

describe('agentFetch on a pooled connection the upstream closed', () => {
  it('sends the call again, body and all, and answers what the second one got', async () => {
    const fetchUpstream = agentFetch(agents);
    // Read whole, so its connection goes back to the pool for the next call.
    expect(await (await tokenRequest(fetchUpstream)).json()).toMatchObject({ access_token: 't' });
    drop = 'pooled';
    const res = await tokenRequest(fetchUpstream);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ access_token: 't', expires_in: 60 });
    expect(seen.map((s) => [s.method, s.body, s.dropped])).toEqual([
      ['POST', 'grant_type=client_credentials', false],
      ['POST', 'grant_type=client_credentials', true],
      ['POST', 'grant_type=client_credentials', false],
    ]);
  });

  it('fails once, without sending again, when a new connection breaks', async () => {
    const fetchUpstream = agentFetch(agents);
    drop = 'fresh';
    await expect(tokenRequest(fetchUpstream)).rejects.toThrow('fetch failed');
    expect(seen.map((s) => s.dropped)).toEqual([true]);
  });
});
