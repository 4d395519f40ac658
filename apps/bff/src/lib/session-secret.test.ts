// A session the BFF cannot open any more (SESSION_SECRET rotated, or a sealed value altered in
// the store) is signed out: 401 with the cookie cleared on every route, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../test/fake-upstream.ts';
import type { Harness } from '../../test/harness.ts';
import { startFakeUpstream } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { regionFor } from './config.ts';
import { hashSessionId } from './crypto.ts';

const ROTATED = 'a-completely-different-session-secret-0123456789';

let upstream: FakeUpstream;
let hostedUpstream: FakeUpstream;
const harnesses: Harness[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  hostedUpstream = await startFakeUpstream({ mode: 'hosted' });
});
afterAll(async () => {
  for (const h of harnesses) await h.close();
  await upstream.close();
  await hostedUpstream.close();
});

async function harness(options: Parameters<typeof createHarness>[0]) {
  const h = await createHarness(options);
  harnesses.push(h);
  return h;
}

/** Every route a signed-in console calls, as it calls them. */
const ROUTES: { method: string; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/bff/session' },
  { method: 'GET', path: '/api/v1/me' },
  { method: 'POST', path: '/api/v1/apps/support/SUP-1/comment', body: { contents: 'x' } },
  { method: 'GET', path: '/bff/definitions' },
  { method: 'GET', path: '/bff/views' },
  {
    method: 'POST',
    path: '/bff/views',
    body: { name: 'v', recordType: 'apps', alias: 'support' },
  },
  { method: 'GET', path: '/bff/workspace' },
];

describe('a session sealed under another SESSION_SECRET', () => {
  it('answers 401 and clears the cookie on every route (not 500), and the row is gone', async () => {
    for (const mode of ['extended', 'hosted'] as const) {
      for (const route of ROUTES) {
        const up = mode === 'hosted' ? hostedUpstream : upstream;
        const regions = [regionFor('default', up.apiUrl, { profile: mode })];
        const before = await harness({ upstream: up, config: { regions } });
        const { cookie } = await before.login({ email: 'ada@example.com' });
        expect(cookie).not.toBe('');
        // The same store, restarted with a new secret.
        const after = await harness({
          upstream: up,
          store: before.store,
          config: { regions, sessionSecret: ROTATED },
        });
        up.requests.length = 0;
        const res = await after.api(route.path, {
          cookie,
          method: route.method,
          ...(route.body === undefined
            ? {}
            : {
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(route.body),
              }),
        });
        const label = `${mode} ${route.method} ${route.path}`;
        expect(res.status, label).toBe(401);
        expect(res.headers.get('set-cookie'), label).toContain('Max-Age=0');
        expect(up.apiRequests(), label).toEqual([]);
        const row = await after.store.get(hashSessionId(cookie));
        expect(row, label).toBeUndefined();
        expect(
          after.logs.filter((l) => l.includes('unhandled error')),
          label,
        ).toEqual([]);
      }
    }
  });

  it('also when only the stored token was altered: the next API call signs out (401)', async () => {
    const h = await harness({ upstream });
    const { cookie } = await h.login();
    const idHash = hashSessionId(cookie);
    await h.store.db
      .updateTable('sessions')
      .set({ token_sealed: 'v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
      .where('id_hash', '=', idHash)
      .execute();
    // A fresh instance over the store, so the token is read from the row, not memory.
    const fresh = await harness({ upstream, store: h.store });
    const res = await fresh.api('/api/v1/me', { cookie });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(fresh.logs.filter((l) => l.includes('unhandled error'))).toEqual([]);
  });
});
