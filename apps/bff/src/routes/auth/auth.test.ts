import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { capabilitiesFor, LoginResultSchema, SessionSchema } from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import { CLIENT_ID, CLIENT_SECRET, ME } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';
import { hashSessionId } from '../../lib/crypto.ts';

let h: Harness;

/** The extended profile's session user: `/v1/me`, verified by the API. */
const API_USER = {
  id: ME.id,
  email: ME.email,
  firstName: ME.firstName,
  lastName: ME.lastName,
  clientId: CLIENT_ID,
  role: ME.role,
  identity: 'api',
} as const;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.upstream.reset();
});

describe('POST /bff/login', () => {
  it('signs in, answers the session it started and sets a __Host- cookie with every attribute', async () => {
    const { res, cookie, setCookie } = await h.login();
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(body).toEqual({
      user: API_USER,
      region: 'default',
      expiresAt: expect.any(String),
      capabilities: capabilitiesFor('extended'),
      // The person's own saved views (other files' tests may have saved some for this person).
      views: expect.any(Array),
    });
    const parsed = LoginResultSchema.parse(body);
    expect(parsed).toEqual(body);
    const { views: _views, ...started } = parsed;
    // The same session GET /bff/session answers, so the console need not ask for it again.
    const session = await h.api('/bff/session', { cookie });
    expect(await session.json()).toEqual(started);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const attributes = setCookie.split(';').map((p) => p.trim());
    expect(attributes[0]).toBe(`__Host-wsc_session=${cookie}`);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Strict']),
    );
    expect(setCookie.toLowerCase()).not.toContain('domain');
    expect(h.upstream.tokenCalls).toBe(1);
    const me = h.upstream.requests.find((r) => r.url === '/v1/me');
    expect(me?.headers.authorization).toMatch(/^Bearer tok-/);
  });

  it('answers 401 problem+json for a wrong secret and sets no cookie', async () => {
    const { res, setCookie } = await h.login({ clientSecret: 'wrong-secret' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      status: 401,
      detail: 'Client ID or secret is not valid',
    });
    expect(setCookie).toBe('');
  });

  it('answers 400 naming each bad field, and 400 for a body that is not JSON', async () => {
    const res = await h.request('/bff/login', {
      method: 'POST',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: '', region: 'mars' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string }[] };
    expect(body.errors.map((e) => e.field).sort()).toEqual(['clientId', 'clientSecret', 'region']);
    const bad = await h.request('/bff/login', {
      method: 'POST',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(h.upstream.tokenCalls).toBe(0);
  });

  it('refuses a region that is not configured', async () => {
    const { res } = await h.login({ region: 'eu' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ field: 'region' }] });
  });

  it('answers 502 when the token endpoint is down, 429 with Retry-After when it rate limits', async () => {
    h.upstream.tokenFailure = 503;
    expect((await h.login()).res.status).toBe(502);
    h.upstream.tokenFailure = 429;
    const { res } = await h.login();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it('rotates the session id at every sign-in and destroys the previous session', async () => {
    const first = await h.login();
    const second = await h.login({ cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    expect((await h.api('/bff/session', { cookie: first.cookie })).status).toBe(401);
    expect((await h.api('/bff/session', { cookie: second.cookie })).status).toBe(200);
    expect(await h.store.get(hashSessionId(first.cookie))).toBeUndefined();
  });

  it('keeps the secret and token sealed at rest and stores only a hash of the session id', async () => {
    const { cookie } = await h.login();
    const rows = await h.store.db.selectFrom('sessions').selectAll().execute();
    const row = rows.find((r) => r.id_hash === hashSessionId(cookie));
    expect(row).toBeDefined();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(CLIENT_SECRET);
    expect(dump).not.toContain(cookie);
    for (const token of h.upstream.issued) expect(dump).not.toContain(token);
    expect(row?.secret_sealed).toMatch(/^v1\./);
  });
});

/** The production limit, spelled out: 10 failed sign-ins per address per 5 minutes. */
const LOGIN_LIMIT = { loginRateLimit: { max: 10, windowMs: 5 * 60_000 } };

describe('failed sign-in rate limit', () => {
  it('answers 429 with Retry-After after 10 failures from one address, not for others', async () => {
    const limited10 = await createHarness({ upstream: h.upstream, config: LOGIN_LIMIT });
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
    const attempt = (address: string, secret: string) =>
      limited10.request(
        '/bff/login',
        {
          method: 'POST',
          headers: { 'x-csrf': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: 'client-1', clientSecret: secret, region: 'default' }),
        },
        from(address),
      );
    try {
      for (let i = 0; i < 10; i++) expect((await attempt('10.9.9.9', 'nope')).status).toBe(401);
      const calls = h.upstream.tokenCalls;
      const limited = await attempt('10.9.9.9', CLIENT_SECRET);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(h.upstream.tokenCalls).toBe(calls);
      expect((await attempt('10.9.9.10', CLIENT_SECRET)).status).toBe(200);
      limited10.clock.advance(5 * 60_000);
      expect((await attempt('10.9.9.9', CLIENT_SECRET)).status).toBe(200);
    } finally {
      await limited10.close();
    }
  });
});

describe('failed sign-in rate limit across instances and behind proxies', () => {
  const attempt = (
    harness: Harness,
    secret: string,
    init: { peer?: string; forwardedFor?: string } = {},
  ) =>
    harness.request(
      '/bff/login',
      {
        method: 'POST',
        headers: {
          'x-csrf': '1',
          'content-type': 'application/json',
          ...(init.forwardedFor ? { 'x-forwarded-for': init.forwardedFor } : {}),
        },
        body: JSON.stringify({ clientId: 'client-1', clientSecret: secret, region: 'default' }),
      },
      { incoming: { socket: { remoteAddress: init.peer ?? '10.7.7.7' } } },
    );

  it('holds across two BFF instances on one store: failures on either count for both', async () => {
    const first = await createHarness({ upstream: h.upstream, config: LOGIN_LIMIT });
    const second = await createHarness({
      store: first.store,
      upstream: h.upstream,
      config: LOGIN_LIMIT,
    });
    try {
      for (let i = 0; i < 10; i++) {
        const on = i % 2 === 0 ? first : second;
        expect((await attempt(on, 'nope')).status).toBe(401);
      }
      expect((await attempt(first, CLIENT_SECRET)).status).toBe(429);
      expect((await attempt(second, CLIENT_SECRET)).status).toBe(429);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('with BFF_TRUST_PROXY, counts per client behind the balancer, whatever the client forged', async () => {
    const proxied = await createHarness({
      upstream: h.upstream,
      config: { ...LOGIN_LIMIT, trustProxy: 1 },
    });
    try {
      const balancer = '10.0.0.5';
      for (let i = 0; i < 10; i++) {
        // A different forged first entry each time: only the balancer's entry counts.
        const res = await attempt(proxied, 'nope', {
          peer: balancer,
          forwardedFor: `203.0.113.${i}, 198.51.100.7`,
        });
        expect(res.status).toBe(401);
      }
      const limited = await attempt(proxied, CLIENT_SECRET, {
        peer: balancer,
        forwardedFor: '198.51.100.7',
      });
      expect(limited.status).toBe(429);
      // Someone else behind the same balancer is not locked out.
      expect(
        (await attempt(proxied, CLIENT_SECRET, { peer: balancer, forwardedFor: '198.51.100.8' }))
          .status,
      ).toBe(200);
      // The refused sign-ins are logged with the client's address.
      expect(proxied.logs.join('\n')).toContain('"client":"198.51.100.7"');
    } finally {
      await proxied.close();
    }
  });
});

describe('CSRF on state-changing /bff routes', () => {
  it('refuses login without X-CSRF, with a foreign Origin, or cross-site, and calls nobody', async () => {
    const body = JSON.stringify({
      clientId: 'client-1',
      clientSecret: CLIENT_SECRET,
      region: 'default',
    });
    const cases: Record<string, string>[] = [
      {},
      { 'x-csrf': '1', origin: 'https://evil.example' },
      { 'x-csrf': '1', origin: 'null' },
      { 'x-csrf': '1', 'sec-fetch-site': 'cross-site' },
      { 'x-csrf': '0' },
    ];
    for (const headers of cases) {
      const res = await h.request('/bff/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      expect(res.status).toBe(403);
    }
    expect(h.upstream.requests).toHaveLength(0);
    const sameOrigin = await h.request('/bff/login', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf': '1',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
      },
      body,
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('refuses logout without X-CSRF and keeps the session', async () => {
    const { cookie } = await h.login();
    expect((await h.api('/bff/logout', { method: 'POST', cookie, csrf: false })).status).toBe(403);
    expect((await h.api('/bff/session', { cookie })).status).toBe(200);
  });
});

describe('GET /bff/session and POST /bff/logout', () => {
  it('describes the session, then 401 after logout, also when the old cookie is replayed', async () => {
    const { cookie } = await h.login();
    const res = await h.api('/bff/session', { cookie });
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(body).toEqual({
      user: API_USER,
      region: 'default',
      expiresAt: new Date(h.clock.now() + h.config.idleTimeoutMs).toISOString(),
      capabilities: capabilitiesFor('extended'),
    });
    expect(SessionSchema.parse(body)).toEqual(body);
    const out = await h.api('/bff/logout', { method: 'POST', cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await h.api('/bff/session', { cookie })).status).toBe(401);
    h.upstream.reset();
    const replay = await h.api('/api/v1/me', { cookie });
    expect(replay.status).toBe(401);
    expect(h.upstream.requests).toHaveLength(0);
  });

  it('answers 401 without a cookie and for a forged one', async () => {
    expect((await h.api('/bff/session')).status).toBe(401);
    const forged = await h.api('/bff/session', { cookie: 'A'.repeat(43) });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('set-cookie')).toContain('Max-Age=0');
  });
});

describe('session expiry (fake clock)', () => {
  it('expires after 30 idle minutes', async () => {
    const { cookie } = await h.login();
    h.clock.advance(29 * 60_000);
    expect((await h.api('/bff/session', { cookie })).status).toBe(200);
    h.clock.advance(29 * 60_000);
    expect((await h.api('/bff/session', { cookie })).status).toBe(200);
    h.clock.advance(30 * 60_000 + 1);
    expect((await h.api('/bff/session', { cookie })).status).toBe(401);
  });

  it('keeps an active session alive even when the throttled idle write lands late', async () => {
    const slow = await createHarness({
      upstream: h.upstream,
      store: {
        ...h.store,
        touch: (idHash, at) =>
          new Promise<void>((resolve) => setTimeout(resolve, 300)).then(() =>
            h.store.touch(idHash, at),
          ),
      },
    });
    const { cookie } = await slow.login();
    for (let i = 0; i < 4; i++) {
      slow.clock.advance(20 * 60_000);
      expect((await slow.api('/bff/session', { cookie })).status).toBe(200);
    }
  });

  it('expires 12 hours after sign-in however active it is', async () => {
    const { cookie } = await h.login();
    for (let i = 0; i < 12 * 3 - 1; i++) {
      h.clock.advance(20 * 60_000);
      expect((await h.api('/bff/session', { cookie })).status).toBe(200);
    }
    h.clock.advance(20 * 60_000);
    expect((await h.api('/bff/session', { cookie })).status).toBe(401);
  });
});

describe('GET /bff/config', () => {
  it('lists only the configured regions and the upload limit, without a session', async () => {
    const fresh = await createHarness({ upstream: h.upstream });
    const res = await fresh.request('/bff/config');
    expect(res.status).toBe(200);
    // `auto`, not detected yet, no identities file: the form offers the optional email.
    expect(await res.json()).toEqual({
      regions: [{ id: 'default', label: 'Default', askEmail: true }],
      maxUploadBytes: 262_144_000 + 1024 * 1024,
    });
    const both = await createHarness({
      upstream: h.upstream,
      config: {
        regions: [regionFor('default', h.upstream.apiUrl), regionFor('eu', h.upstream.apiUrl)],
      },
    });
    const body = (await (await both.request('/bff/config')).json()) as {
      regions: { id: string }[];
    };
    expect(body.regions.map((r) => r.id)).toEqual(['default', 'eu']);
  });

  it('adds the profile once detected; askEmail only where hosted (or unknown) without identities', async () => {
    const fresh = await createHarness({ upstream: h.upstream });
    expect((await fresh.login()).res.status).toBe(200);
    expect(await (await fresh.request('/bff/config')).json()).toMatchObject({
      regions: [{ id: 'default', label: 'Default', profile: 'extended' }],
    });
    const regions = [
      regionFor('default', h.upstream.apiUrl, { profile: 'hosted' }),
      regionFor('eu', h.upstream.apiUrl, { profile: 'extended' }),
    ];
    const hosted = await createHarness({ upstream: h.upstream, config: { regions } });
    expect((await (await hosted.request('/bff/config')).json()) as unknown).toMatchObject({
      regions: [
        { id: 'default', profile: 'hosted', askEmail: true },
        { id: 'eu', profile: 'extended' },
      ],
    });
    const named = await createHarness({
      upstream: h.upstream,
      config: { regions, identities: [{ clientId: CLIENT_ID, email: ME.email, role: 'ADMIN' }] },
    });
    const body = (await (await named.request('/bff/config')).json()) as {
      regions: Record<string, unknown>[];
    };
    expect(body.regions.map((r) => r.askEmail)).toEqual([undefined, undefined]);
  });
});

describe('no secret leaves the BFF', () => {
  it('never shows the secret, a token or a session cookie in a log line or a response body', () => {
    const forbidden = [CLIENT_SECRET, ...h.upstream.issued];
    const text = h.logs.join('\n') + h.seen.map((s) => s.body).join('\n');
    for (const value of forbidden) expect(text).not.toContain(value);
    expect(h.logs.join('\n')).not.toMatch(/__Host-wsc_session|[A-Za-z0-9_-]{43}/);
  });
});
