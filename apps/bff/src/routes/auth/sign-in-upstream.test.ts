// Sign-in at the floor (DESIGN.md section 7), on a real upstream socket that counts connections:
// the proxy and the BFF's own calls share one pool per region, warmed while the token request
// travels, so the sign-in's reads beside `/v1/me` (the definitions, the first page) and what the
// console reads after it open no connection of their own; and the hosted person's look-up goes
// out beside the profile probe, not after it.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import { ME } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';
import { WARM_CONNECTIONS } from '../../lib/upstream-pool.ts';

type Upstream = {
  server: Server;
  apiUrl: string;
  connections: number;
  /** `METHOD path` of every request, in arrival order. */
  seen: string[];
  /** Answers held until the test releases them, by path. */
  hold: Map<string, { until: Promise<void>; arrived: () => void }>;
  mode: 'extended' | 'hosted';
};

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': text.length });
  res.end(text);
}

/** A small API on a loopback port: token, `/v1/me` (extended), users, definitions, a list. */
async function startUpstream(mode: Upstream['mode']): Promise<Upstream> {
  const state: Upstream = {
    server: createServer(),
    apiUrl: '',
    connections: 0,
    seen: [],
    hold: new Map(),
    mode,
  };
  state.server.on('connection', () => state.connections++);
  state.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    state.seen.push(`${req.method} ${path}`);
    req.resume();
    req.on('end', () => {
      const held = state.hold.get(path);
      held?.arrived();
      void (held?.until ?? Promise.resolve()).then(() => answer(state, path, res));
    });
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  state.apiUrl = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/v1`;
  return state;
}

function answer(state: Upstream, path: string, res: ServerResponse) {
  const page = (items: unknown[]) => ({
    paging: { has_next_page: false },
    total: items.length,
    items,
  });
  if (path === '/oauth/token') {
    return send(res, state.mode === 'hosted' ? 201 : 200, {
      access_token: 'token-1',
      token_type: 'Bearer',
      expires_in: 3600,
    });
  }
  if (path === '/v1/me') return state.mode === 'hosted' ? send(res, 404, {}) : send(res, 200, ME);
  if (path === '/v1/users') return send(res, 200, page([{ ...ME, firstName: 'Found' }]));
  if (path === '/v1/definitions') return send(res, 200, { items: [] });
  return send(res, 200, page([{ cursor: 'c1', data: { id: 'SUP-1', Status: 'New' } }]));
}

/** Hold the answers to `path` until released; `arrived` resolves when one came in. */
function holdAnswers(upstream: Upstream, path: string) {
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const until = new Promise<void>((resolve) => (release = resolve));
  const came = new Promise<void>((resolve) => (arrived = resolve));
  upstream.hold.set(path, { until, arrived });
  return { release, came };
}

const harnesses: Harness[] = [];
const upstreams: Upstream[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const u of upstreams.splice(0)) {
    u.server.closeAllConnections();
    await new Promise<void>((resolve) => u.server.close(() => resolve()));
  }
});

async function setUp(mode: Upstream['mode'], profile: 'auto' | 'extended' = 'auto') {
  const upstream = await startUpstream(mode);
  upstreams.push(upstream);
  const h = await createHarness({
    upstream: { apiUrl: upstream.apiUrl, close: async () => undefined } as unknown as FakeUpstream,
    config: { regions: [regionFor('default', upstream.apiUrl, { profile })] },
  });
  harnesses.push(h);
  return { upstream, h };
}

describe('one warm pool per region', () => {
  it('a sign-in reads its first screen beside `/v1/me` on connections opened while the token travelled', async () => {
    const { upstream, h } = await setUp('extended', 'extended');
    // `/v1/me`, the definitions and the first page are all held until all three have come in:
    // each on a connection of its own, at once.
    const held = ['/v1/me', '/v1/definitions', '/v1/apps/support'].map((path) =>
      holdAnswers(upstream, path),
    );
    const signIn = h.login({ next: '/records/apps/support' });
    await Promise.all(held.map((one) => one.came));
    for (const one of held) one.release();
    const { res, cookie } = await signIn;
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      firstPage?: { page: { items: unknown[] } };
      definitions?: unknown[];
    };
    expect(body.firstPage?.page.items).toHaveLength(1);
    expect(body.definitions).toEqual([]);
    expect(upstream.seen[0]).toBe('POST /oauth/token');
    expect(upstream.seen.slice(1).sort()).toEqual([
      'GET /v1/apps/support',
      'GET /v1/definitions',
      'GET /v1/me',
    ]);
    // Three reads at once, each on a connection of its own: the ones warmed while the token
    // travelled (the token's own, where it could be reused, among them).
    const atSignIn = upstream.connections;
    expect(atSignIn).toBeGreaterThanOrEqual(3);
    expect(atSignIn).toBeLessThanOrEqual(1 + WARM_CONNECTIONS);

    // What the console reads next (a list and the definitions at once) opens nothing more.
    const rows = h.api('/api/v1/apps/support?first=50', { cookie });
    const described = h.api('/bff/definitions', { cookie });
    expect((await rows).status).toBe(200);
    expect((await described).status).toBe(200);
    expect(upstream.connections - atSignIn).toBe(0);
  });

  it('a second sign-in finds the pool warm and opens nothing', async () => {
    const { upstream, h } = await setUp('extended', 'extended');
    expect((await h.login()).res.status).toBe(200);
    const first = upstream.connections;
    expect((await h.login()).res.status).toBe(200);
    expect(upstream.connections).toBe(first);
    // A configured profile: the token, then `/v1/me` and the definitions together.
    expect(upstream.seen[0]).toBe('POST /oauth/token');
    expect(upstream.seen.slice(1, 3).sort()).toEqual(['GET /v1/definitions', 'GET /v1/me']);
    expect(upstream.seen[3]).toBe('POST /oauth/token');
    expect(upstream.seen.slice(4).sort()).toEqual(['GET /v1/definitions', 'GET /v1/me']);
  });
});

describe('sign-in steps that do not depend on each other run together', () => {
  it('hosted, first sign-in: the person is looked up while the profile probe is held', async () => {
    const { upstream, h } = await setUp('hosted');
    const probe = holdAnswers(upstream, '/v1/me');
    const lookUp = holdAnswers(upstream, '/v1/users');
    lookUp.release();
    const signIn = h.login({ email: 'ada@example.com' });
    await probe.came;
    // Old code sent the look-up only after the probe's answer: it would never come here.
    await lookUp.came;
    expect(upstream.seen.slice(-2).sort()).toEqual(['GET /v1/me', 'GET /v1/users']);
    probe.release();
    const { res } = await signIn;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { firstName?: string; identity: string } };
    expect(body.user).toMatchObject({ firstName: 'Found', identity: 'self' });
  });

  it('extended, first sign-in: the probe is `/v1/me` itself, and no look-up is used', async () => {
    const { upstream, h } = await setUp('extended');
    const { res } = await h.login();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { identity: string } }).user.identity).toBe('api');
    // The definitions need the profile, which the probe told: they go after it.
    expect(upstream.seen).toEqual(['POST /oauth/token', 'GET /v1/me', 'GET /v1/definitions']);
  });
});
