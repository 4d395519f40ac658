// Prometheus metrics of both servers (the workspace API and the BFF): a registry per server with
// Node's process metrics (event-loop lag, heap, CPU, handles), a request-duration histogram by
// route and status, and the server's own counters and gauges; served as Prometheus text on a port
// of their own (METRICS_PORT), never on the public one.
import { createServer } from 'node:http';
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routePath } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, Registry };

/** Request and upstream durations, in seconds: 1 ms to 30 s. */
export const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

export type Metrics = {
  registry: Registry;
  /** `<prefix>_http_request_duration_seconds{method, route, status}`. */
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  /**
   * Hono middleware observing every request: the route is the pattern that answered (`/v1/users/:id`,
   * never the raw path, so labels stay few), `unmatched` when nothing did.
   */
  middleware: <E extends Env = Env>(options?: {
    status?: (c: Context<E>) => number;
  }) => MiddlewareHandler<E>;
};

/**
 * A registry with the process metrics and the request histogram, names prefixed (`wsc_api`,
 * `wsc_bff`).
 *
 * @example
 * const metrics = createMetrics('wsc_api');
 * app.use(metrics.middleware());
 */
export function createMetrics(prefix: string): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `${prefix}_` });
  const requestDuration = new Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: 'Time from a request arriving to its answer being handed to Node, by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const middleware: Metrics['middleware'] =
    <E extends Env>(options: { status?: (c: Context<E>) => number } = {}): MiddlewareHandler<E> =>
    async (c, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const status = options.status?.(c) ?? c.res.status;
        const route = routePath(c);
        requestDuration.observe(
          {
            method: c.req.method,
            route: status === 404 && (route === '*' || route === '/*') ? 'unmatched' : route,
            status: String(status),
          },
          (performance.now() - started) / 1000,
        );
      }
    };
  return { registry, requestDuration, middleware };
}

/**
 * A reading for a gauge's `collect` that costs a query: taken at most once per `maxAgeMs` (scrapes
 * in between get the last value), and one at a time (a slow reading is shared, not repeated). A
 * failed reading is thrown to that scrape and retried at the next.
 *
 * @example
 * const size = cachedReading(() => tableBytes(db), 60_000);
 * new Gauge({ name, help, async collect() { this.set(await size()); } });
 */
export function cachedReading(
  read: () => Promise<number>,
  maxAgeMs: number,
  now: () => number = Date.now,
): () => Promise<number> {
  let last: { value: number; at: number } | undefined;
  let pending: Promise<number> | undefined;
  return () => {
    if (last && now() - last.at < maxAgeMs) return Promise.resolve(last.value);
    pending ??= read()
      .then((value) => {
        last = { value, at: now() };
        return value;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

/**
 * The metrics server's own limits: it answers one small GET to a scraper, so it holds few
 * connections and no slow ones (a port left reachable by mistake cannot be used to hold sockets).
 */
export type MetricsServerLimits = {
  /** Request line and headers must arrive within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed at accept. */
  maxConnections: number;
  /** How often Node looks for requests past the two timeouts. */
  checkIntervalMs: number;
};

/** A scraper every few seconds, and a person with curl: a handful of connections. */
export const METRICS_SERVER_LIMITS: MetricsServerLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 16,
  checkIntervalMs: 1_000,
};

/**
 * Serves `GET /metrics` (Prometheus text) on its own port; anything else is a 404. Resolves once
 * listening. Bind it to loopback or a private interface: it is not behind the app's sign-in
 * (docs/security.md); it has timeouts and a connection cap of its own (`limits`).
 *
 * @example
 * const server = await startMetricsServer(metrics.registry, { port: 9464, host: '127.0.0.1' });
 */
export async function startMetricsServer(
  registry: Registry,
  options: { port: number; host: string; limits?: Partial<MetricsServerLimits> },
): Promise<{ server: Server; port: number }> {
  const limits = { ...METRICS_SERVER_LIMITS, ...options.limits };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) =>
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`metrics failed: ${String(error)}\n`),
      );
    },
  );
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
