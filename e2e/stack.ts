// Starts the whole stack for the e2e suite on free loopback ports: the workspace API (fresh data
// folder, so it seeds the demo workspace and writes demo-credentials.json) and the BFF serving the
// built console. In the hosted profile the API serves only the published contract and the BFF
// reaches it through Stoplight Prism (`prism proxy --errors` over the repo's copy of the OpenAPI),
// behind a small router that sends the two binary operations (upload, download) around Prism
// (binary-router.ts), so any request or reply outside the contract is reported. Used by global-setup.ts and by specs that need a
// differently configured stack or BFF.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';

import type { Profile } from '@wsc/api-client';
import type { Prism } from '@wsc/api-client/testing/prism';
import { startPrism } from '@wsc/api-client/testing/prism';

import type { BinaryRouter } from './binary-router.ts';
import { startBinaryRouter } from './binary-router.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
const TSX = path.join(ROOT, 'e2e/node_modules/.bin/tsx');
export const LOG_DIR = path.join(ROOT, 'e2e/test-results');
const API_DIR = path.join(ROOT, 'apps/workspace-api');
const BFF_DIR = path.join(ROOT, 'apps/bff');

export interface DemoCredential {
  email: string;
  clientId: string;
  clientSecret: string;
}
/**
 * The demo credentials (admin: ADMIN, agent: MEMBER) and, for the main stack, `unlisted`: a
 * second credential of the demo agent that the hosted BFF's identities file does not name.
 */
export type DemoCredentials = Record<'admin' | 'agent', DemoCredential> &
  Partial<Record<'unlisted', DemoCredential>>;

/** The operator's identities file (BFF_IDENTITIES_FILE). */
export interface IdentitiesFile {
  identities: { clientId: string; email: string; role: 'ADMIN' | 'MEMBER'; region?: string }[];
}

export interface Stack {
  profile: Profile;
  /** The API's log (e2e/test-results/<name>-api.log). */
  apiLog: string;
  baseURL: string;
  /** The workspace API itself (no Prism): for arranging data behind the console's back. */
  apiURL: string;
  /** What the BFF calls: the API (extended), or the router in front of Prism (hosted). */
  upstreamURL: string;
  dataDir: string;
  credentials: DemoCredentials;
  /** Hosted: the describe-workspace output the BFF reads (BFF_WORKSPACE_FILE). */
  workspaceFile?: string;
  /** Hosted: the identities file the BFF reads (BFF_IDENTITIES_FILE). */
  identitiesFile?: string;
  /** Hosted: Prism's log. */
  prismLog?: string;
  /**
   * Every request or reply outside the published contract: Prism's reports, and the router's
   * checks of the binary replies it sent around Prism (always [] extended).
   */
  violations: () => string[];
  /** Uploads and downloads the router sent around Prism (hosted). */
  binaryBypassed: () => number;
  stop: () => Promise<void>;
}

export interface StackOptions {
  profile?: Profile;
  /** Per-credential requests per second on the API; 0 (the default here) turns the limit off. */
  rateLimitRps?: number;
  rateLimitBurst?: number;
  /** A label for log files. */
  name?: string;
  /** Also make `credentials.unlisted`: a second credential of the demo agent (a MEMBER). */
  unlistedCredential?: boolean;
  /** More API env (e.g. `LOG_LEVEL: 'debug'`: one log line per request, status included). */
  apiEnv?: Record<string, string>;
}

/** The e2e run's profile: `E2E_PROFILE` (extended | hosted), default extended. */
export function runProfile(): Profile {
  const value = process.env.E2E_PROFILE ?? 'extended';
  if (value !== 'extended' && value !== 'hosted') {
    throw new Error(`E2E_PROFILE must be extended or hosted, not ${value}`);
  }
  return value;
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

/** Starts `src/index.ts` of an app; its output goes to e2e/test-results/<name>.log. */
function start(
  name: string,
  cwd: string,
  env: Record<string, string>,
  { append = false } = {},
): ChildProcess {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const log = fs.openSync(path.join(LOG_DIR, `${name}.log`), append ? 'a' : 'w');
  const child = spawn(TSX, ['src/index.ts'], {
    cwd,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', log, log],
    // Own process group, so that stopping it also stops anything it spawned.
    detached: true,
  });
  fs.closeSync(log);
  return child;
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

/** Runs the workspace API's operator CLI (apps/workspace-api/src/cli.ts) and returns its stdout. */
async function apiCli(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(TSX, ['src/cli.ts', ...args], {
    cwd: API_DIR,
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/**
 * The demo workspace as the BFF needs it in the hosted profile: what an operator gets from
 * `pnpm --filter workspace-api describe-workspace --profile hosted`.
 *
 * @example
 * await writeFile(file, await describeWorkspace());
 */
export async function describeWorkspace(): Promise<string> {
  return apiCli(['describe-workspace', '--profile', 'hosted']);
}

/**
 * A new credential for an existing user, made with the API's CLI as an operator would (the API
 * must be stopped first: the embedded PGlite store is single-process).
 */
async function createCredential(
  dataDir: string,
  email: string,
  label: string,
): Promise<DemoCredential> {
  const out = await apiCli(['create-credentials', '--email', email, '--label', label], {
    DATA_DIR: dataDir,
  });
  const clientId = /client ID:\s+(\S+)/.exec(out)?.[1];
  const clientSecret = /client secret:\s+(\S+)/.exec(out)?.[1];
  if (!clientId || !clientSecret) throw new Error(`create-credentials printed no credential`);
  return { email, clientId, clientSecret };
}

export interface BffOptions {
  name: string;
  /** The API base without `/v1`. */
  upstreamURL: string;
  profile: Profile;
  dataDir: string;
  workspaceFile?: string | undefined;
  identitiesFile?: string | undefined;
}

/** A running BFF (serving the built console) and how to stop it. */
export interface Bff {
  baseURL: string;
  stop: () => Promise<void>;
}

/**
 * Starts a BFF serving the built console in front of `upstreamURL`, configured for the profile as
 * an operator would: hosted means WORKSPACE_API_PROFILE=hosted and the JSON token request (the form
 * attempt would be a contract violation at Prism), plus the workspace and identities files given.
 *
 * @example
 * const bff = await startBff({ name: 'no-identities', upstreamURL, profile: 'hosted', dataDir, workspaceFile });
 */
export async function startBff(options: BffOptions): Promise<Bff> {
  const port = await freePort();
  const hosted = options.profile === 'hosted';
  const child = start(`${options.name}-bff`, BFF_DIR, {
    PORT: String(port),
    HOST: '127.0.0.1',
    WORKSPACE_API_URL: `${options.upstreamURL}/v1`,
    SESSION_SECRET: randomBytes(36).toString('base64url'),
    PUBLIC_DIR: WEB_DIST,
    BFF_DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    // A sign-in waits for its first screen's reads (1 s by default, then the console reads them
    // itself): beside three CPU hogs the hosted first page through Prism took longer, and the
    // test that the sign-in brings it along saw the console ask. The tests check what a sign-in
    // brings, not how fast the stack is: they wait (first-reads.test.ts checks the grace).
    BFF_SIGN_IN_READS_GRACE_MS: '30000',
    ...(hosted
      ? { WORKSPACE_API_PROFILE: 'hosted', WORKSPACE_API_TOKEN_STYLE: 'json' }
      : { WORKSPACE_API_PROFILE: 'extended' }),
    ...(options.workspaceFile ? { BFF_WORKSPACE_FILE: options.workspaceFile } : {}),
    ...(options.identitiesFile ? { BFF_IDENTITIES_FILE: options.identitiesFile } : {}),
  });
  const stop = () => stopChild(child);
  try {
    await waitFor(
      `BFF ${options.name}`,
      async () => (await fetch(`http://127.0.0.1:${port}/bff/health`)).ok,
      child,
      // As long as the API is given (below): beside three CPU hogs a BFF took over 60 s to start.
      120_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL: `http://localhost:${port}`, stop };
}

/**
 * Starts API + BFF (and, hosted, Prism and the binary router between them) with fresh temp data
 * folders and waits until everything answers.
 *
 * @example
 * const stack = await startStack({ name: 'main', profile: 'hosted' });
 * // ... use stack.baseURL, stack.credentials.admin
 * await stack.stop();
 * expect(stack.violations()).toEqual([]);
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const profile = options.profile ?? 'extended';
  const hosted = profile === 'hosted';
  const name = `${options.name ?? 'stack'}-${profile}`;
  const tmp = await mkdtemp(path.join(os.tmpdir(), `wsc-e2e-${name}-`));
  const dataDir = path.join(tmp, 'api');
  const apiPort = await freePort();
  const stops: (() => Promise<void>)[] = [];
  let prism: Prism | undefined;
  let router: BinaryRouter | undefined;
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
    stops.length = 0;
    await rm(tmp, { recursive: true, force: true });
  };
  try {
    const apiEnv = {
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REGION: 'default',
      API_PROFILE: profile,
      RATE_LIMIT_RPS: String(options.rateLimitRps ?? 0),
      ...(options.rateLimitBurst !== undefined
        ? { RATE_LIMIT_BURST: String(options.rateLimitBurst) }
        : {}),
      ...options.apiEnv,
    };
    const apiURL = `http://127.0.0.1:${apiPort}`;
    const startApi = async (restart = false) => {
      const api = start(`${name}-api`, API_DIR, apiEnv, { append: restart });
      const stopApi = () => stopChild(api);
      stops.push(stopApi);
      const credentialsFile = path.join(dataDir, 'demo-credentials.json');
      await waitFor(
        'workspace API',
        async () => fs.existsSync(credentialsFile) && (await fetch(`${apiURL}/health`)).ok,
        api,
        120_000,
      );
      return stopApi;
    };
    const stopApi = await startApi();
    const credentials = JSON.parse(
      await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
    ) as DemoCredentials;

    if (options.unlistedCredential) {
      // PGlite is single-process: stop the seeded API, add the credential, start it again.
      await stopApi();
      stops.pop();
      credentials.unlisted = await createCredential(
        dataDir,
        credentials.agent.email,
        'e2e-unlisted',
      );
      await startApi(true);
    }

    let upstreamURL = apiURL;
    let workspaceFile: string | undefined;
    let identitiesFile: string | undefined;
    let prismLog: string | undefined;
    if (hosted) {
      workspaceFile = path.join(tmp, 'workspace.json');
      await writeFile(workspaceFile, await describeWorkspace());
      identitiesFile = path.join(tmp, 'identities.json');
      const identities: IdentitiesFile = {
        identities: [
          { clientId: credentials.admin.clientId, email: credentials.admin.email, role: 'ADMIN' },
          { clientId: credentials.agent.clientId, email: credentials.agent.email, role: 'MEMBER' },
        ],
      };
      await writeFile(identitiesFile, JSON.stringify(identities, null, 2));
      prismLog = path.join(LOG_DIR, `${name}-prism.log`);
      const started = await startPrism({ mode: 'proxy', upstream: apiURL, logFile: prismLog });
      prism = started;
      stops.push(() => started.stop());
      const startedRouter = await startBinaryRouter({ prism: started.origin, api: apiURL });
      router = startedRouter;
      stops.push(() => startedRouter.close());
      upstreamURL = startedRouter.origin;
    }

    const bff = await startBff({
      name,
      upstreamURL,
      profile,
      dataDir: path.join(tmp, 'bff'),
      workspaceFile,
      identitiesFile,
    });
    stops.push(bff.stop);
    return {
      profile,
      apiLog: path.join(LOG_DIR, `${name}-api.log`),
      baseURL: bff.baseURL,
      apiURL,
      upstreamURL,
      dataDir,
      credentials,
      workspaceFile,
      identitiesFile,
      prismLog,
      // Prism's log outlives it: still readable after stop().
      violations: () => [...(prism?.violations() ?? []), ...(router?.violations() ?? [])],
      binaryBypassed: () => router?.bypassed() ?? 0,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
