// The production build (scripts/build.ts): the bundled server starts under plain node on an empty
// data folder, seeds the demo, answers, and stays small (no tsx, initdb in a child process).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { buildServer } from '../scripts/build.ts';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Inside the app (dist/ is git- and lint-ignored) so that PGlite resolves from its node_modules.
const OUT_DIR = path.join(APP_DIR, 'dist', `test-${randomBytes(4).toString('hex')}`);
let dataDir: string;
let server: ChildProcess | undefined;
let output = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wsa-build-'));
});
afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await fs.rm(OUT_DIR, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
});

it("serves from the bundle on a new data folder without initdb's memory peak", async () => {
  const bundle = await buildServer(OUT_DIR);
  const port = await freePort();
  const metricsPort = await freePort();
  server = spawn(process.execPath, ['--v8-pool-size=1', bundle], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT_RPS: '0',
      LOG_LEVEL: 'error',
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}: ${output}`);
    if (
      await fetch(`${base}/health`).then(
        (res) => res.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`server not up: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const credentials = JSON.parse(
    await fs.readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'),
  ) as { admin: { clientId: string; clientSecret: string } };
  // Started with stdout a pipe (as a service manager or CI would): the secret is in the 0600 file,
  // never in the captured output, which names the file instead.
  expect(output).toContain(path.join(dataDir, 'demo-credentials.json'));
  expect(output).not.toContain(credentials.admin.clientSecret);
  const tokenResponse = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.admin.clientId,
      client_secret: credentials.admin.clientSecret,
    }),
  });
  expect(tokenResponse.status).toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const search = await fetch(
    `${base}/v1/apps/support-tickets?${new URLSearchParams({ filter: 'Status==Open', first: '5' })}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(search.status).toBe(200);
  expect(((await search.json()) as { items: unknown[] }).items).toHaveLength(5);

  // Prometheus text on METRICS_PORT (its own port), with the requests just made; not on the
  // public port.
  const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(scraped.status).toBe(200);
  const metrics = await scraped.text();
  expect(metrics).toContain(
    'wsc_api_http_request_duration_seconds_count{method="GET",route="/v1/:recordType{apps|elements|tasks|transactions}/:alias",status="200"} 1',
  );
  expect(metrics).toContain(
    'wsc_api_http_request_duration_seconds_count{method="POST",route="/oauth/token",status="200"} 1',
  );
  expect(metrics).toContain('wsc_api_nodejs_eventloop_lag_seconds');
  expect(metrics).toContain('wsc_api_uploads_in_flight 0');
  expect((await fetch(`${base}/metrics`)).status).toBe(404);
  // The API reference's files come from swagger-ui-dist, found at run time next to the bundle.
  const ui = await fetch(`${base}/v1/docs/swagger-ui-bundle.js`);
  expect(ui.status).toBe(200);
  expect((await ui.text()).length).toBeGreaterThan(100_000);

  // Peak over start-up, the demo seed and these requests: ~330-340 MiB; under tsx with initdb in
  // process it was 750-850 MiB (docs/benchmarks.md, "Workspace API memory").
  const status = await fs.readFile(`/proc/${server.pid}/status`, 'utf8');
  const hwmMiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
  expect(hwmMiB).toBeGreaterThan(50);
  expect(hwmMiB).toBeLessThan(450);
}, 180_000);
