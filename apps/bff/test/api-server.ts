// The REAL workspace API (its `workspace-api/testing` harness, with config overrides) on a loopback
// port, for the BFF's tests against it (real-api.ts is the record history's variant, with its
// handle offsets and request log). It is imported by a computed specifier so that this package's typecheck does
// not follow into the API's sources, which compile under the API's own tsconfig; callers name the
// part of its harness they use as `T`.
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

const API_HARNESS = 'workspace-api/testing';

/**
 * Starts the API's test harness (with `overrides` of its config) and serves it on a free port.
 *
 * @example
 * const { api, apiUrl, close } = await startRealApi<ApiHarness>();
 */
export async function startRealApi<
  T extends {
    app: { fetch: (r: Request) => Response | Promise<Response> };
    close: () => Promise<void>;
  },
>(
  overrides: Record<string, unknown> = {},
): Promise<{ api: T; apiUrl: string; close: () => Promise<void> }> {
  const { createHarness } = (await import(/* @vite-ignore */ API_HARNESS)) as {
    createHarness: (overrides: Record<string, unknown>) => Promise<T>;
  };
  const api = await createHarness(overrides);
  const server: ServerType = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    api,
    apiUrl,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
    },
  };
}
