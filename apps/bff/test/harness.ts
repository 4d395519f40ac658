// Test harness: a BFF wired to a fake upstream, a shared in-memory PGlite store, a fake clock and
// a captured log, plus helpers that sign in and call the BFF like the console does.
import { randomInt } from 'node:crypto';
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

import type { AppDeps } from '../src/app.ts';
import type { SessionStore } from '../src/db/store.ts';
import type { BffConfig } from '../src/lib/config.ts';
import type { FakeUpstream } from './fake-upstream.ts';
import { createApp } from '../src/app.ts';
import { openStore } from '../src/db/store.ts';
import { createFakeClock } from '../src/lib/clock.ts';
import { defaultConfig, regionFor } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createBffMetrics } from '../src/lib/metrics.ts';
import { startServer } from '../src/lib/server.ts';
import { SESSION_COOKIE } from '../src/lib/sessions.ts';
import { CLIENT_ID, CLIENT_SECRET, startFakeUpstream } from './fake-upstream.ts';

export const SESSION_SECRET = 'test-session-secret-0123456789-abcdefghij';

/** The per-person limits, all off (tests of one limit turn that one on). */
export const FAIRNESS_OFF = {
  sessionsPerPerson: 0,
  signInsPerCredential: { ratePerSecond: 0, burst: 1 },
  streamsPerPerson: 0,
  presencePerPerson: { ratePerSecond: 0, burst: 1 },
  requestsPerSession: { ratePerSecond: 0, burst: 1 },
} as const;

let sharedStore: Promise<SessionStore> | undefined;

/**
 * The store tests share: in-memory PGlite (one per worker: starting PGlite costs seconds), or
 * PostgreSQL when TEST_BFF_DATABASE_URL is set (scripts/test.sh runs the suite both ways).
 */
export function testStore(): Promise<SessionStore> {
  const url = process.env.TEST_BFF_DATABASE_URL;
  sharedStore ??= openStore(url ? { kind: 'postgres', url } : { kind: 'memory' });
  return sharedStore;
}

export type Seen = { status: number; headers: string; body: string };

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/**
 * A BFF over a fresh fake upstream.
 *
 * @example
 * const h = await createHarness();
 * const { cookie } = await h.login();
 * const res = await h.api('/api/v1/records', { cookie });
 */
export async function createHarness(
  options: {
    config?: Partial<BffConfig>;
    store?: SessionStore;
    upstream?: FakeUpstream;
    /** Send every request over a real loopback socket (node-server's code paths). */
    socket?: boolean;
    /** The record change bus and the live hub hook (live events tests). */
    deps?: Pick<AppDeps, 'recordChanges' | 'onLiveHub'>;
  } = {},
) {
  const upstream = options.upstream ?? (await startFakeUpstream());
  const store = options.store ?? (await testStore());
  const clock = createFakeClock(Date.parse('2025-03-01T09:00:00.000Z'));
  const logs: string[] = [];
  const seen: Seen[] = [];
  const config: BffConfig = {
    ...defaultConfig(),
    regions: [regionFor('default', upstream.apiUrl)],
    sessionSecret: SESSION_SECRET,
    publicDir: null,
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50, maxRetryAfterMs: 2_000 },
    // The per-person limits off (0): suites sign the same people in many times over a shared
    // store and send bursts of requests; the limits' own tests (and e2e, and the bench) turn
    // them on.
    fairness: { ...defaultConfig().fairness, ...FAIRNESS_OFF },
    ...options.config,
  };
  const logger = createLogger({
    output: (line) => logs.push(line),
    level: 'debug',
    now: clock.now,
  });
  const metrics = createBffMetrics({ store, clock, regions: config.regions });
  const app = createApp({ config, store, clock, logger, metrics, ...options.deps });

  /** `app.request` that also keeps a copy of every answer for the no-leak assertions. */
  let base: string | undefined;
  const request = async (
    path: string,
    init: RequestInit = {},
    env?: unknown,
  ): Promise<Response> => {
    const res =
      base && env === undefined
        ? await fetch(base + path, init)
        : await app.request(path, init, env as never);
    const copy = res.clone();
    const body = res.body ? await copy.text() : '';
    seen.push({ status: res.status, headers: JSON.stringify([...res.headers]), body });
    return res;
  };

  // Harnesses share a store (per worker, or one PostgreSQL for all), and with it the failed
  // sign-in counts per client address: each signs in from an address of its own, so one test's
  // failures never count against another's (tests of the limit pass theirs).
  const peer = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  const login = async (
    input: {
      clientId?: string;
      clientSecret?: string;
      region?: string;
      cookie?: string;
      email?: string;
      /** The console page the sign-in leads to (`LoginRequest.next`). */
      next?: string;
      /** The client's address (app.request only; over a socket it is the loopback peer). */
      address?: string;
    } = {},
  ) => {
    const env = base
      ? undefined
      : { incoming: { socket: { remoteAddress: input.address ?? peer } } };
    const res = await request(
      '/bff/login',
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-csrf': '1',
          ...(input.cookie ? { cookie: `${SESSION_COOKIE}=${input.cookie}` } : {}),
        },
        body: JSON.stringify({
          clientId: input.clientId ?? CLIENT_ID,
          clientSecret: input.clientSecret ?? CLIENT_SECRET,
          region: input.region ?? 'default',
          ...(input.email === undefined ? {} : { email: input.email }),
          ...(input.next === undefined ? {} : { next: input.next }),
        }),
      },
      env,
    );
    const setCookie = res.headers.get('set-cookie') ?? '';
    const cookie = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(setCookie)?.[1] ?? '';
    return { res, cookie, setCookie };
  };

  const api = (path: string, init: RequestInit & { cookie?: string; csrf?: boolean } = {}) => {
    const headers = new Headers(init.headers);
    if (init.csrf !== false) headers.set('x-csrf', '1');
    if (init.cookie) headers.set('cookie', `${SESSION_COOKIE}=${init.cookie}`);
    const { cookie: _cookie, csrf: _csrf, ...rest } = init;
    return request(path, { ...rest, headers });
  };

  let server: ServerType | undefined;
  /** Serve the app on a loopback port (for socket-level tests). */
  const listen = async (): Promise<string> => {
    if (server) return base ?? '';
    // The production server and its limits (lib/server.ts), on a free loopback port.
    server = startServer(app.fetch, { port: 0, hostname: '127.0.0.1', limits: config.server });
    await new Promise<void>((resolve) => server?.once('listening', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const close = async () => {
    if (server) {
      const s = server;
      (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    if (!options.upstream) await upstream.close();
  };

  /** Open client connections of the loopback server (0 when not listening). */
  const connections = () =>
    new Promise<number>((resolve) => {
      if (!server) resolve(0);
      else server.getConnections((error, count) => resolve(error ? -1 : count));
    });

  if (options.socket) base = await listen();

  /** The Origin a same-origin browser would send. */
  const origin = () => (base ? new URL(base).origin : 'http://localhost');

  return {
    metrics,
    app,
    upstream,
    store,
    clock,
    logs,
    seen,
    config,
    request,
    login,
    api,
    listen,
    connections,
    close,
    origin,
  };
}
