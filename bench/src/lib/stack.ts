// API + BFF as real processes for the BFF benchmarks: a fresh API data folder (the API seeds the
// demo workspace and writes demo-credentials.json on first start) and a BFF in front of it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type http from 'node:http';

import type { ApiProcess } from './api.ts';
import type { Started } from './processes.ts';
import { startApi } from './api.ts';
import { timedRequest } from './http.ts';
import { freePort, ROOT, startNode, tempDir, waitUntil } from './processes.ts';

export type Credential = { email: string; clientId: string; clientSecret: string };
export type Credentials = Record<'admin' | 'agent', Credential>;

export type FreshApi = {
  api: ApiProcess;
  credentials: Credentials;
  dataDir: string;
  stop: () => Promise<void>;
};

/**
 * Starts the API on a fresh data folder (demo seed) and reads its demo credentials. `prepare`, when
 * given, writes the store into the empty folder first (PGlite is single-process, so data is
 * written before the API holds the folder); it must leave demo-credentials.json there.
 *
 * @example
 * const { api, credentials, stop } = await startFreshApi('bff-api', { TOKEN_TTL_SECONDS: '5' });
 */
export async function startFreshApi(
  name: string,
  env: Record<string, string> = {},
  prepare?: (dataDir: string) => Promise<void>,
): Promise<FreshApi> {
  const tmp = await tempDir(name);
  const dataDir = path.join(tmp.dir, 'api');
  try {
    if (prepare) await prepare(dataDir);
    const api = await startApi(name, { DATA_DIR: dataDir, ...env });
    const credentials = JSON.parse(
      await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
    ) as Credentials;
    return {
      api,
      credentials,
      dataDir,
      stop: async () => {
        await api.stop();
        await tmp.remove();
      },
    };
  } catch (error) {
    await tmp.remove();
    throw error;
  }
}

export type BffProcess = Started & { url: string; remove: () => Promise<void> };

/** The built console, when `pnpm --filter web build` has run; the BFF serves it from PUBLIC_DIR. */
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

/**
 * Starts the BFF in front of an API base URL (without /v1), with its own temp data folder.
 *
 * @example
 * const bff = await startBff('bff', api.url);
 */
export async function startBff(
  name: string,
  apiBaseUrl: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<BffProcess> {
  const tmp = await tempDir(name);
  const publicDir = fs.existsSync(path.join(WEB_DIST, 'index.html'))
    ? WEB_DIST
    : path.join(tmp.dir, 'public');
  await mkdir(publicDir, { recursive: true });
  // A fixed PORT in env (a restart on the same address) wins over a fresh free port.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const started = startNode(
    name,
    'apps/bff',
    'src/index.ts',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKSPACE_API_URL: `${apiBaseUrl}/v1`,
      SESSION_SECRET: randomBytes(36).toString('base64url'),
      PUBLIC_DIR: publicDir,
      BFF_DATA_DIR: path.join(tmp.dir, 'bff'),
      LOG_LEVEL: 'error',
      ...env,
    },
    nodeArgs,
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      started,
      `BFF (${name})`,
      async () => (await fetch(`${url}/bff/health`)).ok,
      120_000,
    );
  } catch (error) {
    await started.stop();
    await tmp.remove();
    throw error;
  }
  return {
    ...started,
    url,
    remove: tmp.remove,
    stop: async () => {
      await started.stop();
      await tmp.remove();
    },
  };
}

/**
 * Signs in to the BFF and returns the session cookie (`name=value`) to send back.
 *
 * @example
 * const cookie = await bffLogin(agent, bff.url, credentials.admin);
 */
export async function bffLogin(
  agent: http.Agent,
  bffUrl: string,
  credential: Credential,
): Promise<string> {
  const response = await timedRequest(agent, `${bffUrl}/bff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: bffUrl },
    body: JSON.stringify({
      clientId: credential.clientId,
      clientSecret: credential.clientSecret,
      region: 'default',
    }),
  });
  if (response.status !== 200)
    throw new Error(
      `BFF sign-in failed: ${response.status} ${response.body.toString('utf8').slice(0, 300)}`,
    );
  const setCookie = response.headers['set-cookie']?.[0];
  const cookie = setCookie?.split(';')[0];
  if (!cookie) throw new Error('BFF sign-in returned no cookie');
  return cookie;
}

/** Headers a signed-in browser sends to the BFF proxy. */
export function bffHeaders(cookie: string, bffUrl: string): Record<string, string> {
  return { Cookie: cookie, 'X-CSRF': '1', Origin: bffUrl };
}
