// The keep-alive race for the BFF's own calls (a loaded CI run ended a session with 502 instead
// of 401: the token request after the API's 401 went out on a pooled connection the API was
// closing). Over a real loopback server that drops a request unanswered, as a server whose
// keep-alive window ended does: on a pooled connection the call goes again on another; on a new
// connection (the upstream may have done the work) it fails once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { DroppingServer } from '../../test/dropping-server.ts';
import type { UpstreamAgents } from './upstream-pool.ts';
import { startDroppingServer } from '../../test/dropping-server.ts';
import { agentFetch } from './pool-fetch.ts';
import { createUpstreamAgents } from './upstream-pool.ts';

let server: DroppingServer;
let agents: UpstreamAgents;

beforeEach(async () => {
  server = await startDroppingServer('{"access_token":"t","expires_in":60}');
  agents = createUpstreamAgents(16);
});

afterEach(async () => {
  agents.http.destroy();
  await server.close();
});

const tokenRequest = (fetchUpstream: typeof fetch) =>
  fetchUpstream(`${server.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });

describe('agentFetch on a pooled connection the upstream closed', () => {
  it('sends the call again, body and all, and answers what the second one got', async () => {
    const fetchUpstream = agentFetch(agents);
    // Read whole, so its connection goes back to the pool for the next call.
    expect(await (await tokenRequest(fetchUpstream)).json()).toMatchObject({ access_token: 't' });
    server.drop = 'pooled';
    const res = await tokenRequest(fetchUpstream);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ access_token: 't', expires_in: 60 });
    expect(server.seen.map((s) => [s.method, s.body, s.dropped])).toEqual([
      ['POST', 'grant_type=client_credentials', false],
      ['POST', 'grant_type=client_credentials', true],
      ['POST', 'grant_type=client_credentials', false],
    ]);
  });

  it('fails once, without sending again, when a new connection breaks', async () => {
    const fetchUpstream = agentFetch(agents);
    server.drop = 'fresh';
    await expect(tokenRequest(fetchUpstream)).rejects.toThrow('fetch failed');
    expect(server.seen.map((s) => s.dropped)).toEqual([true]);
  });
});
