// The Origin check compares scheme, host and port: `http://console.example` is foreign to an
// `https://console.example` deployment, whether the origin is configured or derived from Host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import { CLIENT_SECRET } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { crossSiteReason, expectedOrigins } from './csrf.ts';

let derived: Harness;
let configured: Harness;
let cookie: string;

beforeAll(async () => {
  derived = await createHarness();
  configured = await createHarness({
    upstream: derived.upstream,
    store: derived.store,
    config: { publicOrigins: ['https://console.example'] },
  });
  ({ cookie } = await derived.login());
});
afterAll(async () => {
  await configured.close();
  await derived.close();
});

const login = (h: Harness, headers: Record<string, string>) =>
  h.request('/bff/login', {
    method: 'POST',
    headers: { 'x-csrf': '1', 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ clientId: 'client-1', clientSecret: CLIENT_SECRET, region: 'default' }),
  });

describe('Origin: scheme, host and port', () => {
  it('derived from Host: only https://<host>, plus http:// for a loopback host', async () => {
    const cases: [host: string, origin: string, allowed: boolean][] = [
      ['console.example', 'https://console.example', true],
      ['console.example', 'http://console.example', false],
      ['console.example', 'https://console.example:8443', false],
      ['console.example:8443', 'https://console.example:8443', true],
      ['console.example:8443', 'http://console.example:8443', false],
      ['console.example', 'https://evil.example', false],
      ['console.example', 'https://console.example.evil.example', false],
      ['console.example', 'null', false],
      ['console.example', 'file://', false],
      ['localhost:3000', 'http://localhost:3000', true],
      ['localhost:3000', 'http://localhost:3001', false],
      ['127.0.0.1:3000', 'http://127.0.0.1:3000', true],
      ['[::1]:3000', 'http://[::1]:3000', true],
    ];
    derived.upstream.reset();
    for (const [host, origin, allowed] of cases) {
      const res = await login(derived, { host, origin });
      expect(res.status, `${host} ${origin}`).toBe(allowed ? 200 : 403);
    }
    // Refused before anything else: one token call per allowed case only.
    expect(derived.upstream.tokenCalls).toBe(cases.filter(([, , a]) => a).length);
  });

  it('configured (BFF_PUBLIC_ORIGIN): exactly those origins, whatever the Host says', async () => {
    const cases: [origin: string | undefined, status: number][] = [
      ['https://console.example', 200],
      ['http://console.example', 403],
      ['https://console.example:444', 403],
      ['https://CONSOLE.example', 200],
      ['http://localhost', 403],
      [undefined, 200],
    ];
    for (const [origin, status] of cases) {
      const res = await login(configured, {
        host: 'internal:3000',
        ...(origin ? { origin } : {}),
      });
      expect(res.status, String(origin)).toBe(status);
    }
    // The proxy too: a foreign-scheme origin never reaches the API.
    configured.upstream.reset();
    const proxied = await configured.api('/api/v1/me', {
      cookie,
      headers: { origin: 'http://console.example' },
    });
    expect(proxied.status).toBe(403);
    expect(configured.upstream.requests).toHaveLength(0);
  });

  it('as pure rules', () => {
    expect(expectedOrigins(null, 'console.example', false)).toEqual(['https://console.example']);
    expect(expectedOrigins(null, 'console.example:443', false)).toEqual([
      'https://console.example',
    ]);
    expect(expectedOrigins(null, 'localhost:3000', false)).toEqual([
      'https://localhost:3000',
      'http://localhost:3000',
    ]);
    // Over TLS the deployment is https, loopback or not.
    expect(expectedOrigins(null, 'localhost:3000', true)).toEqual(['https://localhost:3000']);
    expect(expectedOrigins(null, 'evil.example/path', false)).toEqual([]);
    expect(expectedOrigins(null, 'user@evil.example', false)).toEqual([]);
    expect(expectedOrigins(['https://a.example'], 'b.example', false)).toEqual([
      'https://a.example',
    ]);
    const allowed = ['https://console.example'];
    expect(crossSiteReason(new Headers({ origin: 'http://console.example' }), allowed)).toBe(
      'foreign Origin',
    );
    expect(crossSiteReason(new Headers({ origin: 'https://console.example' }), allowed)).toBe(
      undefined,
    );
    expect(crossSiteReason(new Headers({ 'sec-fetch-site': 'cross-site' }), allowed)).toBe(
      'cross-site request',
    );
  });
});
