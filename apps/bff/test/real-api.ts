// The REAL workspace API (its `workspace-api/testing` harness: seeded users, credentials, tokens,
// the demo workspace's definitions) served on a loopback port for the BFF's record history tests,
// plus the proxied write those tests make as the console does.
import { randomInt } from 'node:crypto';
import type { ServerType } from '@hono/node-server';
import type { Kysely } from 'kysely';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'kysely';

import type { Harness } from './harness.ts';

type Who = 'admin' | 'member' | 'billing';

/** The part of workspace-api's test harness used here (see workspace-api.integration.test.ts). */
export type ApiHarness = {
  app: { fetch: (request: Request) => Response | Promise<Response> };
  db: Kysely<unknown>;
  credentials: Record<Who, { clientId: string; clientSecret: string }>;
  users: Record<Who, { id: string; email: string }>;
  tokens: Record<Who, string>;
  request: (
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
  ) => Promise<{ status: number; json: unknown }>;
  close: () => Promise<void>;
};
const API_HARNESS = 'workspace-api/testing';

/** One request the API received. */
export type Received = { method: string; path: string; headers: Headers };

/**
 * Starts the API (extended, or `hosted`: only the published contract) on a loopback port.
 *
 * @example
 * const real = await startRealApi();
 * const bff = await createHarness({ upstream: real.upstream, config: { regions: [regionFor('default', real.apiUrl)] } });
 */
export async function startRealApi(options: { profile?: 'extended' | 'hosted' } = {}) {
  const { createHarness } = (await import(/* @vite-ignore */ API_HARNESS)) as {
    createHarness: (config?: { profile: 'extended' | 'hosted' }) => Promise<ApiHarness>;
  };
  const api = await createHarness(options.profile ? { profile: options.profile } : undefined);
  // Record handles of this API start at a millions offset of their own: test files share the BFF
  // store (one PGlite per worker, one PostgreSQL for all), and two APIs' `SUP-1` would otherwise
  // share a record history.
  const offset = randomInt(1, 1_000) * 1_000_000;
  for (const handle of ['SUP', 'CUS', 'TSK', 'REF']) {
    await sql`insert into handle_counters (handle, last_value) values (${handle}, ${offset})
      on conflict (handle) do update set last_value = ${offset}`.execute(api.db);
  }
  const received: Received[] = [];
  const server: ServerType = serve({
    fetch: (request: Request) => {
      received.push({
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
      });
      return api.app.fetch(request);
    },
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    api,
    apiUrl,
    /** Every request the API received: method, path and headers. */
    received,
    /** For createHarness: the BFF's harness closes its upstream, and this one is not its own. */
    upstream: { apiUrl, close: async () => undefined } as unknown as Harness['upstream'],
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
    },
  };
}

/**
 * A proxied write with a body, as the console sends it (Content-Length, optional source).
 *
 * @example
 * const res = await proxiedWrite(bff, cookie, 'PUT', '/api/v1/apps/support-tickets/SUP-1', { Status: 'Open' });
 */
export function proxiedWrite(
  h: Harness,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  options: { source?: string; type?: string } = {},
) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return h.api(path, {
    cookie,
    method,
    headers: {
      'content-type': options.type ?? 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...(options.source ? { 'x-change-source': options.source } : {}),
    },
    ...(text ? { body: text } : {}),
  });
}
