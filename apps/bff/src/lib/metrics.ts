// The BFF's Prometheus metrics (packages/metrics): requests by route and status, Node's process
// metrics (event-loop lag among them), upstream latency and retries, token calls, sessions and
// what is in flight. Served on BFF_METRICS_PORT, never on the public port (src/index.ts).
import { sql } from 'kysely';

import {
  cachedReading,
  Counter,
  createMetrics,
  DURATION_BUCKETS,
  Gauge,
  Histogram,
} from '@wsc/metrics';

import type { SessionStore } from '../db/store.ts';
import type { Clock } from './clock.ts';
import type { Region } from './region.ts';

export type BffMetrics = ReturnType<typeof createBffMetrics>;

/** How old the history's size may be when scraped. */
const HISTORY_SIZE_MAX_AGE_MS = 60_000;

/**
 * The registry of one BFF process. `sessions` counts unexpired sessions in the store (all
 * instances sharing it) when scraped.
 *
 * @example
 * const metrics = createBffMetrics({ store, clock, regions: config.regions });
 */
export function createBffMetrics(deps: {
  store: SessionStore;
  clock: Clock;
  regions: readonly Region[];
}) {
  const metrics = createMetrics('wsc_bff');
  const registers = [metrics.registry];
  const upstreamDuration = new Histogram({
    name: 'wsc_bff_upstream_duration_seconds',
    help: 'Proxied requests: from sending to the API to its response headers (retries included), by region and status (or timeout, error)',
    labelNames: ['region', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const upstreamRetries = new Counter({
    name: 'wsc_bff_upstream_retries_total',
    help: 'Proxied requests sent again after a 429, 502, 503, 504 or a reset (GET and HEAD only)',
    labelNames: ['region'] as const,
    registers,
  });
  const tokenCalls = new Counter({
    name: 'wsc_bff_token_calls_total',
    help: "Calls of a region's token endpoint (sign-ins and refreshes), by answer status or error",
    labelNames: ['region', 'result'] as const,
    registers,
  });
  const uploadsInFlight = new Gauge({
    name: 'wsc_bff_uploads_in_flight',
    help: 'Uploads being proxied',
    registers,
  });
  const inFlight = new Gauge({
    name: 'wsc_bff_proxied_in_flight',
    help: 'Proxied requests in flight, by region (the region cap is BFF_MAX_IN_FLIGHT_PER_REGION)',
    labelNames: ['region'] as const,
    registers,
  });
  const historyWriteFailures = new Counter({
    name: 'wsc_bff_history_write_failures_total',
    help: 'Changes the upstream accepted that the record history could not keep (the write still succeeded)',
    registers,
  });
  const historyNotKept = new Counter({
    name: 'wsc_bff_history_not_kept_total',
    help: "Changes past their author's daily history budget: kept as one marker entry, or (past the markers) not at all",
    labelNames: ['kept'] as const,
    registers,
  });
  // Size on disk of the record history (table, indexes, TOAST): read from the catalog, cheap, and
  // at most once a minute however often Prometheus scrapes.
  const historyBytes = cachedReading(
    async () => {
      const { rows } = await sql<{
        bytes: number | string;
      }>`select pg_total_relation_size('record_history') as bytes`.execute(deps.store.db);
      return Number(rows[0]?.bytes ?? 0);
    },
    HISTORY_SIZE_MAX_AGE_MS,
    deps.clock.now,
  );
  new Gauge({
    name: 'wsc_bff_history_bytes',
    help: 'Bytes the record history takes in the store (table, indexes, TOAST), read at most once a minute',
    registers,
    async collect() {
      // A failed reading keeps the last value rather than failing the whole scrape.
      await historyBytes().then(
        (bytes) => this.set(bytes),
        () => undefined,
      );
    },
  });
  new Gauge({
    name: 'wsc_bff_sessions',
    help: 'Unexpired sessions in the store (every instance sharing it)',
    registers,
    async collect() {
      const row = await deps.store.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('expires_at', '>', deps.clock.now())
        .executeTakeFirst();
      this.set(Number(row?.n ?? 0));
    },
  });
  /** `fetch` counting the token requests (POST) to a region's token endpoint; not readiness probes. */
  const countTokenCalls =
    (inner: typeof fetch): typeof fetch =>
    async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const region =
        method.toUpperCase() === 'POST' ? deps.regions.find((r) => r.tokenUrl === url) : undefined;
      if (!region) return inner(input, init);
      try {
        const res = await inner(input, init);
        tokenCalls.inc({ region: region.id, result: String(res.status) });
        return res;
      } catch (error) {
        tokenCalls.inc({ region: region.id, result: 'error' });
        throw error;
      }
    };
  return {
    ...metrics,
    upstreamDuration,
    upstreamRetries,
    uploadsInFlight,
    inFlight,
    historyWriteFailures,
    historyNotKept,
    countTokenCalls,
  };
}
