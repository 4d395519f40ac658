import { connect } from 'node:net';
import type { Server } from 'node:http';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

import { cachedReading, createMetrics, startMetricsServer } from './index.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('createMetrics', () => {
  it('observes requests by route pattern and status, never the raw path', async () => {
    const metrics = createMetrics('wsc_test');
    const app = new Hono();
    app.use(metrics.middleware());
    app.get('/v1/users/:id', (c) => c.json({ id: c.req.param('id') }));
    app.get('/v1/boom', () => {
      throw new Error('boom');
    });
    for (const id of ['a', 'b', 'c'])
      expect((await app.request(`/v1/users/${id}`)).status).toBe(200);
    expect((await app.request('/v1/nothing-here')).status).toBe(404);
    expect((await app.request('/v1/boom')).status).toBe(500);

    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'wsc_test_http_request_duration_seconds_count{method="GET",route="/v1/users/:id",status="200"} 3',
    );
    expect(text).toContain(
      'wsc_test_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).toContain(
      'wsc_test_http_request_duration_seconds_count{method="GET",route="/v1/boom",status="500"} 1',
    );
    expect(text).not.toMatch(/route="\/v1\/users\/a"/);
    // Node's own: event-loop lag among them.
    expect(text).toContain('wsc_test_nodejs_eventloop_lag_seconds');
  });

  it('takes the status from the app when the answer went out on the socket itself', async () => {
    const metrics = createMetrics('wsc_test2');
    const app = new Hono<{ Variables: { sent: number } }>();
    app.use(
      metrics.middleware<{ Variables: { sent: number } }>({
        status: (c) => (c.get('sent') as number | undefined) ?? c.res.status,
      }),
    );
    app.get('/api/*', (c) => {
      c.set('sent', 207);
      return c.body(null, 200);
    });
    await app.request('/api/v1/x');
    expect(await metrics.registry.metrics()).toContain(
      'wsc_test2_http_request_duration_seconds_count{method="GET",route="/api/*",status="207"} 1',
    );
  });
});

describe('startMetricsServer', () => {
  it('serves Prometheus text at GET /metrics on its own port, and nothing else', async () => {
    const metrics = createMetrics('wsc_test3');
    const { server, port } = await startMetricsServer(metrics.registry, {
      port: 0,
      host: '127.0.0.1',
    });
    servers.push(server);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('# TYPE wsc_test3_http_request_duration_seconds histogram');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it(
    'closes a connection whose headers never finish, and holds at most maxConnections',
    { timeout: 20_000 },
    async () => {
      const metrics = createMetrics('wsc_test4');
      const { server, port } = await startMetricsServer(metrics.registry, {
        port: 0,
        host: '127.0.0.1',
        limits: { headersTimeoutMs: 300, checkIntervalMs: 100, maxConnections: 2 },
      });
      servers.push(server);
      /** A socket that sends half a request line; resolves when the server closes it. */
      const stalled = () => {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        // Read (and drop) what the server sends, so that its close is seen.
        socket.resume();
        socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n');
        return {
          socket,
          closed: new Promise<void>((resolve) => socket.on('close', () => resolve())),
        };
      };
      const one = stalled();

      const two = stalled();
      await new Promise((resolve) => one.socket.once('connect', resolve));
      await new Promise((resolve) => two.socket.once('connect', resolve));
      // A third connection past the cap is closed at accept, long before any timeout.
      const three = stalled();
      await three.closed;
      // The two slow ones are cut by the headers timeout (a loaded machine: a generous bound).
      await Promise.all([one.closed, two.closed]);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
    },
  );
});

describe('cachedReading', () => {
  it('reads at most once per max age, shares a reading in flight, and retries after a failure', async () => {
    let clock = 0;
    let reads = 0;
    let fail = false;
    let release: () => void = () => {};
    const read = cachedReading(
      async () => {
        reads += 1;
        await new Promise<void>((resolve) => (release = resolve));
        if (fail) throw new Error('store down');
        return reads * 10;
      },
      60_000,
      () => clock,
    );
    const both = [read(), read()];
    release();
    expect(await Promise.all(both)).toEqual([10, 10]);
    expect(reads).toBe(1);
    clock = 59_999;
    expect(await read()).toBe(10);
    clock = 60_000;
    fail = true;
    const failed = read();
    release();
    await expect(failed).rejects.toThrow('store down');
    fail = false;
    const again = read();
    release();
    expect(await again).toBe(30);
  });
});
