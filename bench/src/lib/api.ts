// Starts the workspace API as a real process for a benchmark and signs in with demo credentials.
import type http from 'node:http';
import { buildServer } from 'workspace-api/tools';

import type { Started } from './processes.ts';
import { expectStatus } from './http.ts';
import { freePort, startNode, startProcess, waitUntil } from './processes.ts';

const APP = 'apps/workspace-api';
let built: Promise<void> | undefined;

/** Builds apps/workspace-api/dist once per bench process (the sources may have changed). */
async function ensureBuilt(): Promise<void> {
  built ??= buildServer().then(() => undefined);
  return built;
}

export type ApiProcess = Started & { url: string };

/** Starts the API with `launch` on a free port (rate limit off, quiet) and waits for /health. */
async function launchApi(
  name: string,
  env: Record<string, string>,
  launch: (env: Record<string, string>) => Started,
): Promise<ApiProcess> {
  const port = await freePort();
  const started = launch({
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'error',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      started,
      `workspace API (${name})`,
      async () => (await fetch(`${url}/health`)).ok,
      600_000,
    );
  } catch (error) {
    await started.stop();
    throw error;
  }
  return { ...started, url };
}

/**
 * Starts `apps/workspace-api` from its sources under tsx (the dev path) on a free port with the
 * rate limit off and request logging quiet.
 *
 * @example
 * const api = await startApi('api-100k', { DATA_DIR: dir });
 */
export function startApi(
  name: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  return launchApi(name, env, (all) => startNode(name, APP, 'src/index.ts', all, nodeArgs));
}

/**
 * A bearer token from `/oauth/token` (client credentials with HTTP Basic).
 *
 * @example
 * const token = await fetchToken(agent, api.url, credentials.admin);
 */
export async function fetchToken(
  agent: http.Agent,
  baseUrl: string,
  credential: { clientId: string; clientSecret: string },
): Promise<string> {
  const basic = Buffer.from(`${credential.clientId}:${credential.clientSecret}`).toString('base64');
  const response = await expectStatus(agent, `${baseUrl}/oauth/token`, 200, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${basic}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const token = (JSON.parse(response.body.toString('utf8')) as { access_token?: unknown })
    .access_token;
  if (typeof token !== 'string') throw new Error('token response without access_token');
  return token;
}

/**
 * The API as `npm start` runs it: the esbuild bundle (built once per bench process) through
 * scripts/serve.sh, which execs node, so the pid we hold is the server's.
 *
 * @example
 * const api = await startBuiltApi('api-search', { DATA_DIR: dir });
 */
export async function startBuiltApi(
  name: string,
  env: Record<string, string>,
): Promise<ApiProcess> {
  await ensureBuilt();
  return launchApi(name, env, (all) => startProcess(name, APP, 'sh', ['scripts/serve.sh'], all));
}
