// Starts the whole stack for the e2e suite on free loopback ports: the workspace API (fresh data
// folder, so it seeds the demo workspace and writes demo-credentials.json) and the BFF serving the
// built console. Used by global-setup.ts and by specs that need a differently configured stack.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const TSX = path.join(ROOT, 'e2e/node_modules/.bin/tsx');
const LOG_DIR = path.join(ROOT, 'e2e/test-results');

export interface DemoCredential {
  email: string;
  clientId: string;
  clientSecret: string;
}
export type DemoCredentials = Record<'admin' | 'agent', DemoCredential> &
  Record<string, DemoCredential>;

export interface Stack {
  baseURL: string;
  apiURL: string;
  dataDir: string;
  credentials: DemoCredentials;
  stop: () => Promise<void>;
}

export interface StackOptions {
  /** Per-credential requests per second on the API; 0 (the default here) turns the limit off. */
  rateLimitRps?: number;
  rateLimitBurst?: number;
  /** A label for log files. */
  name?: string;
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function start(name: string, cwd: string, env: Record<string, string>): ChildProcess {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const log = fs.openSync(path.join(LOG_DIR, `${name}.log`), 'w');
  return spawn(TSX, ['src/index.ts'], {
    cwd,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', log, log],
    // Own process group, so that stopping it also stops anything it spawned.
    detached: true,
  });
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  child: ChildProcess,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${what} exited with code ${child.exitCode} (see e2e/test-results)`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms (see e2e/test-results)`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts API + BFF with fresh temp data folders and waits until both answer.
 *
 * @example
 * const stack = await startStack({ name: 'main' });
 * // ... use stack.baseURL, stack.credentials.admin
 * await stack.stop();
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const name = options.name ?? 'stack';
  const tmp = await mkdtemp(path.join(os.tmpdir(), `wsc-e2e-${name}-`));
  const dataDir = path.join(tmp, 'api');
  const bffDataDir = path.join(tmp, 'bff');
  const [apiPort, bffPort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.reverse().map(stopChild));
    await rm(tmp, { recursive: true, force: true });
  };
  try {
    const api = start(`${name}-api`, path.join(ROOT, 'apps/workspace-api'), {
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REGION: 'default',
      RATE_LIMIT_RPS: String(options.rateLimitRps ?? 0),
      ...(options.rateLimitBurst !== undefined
        ? { RATE_LIMIT_BURST: String(options.rateLimitBurst) }
        : {}),
    });
    children.push(api);
    const apiURL = `http://127.0.0.1:${apiPort}`;
    const credentialsFile = path.join(dataDir, 'demo-credentials.json');
    await waitFor(
      'workspace API',
      async () => fs.existsSync(credentialsFile) && (await fetch(`${apiURL}/health`)).ok,
      api,
      120_000,
    );
    const credentials = JSON.parse(await readFile(credentialsFile, 'utf8')) as DemoCredentials;

    const bff = start(`${name}-bff`, path.join(ROOT, 'apps/bff'), {
      PORT: String(bffPort),
      HOST: '127.0.0.1',
      WORKSPACE_API_URL: `${apiURL}/v1`,
      SESSION_SECRET: randomBytes(36).toString('base64url'),
      PUBLIC_DIR: WEB_DIST,
      BFF_DATA_DIR: bffDataDir,
      LOG_LEVEL: 'warn',
    });
    children.push(bff);
    const baseURL = `http://localhost:${bffPort}`;
    await waitFor(
      'BFF',
      async () => (await fetch(`http://127.0.0.1:${bffPort}/bff/health`)).ok,
      bff,
      60_000,
    );
    return { baseURL, apiURL, dataDir, credentials, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
