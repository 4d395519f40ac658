import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import type { SessionStore } from '../../db/store.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('/bff/health and /bff/ready', () => {
  it('health answers 200 {status: ok} without a session', async () => {
    const res = await h.request('/bff/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('ready answers 200 when the store and the API answer', async () => {
    const res = await h.request('/bff/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', 'upstream:default': 'ok' },
    });
  });

  it('ready answers 503 naming what is down', async () => {
    const down = await createHarness({
      upstream: h.upstream,
      config: {
        regions: [
          regionFor('default', h.upstream.apiUrl),
          regionFor('eu', 'http://127.0.0.1:9/v1'),
        ],
      },
    });
    const res = await down.request('/bff/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      checks: { 'upstream:default': 'ok', 'upstream:eu': 'fail' },
    });
    const broken: SessionStore = { ...h.store, ping: () => Promise.reject(new Error('down')) };
    const noStore = await createHarness({ upstream: h.upstream, store: broken });
    const res2 = await noStore.request('/bff/ready');
    expect(res2.status).toBe(503);
    expect(await res2.json()).toMatchObject({ checks: { store: 'fail' } });
  });
});
