// The BFF's Prometheus metrics, read from its registry after real requests through the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

/** The value of one sample line (`name{labels} value`), or undefined. */
async function sample(line: string): Promise<number | undefined> {
  const text = await h.metrics.registry.metrics();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('BFF metrics', () => {
  it('counts requests by route and status, the status sent on the socket for proxied ones', async () => {
    const { cookie } = await h.login();
    await h.api('/api/v1/users', { cookie });
    await h.api('/api/v1/users', { cookie });
    h.upstream.route = (req, res) => {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end('{"status":404}');
    };
    await h.api('/api/v1/users/nobody', { cookie });
    h.upstream.reset();
    await h.api('/bff/session', { cookie });

    const count = 'wsc_bff_http_request_duration_seconds_count';
    expect(
      await sample(`${count}{method="GET",route="/api/v1/*",status="200"}`),
    ).toBeGreaterThanOrEqual(2);
    expect(await sample(`${count}{method="GET",route="/api/v1/*",status="404"}`)).toBe(1);
    expect(
      await sample(`${count}{method="POST",route="/bff/login",status="200"}`),
    ).toBeGreaterThanOrEqual(1);
    expect(await sample(`${count}{method="GET",route="/bff/session",status="200"}`)).toBe(1);
    expect(
      await sample('wsc_bff_upstream_duration_seconds_count{region="default",status="200"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await sample('wsc_bff_token_calls_total{region="default",result="200"}'),
    ).toBeGreaterThanOrEqual(1);
    // A readiness probe also reaches the token URL (GET): it is not a token call.
    const tokenCalls = async () =>
      (await h.metrics.registry.metrics())
        .split('\n')
        .filter((l) => l.startsWith('wsc_bff_token_calls_total{'))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    const before = await tokenCalls();
    expect((await h.request('/bff/ready')).status).toBe(200);
    expect(await tokenCalls()).toBe(before);
    expect(await sample('wsc_bff_sessions')).toBeGreaterThanOrEqual(1);
    // Every slot given back: nothing in flight once the answers are over.
    expect(await sample('wsc_bff_proxied_in_flight{region="default"}')).toBe(0);
    expect(await sample('wsc_bff_uploads_in_flight')).toBe(0);
    expect(await h.metrics.registry.metrics()).toContain('wsc_bff_nodejs_eventloop_lag_seconds');
  });

  it('counts retries of an upstream answering 503, and failed token calls', async () => {
    const { cookie } = await h.login();
    let calls = 0;
    h.upstream.route = (req, res) => {
      req.resume();
      calls += 1;
      res.writeHead(calls === 1 ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    };
    const before = (await sample('wsc_bff_upstream_retries_total{region="default"}')) ?? 0;
    expect((await h.api('/api/v1/users', { cookie })).status).toBe(200);
    expect(await sample('wsc_bff_upstream_retries_total{region="default"}')).toBe(before + 1);
    h.upstream.reset();
    h.upstream.tokenFailure = 401;
    await h.login();
    expect(
      await sample('wsc_bff_token_calls_total{region="default",result="401"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('is not served on any public route', async () => {
    for (const path of ['/metrics', '/bff/metrics', '/api/metrics']) {
      const res = await h.request(path);
      expect(res.status, path).not.toBe(200);
      expect(await res.text(), path).not.toContain('wsc_bff_');
    }
  });
});
