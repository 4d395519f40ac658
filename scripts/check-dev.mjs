// `npm test` step "pnpm dev": runs scripts/dev.sh as a developer would (fresh data folder, free
// ports, no environment), then checks what the loop promises: the console from Vite, /bff and /api
// through Vite's proxy to the BFF with a demo sign-in, and Ctrl+C (SIGINT to the process group)
// stopping every process. Exits 1 on any failure, printing the loop's output.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTUP_MS = 240_000;

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, check, timeoutMs) {
  const started = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(250);
  }
}

const listening = (port) =>
  new Promise((resolve) => {
    const socket = createServer();
    socket.once('error', () => resolve(true));
    socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
  });

const data = mkdtempSync(path.join(tmpdir(), 'wsc-dev-'));
const [API_PORT, API_EU_PORT, BFF_PORT, VITE_PORT] = await Promise.all([
  freePort(),
  freePort(),
  freePort(),
  freePort(),
]);
const ports = { API_PORT, API_EU_PORT, BFF_PORT, VITE_PORT };
let output = '';
const child = spawn('bash', ['scripts/dev.sh'], {
  cwd: ROOT,
  // A process group of its own, so that Ctrl+C can be sent to all of it as a terminal would.
  detached: true,
  env: {
    ...process.env,
    WSC_DATA_DIR: data,
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const exited = new Promise((resolve) => child.once('exit', resolve));

const vite = `http://localhost:${VITE_PORT}`;
let failure;
try {
  await until('the banner', () => output.includes('Press Ctrl+C to stop.'), STARTUP_MS);
  if (!output.includes(`http://localhost:${VITE_PORT}`))
    throw new Error('the banner names no Vite URL');

  // The console, from Vite (its dev client is injected: HMR).
  const page = await fetch(`${vite}/`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('/@vite/client'))
    throw new Error(`GET / from Vite: ${page.status}, no /@vite/client`);

  // Sign in through Vite's proxy with the demo admin, as the browser would (same origin).
  const credentials = JSON.parse(
    readFileSync(path.join(data, 'api-default/demo-credentials.json'), 'utf8'),
  );
  const login = await fetch(`${vite}/bff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: vite },
    body: JSON.stringify({
      clientId: credentials.admin.clientId,
      clientSecret: credentials.admin.clientSecret,
      region: 'default',
    }),
  });
  if (login.status !== 200)
    throw new Error(`POST /bff/login through Vite: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const users = await fetch(`${vite}/api/v1/users?first=1`, {
    headers: { Cookie: cookie, 'X-CSRF': '1' },
  });
  if (users.status !== 200) throw new Error(`GET /api/v1/users through Vite: ${users.status}`);

  // Ctrl+C: SIGINT to the whole group, as a terminal sends it.
  process.kill(-child.pid, 'SIGINT');
  await Promise.race([
    exited,
    sleep(20_000).then(() => {
      throw new Error('pnpm dev still running 20 s after Ctrl+C');
    }),
  ]);
  await until(
    'every port closed after Ctrl+C',
    async () => !(await Promise.all(Object.values(ports).map(listening))).some(Boolean),
    15_000,
  );
  console.log(
    `pnpm dev: console from Vite with HMR, sign-in and /api through its proxy, Ctrl+C stopped all (ports ${Object.values(ports).join(', ')})`,
  );
} catch (error) {
  failure = error;
} finally {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  rmSync(data, { recursive: true, force: true });
}
if (failure) {
  console.error(
    `pnpm dev check failed: ${failure.message}\n--- output ---\n${output.slice(-6000)}`,
  );
  process.exit(1);
}
