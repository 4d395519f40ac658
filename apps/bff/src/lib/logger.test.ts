import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../test/harness.ts';
import { CLIENT_SECRET } from '../../test/fake-upstream.ts';
import { createHarness } from '../../test/harness.ts';
import { createLogger } from './logger.ts';

let h: Harness;

beforeAll(async () => {
  h = await createHarness({ config: { upstreamTimeoutMs: 300 } });
});
afterAll(async () => {
  await h.close();
});

describe('structured logs', () => {
  it('writes one JSON line per request at debug with id, method, path, status, duration and upstream status', async () => {
    const { cookie } = await h.login();
    h.logs.length = 0;
    const res = await h.api('/api/v1/users?filter=status%3D%3DACTIVE', {
      cookie,
      headers: { 'x-request-id': 'req-42' },
    });
    expect(res.status).toBe(200);
    const line = h.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'request');
    expect(line).toMatchObject({
      level: 'debug',
      requestId: 'req-42',
      method: 'GET',
      path: '/api/v1/users?filter=status%3D%3DACTIVE',
      status: 200,
      upstreamStatus: 200,
    });
    expect(typeof line?.durationMs).toBe('number');
  });

  it('never logs or answers the secret, a token or the cookie across sign-in, proxying and errors', async () => {
    const wrongSecret = 'Wrong-Secret-Also-Never-Logged-987';
    await h.login({ clientSecret: wrongSecret });
    const { cookie } = await h.login();
    const { cookie: second } = await h.login({ cookie });
    await h.api('/api/v1/users', { cookie: second });
    h.upstream.revokeTokens();
    await h.api('/api/v1/users', { cookie: second });
    h.upstream.route = (req) => req.socket.destroy();
    await h.api('/api/v1/users', { cookie: second });
    h.upstream.route = () => undefined;
    await h.api('/api/v1/users', { cookie: second, method: 'DELETE' });
    await h.api('/api/v1/users', { cookie: second, csrf: false });
    await h.api('/api/v1/%2e%2e%2fusers', { cookie: second });
    await h.api('/bff/logout', { method: 'POST', cookie: second });
    await h.api('/api/v1/users', { cookie: second });

    const logText = h.logs.join('\n');
    expect(h.logs.length).toBeGreaterThan(10);
    const bodies = h.seen.map((s) => s.body).join('\n');
    for (const value of [CLIENT_SECRET, wrongSecret, ...h.upstream.issued]) {
      expect(logText).not.toContain(value);
      expect(bodies).not.toContain(value);
    }
    for (const value of [cookie, second]) {
      expect(logText).not.toContain(value);
      expect(bodies).not.toContain(value);
    }
    // Response headers carry a session cookie only in the sign-in answer that sets it.
    const withCookie = h.seen.filter((s) => s.headers.includes(second));
    expect(withCookie).toHaveLength(1);
  });

  it('redacts secret-looking field names whatever a caller passes', () => {
    const lines: string[] = [];
    const log = createLogger({ output: (l) => lines.push(l) });
    log.info('oops', {
      clientSecret: 'x1',
      accessToken: 'x2',
      cookie: 'x3',
      authorization: 'x4',
      ok: 'fine',
    });
    log.debug('hidden below info');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      clientSecret: '[redacted]',
      accessToken: '[redacted]',
      cookie: '[redacted]',
      authorization: '[redacted]',
      ok: 'fine',
    });
  });
});
