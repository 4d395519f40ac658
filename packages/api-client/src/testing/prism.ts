// Test-only: Stoplight Prism over the repo's copy of the hosted API's published OpenAPI, as a
// validating proxy in front of an upstream (`prism proxy --errors`) or as a stateless mock
// (`prism mock -d`). Used by the workspace API's hosted-profile tests and by the e2e suite.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';

/** The repo's copy of the hosted API's published OpenAPI document. */
export const OPENAPI_PATH = fileURLToPath(
  new URL('../../reference/elementum-openapi.json', import.meta.url),
);

type Operation = { operationId?: string; servers?: { url: string }[] };

/**
 * The published document as Prism needs it: Prism routes by the literal `paths` and ignores
 * `servers`, so every path is prefixed with its base path (`/v1`; `/oauth/token` keeps its
 * operation-level `/`). `x-json-schema-faker` makes mocked replies drop optional keys at random
 * (Prism's default fills every one, which would hide clients that need them).
 *
 * @example
 * fs.writeFileSync(file, JSON.stringify(derivedSpec()));
 */
export function derivedSpec(): Record<string, unknown> {
  const spec = JSON.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
    servers?: { url: string }[];
  } & Record<string, unknown>;
  const base = spec.servers?.[0]?.url ?? '/v1';
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [route, item] of Object.entries(spec.paths)) {
    const operations = Object.values(item).filter(
      (value): value is Operation =>
        typeof value === 'object' && value !== null && 'operationId' in value,
    );
    const own = operations.find((operation) => operation.servers?.length)?.servers?.[0]?.url;
    const prefix = (own ?? base).replace(/\/$/, '');
    for (const operation of operations) delete operation.servers;
    paths[`${prefix}${route}`] = item;
  }
  return {
    ...spec,
    servers: [{ url: '/' }],
    paths,
    'x-json-schema-faker': { alwaysFakeOptionals: false, optionalsProbability: 0.5 },
  };
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { bin: Record<string, string> };
  const entry = bin['prism'];
  if (!entry) throw new Error('@stoplight/prism-cli has no prism binary');
  return path.resolve(path.dirname(pkg), entry);
}

async function freePort(): Promise<number> {
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

export interface PrismOptions {
  /** `proxy`: validate traffic to `upstream`; `mock`: answer from the document. */
  mode: 'proxy' | 'mock';
  /** The upstream origin for `proxy`, e.g. `http://127.0.0.1:4010` (no `/v1`). */
  upstream?: string;
  port?: number;
  /** Where Prism's output goes; violations are read from it. Default: a temp file. */
  logFile?: string;
  /**
   * The document to serve, default {@link derivedSpec}. A test that needs a stricter variant (e.g.
   * the e2e mock smoke, which marks `access_token` required) passes `derivedSpec()` changed.
   */
  spec?: Record<string, unknown>;
}

export interface Prism {
  /** `http://127.0.0.1:<port>`: the API base is `${origin}/v1`, the token URL `${origin}/oauth/token`. */
  origin: string;
  logFile: string;
  /** Every violation Prism reported so far (request or response outside the document). */
  violations(): string[];
  stop(): Promise<void>;
}

/** A line of Prism's log that reports traffic outside the published contract. */
const VIOLATION = /Violation:|Request terminated with error|\berror\b.*prism\/errors#/;

/**
 * Reads Prism's log: every line that reports a request or reply outside the document.
 *
 * @example
 * expect(prismViolations(fs.readFileSync(log, 'utf8'))).toEqual([]);
 */
export function prismViolations(log: string): string[] {
  // Prism colours its output; the log is read by people and by this filter alike.
  // eslint-disable-next-line no-control-regex
  const plain = log.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').filter((line) => VIOLATION.test(line));
}

/**
 * Starts Prism on a loopback port over {@link derivedSpec} and waits until it answers.
 *
 * @example
 * const prism = await startPrism({ mode: 'proxy', upstream: 'http://127.0.0.1:4010' });
 * // ... requests to `${prism.origin}/v1/users` reach the upstream, validated both ways
 * expect(prism.violations()).toEqual([]);
 * await prism.stop();
 */
export async function startPrism(options: PrismOptions): Promise<Prism> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsc-prism-'));
  const specFile = path.join(dir, 'openapi.json');
  fs.writeFileSync(specFile, JSON.stringify(options.spec ?? derivedSpec()));
  const logFile = options.logFile ?? path.join(dir, 'prism.log');
  const port = options.port ?? (await freePort());
  const args =
    options.mode === 'proxy'
      ? ['proxy', specFile, requireUpstream(options.upstream), '--errors']
      : ['mock', specFile, '-d'];
  const log = fs.openSync(logFile, 'w');
  const child: ChildProcess = spawn(
    process.execPath,
    [prismBin(), ...args, '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', log, log], detached: true },
  );
  fs.closeSync(log);
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`prism exited with ${child.exitCode}: ${fs.readFileSync(logFile, 'utf8')}`);
    }
    if (/Prism is listening/.test(fs.readFileSync(logFile, 'utf8'))) break;
    if (Date.now() > deadline) throw new Error(`prism did not start; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    logFile,
    violations: () => prismViolations(fs.readFileSync(logFile, 'utf8')),
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
        await exited;
      }
    },
  };
}

function requireUpstream(upstream: string | undefined): string {
  if (!upstream) throw new Error('prism proxy needs an upstream');
  return upstream;
}
