// Two BFF processes on one PostgreSQL store behind a round-robin load balancer on loopback, as
// docs/deploy.md describes: a session made on one is served by the other, the failed sign-in
// limit holds across both, and a rolling restart (one process at a time) loses no session.
// Needs a PostgreSQL server: runs when TEST_BFF_DATABASE_URL is set (npm test starts one).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BffProcess } from './bff-process.ts';
import type { FakeUpstream } from './fake-upstream.ts';
import { startBffProcess } from './bff-process.ts';
import { CLIENT_ID, CLIENT_SECRET, startFakeUpstream } from './fake-upstream.ts';

const DATABASE_URL = process.env.TEST_BFF_DATABASE_URL;
const SESSION_SECRET = 'multi-instance-session-secret-0123456789abcdef';

type Instance = BffProcess;

let upstream: FakeUpstream;
let dataDir: string;
const instances: Instance[] = [];
let balancer: Server;
let base: string;

/** Starts an instance (`src/index.ts`) on a free port. */
function startInstance(): Promise<Instance> {
  return startBffProcess({
    WORKSPACE_API_URL: upstream.apiUrl,
    SESSION_SECRET,
    BFF_DATABASE_URL: DATABASE_URL ?? '',
    BFF_TRUST_PROXY: '1',
    PUBLIC_DIR: path.join(dataDir, 'no-console'),
    LOG_LEVEL: 'info',
  });
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await exited;
}

/** Which instance answered each request through the balancer, in order. */
const served: string[] = [];

/** A round-robin balancer that appends the client's address to X-Forwarded-For, as one would. */
async function startBalancer(): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const target = instances[next % instances.length];
    next += 1;
    if (!target) {
      res.writeHead(502).end();
      return;
    }
    served.push(target.url);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const upstreamReq = httpRequest(
      `${target.url}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    upstreamReq.on('error', () => res.writeHead(502).end());
    req.pipe(upstreamReq);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function signIn(clientSecret: string, forwardedFor?: string) {
  return fetch(`${base}/bff/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf': '1',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify({ clientId: CLIENT_ID, clientSecret, region: 'default' }),
  });
}

describe.runIf(!!DATABASE_URL)('two BFF instances on one PostgreSQL store', () => {
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dataDir = await mkdtemp(path.join(tmpdir(), 'bff-multi-'));
    // Started together: both run the store's migrations at once (the migrator takes a lock).
    instances.push(...(await Promise.all([startInstance(), startInstance()])));
    balancer = await startBalancer();
    base = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => balancer?.close(resolve));
    await Promise.all(instances.map(stopInstance));
    await upstream?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves a session made on one instance from the other', async () => {
    const login = await signIn(CLIENT_SECRET);
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    served.length = 0;
    for (let i = 0; i < 4; i++) {
      const session = await fetch(`${base}/bff/session`, { headers: { cookie } });
      expect(session.status).toBe(200);
      const users = await fetch(`${base}/api/v1/users`, { headers: { cookie, 'x-csrf': '1' } });
      expect(users.status).toBe(200);
    }
    // Both instances answered.
    expect(new Set(served).size).toBe(2);
  });

  it('holds the failed sign-in limit across both, per client behind the balancer', async () => {
    // Each client's address is the one the balancer appends: here, the forged first entry varies.
    for (let i = 0; i < 10; i++) {
      expect((await signIn('wrong-secret', `203.0.113.${i}`)).status).toBe(401);
    }
    const limited = await signIn(CLIENT_SECRET, '203.0.113.99');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('loses no session in a rolling restart, one instance at a time', async () => {
    // The test above used up this machine's sign-in budget at the balancer: sign in on one
    // instance directly, as another client.
    const login = await fetch(`${instances[0]?.url}/bff/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf': '1',
        'x-forwarded-for': '198.51.100.20',
      },
      body: JSON.stringify({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, region: 'default' }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (let index = 0; index < instances.length; index++) {
      const old = instances[index];
      if (!old) throw new Error('no instance');
      await stopInstance(old);
      instances[index] = await startInstance();
      for (let i = 0; i < 4; i++) {
        const session = await fetch(`${base}/bff/session`, { headers: { cookie } });
        expect(session.status, `after restarting instance ${index}`).toBe(200);
      }
    }
  }, 120_000);
});
