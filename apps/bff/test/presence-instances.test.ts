// Presence across two BFF instances on one PostgreSQL store (ADR 0023): instance 1 is a real
// process (`src/index.ts`, a 1 s presence TTL), instance 2 an app in this process. Presence set
// through instance 1 reaches a stream of instance 2, a presence change can be made through either
// instance, a record change published on instance 2 reaches a stream of instance 1, and when
// instance 1 dies (SIGKILL: no cleanup) its users vanish from instance 2's streams once their rows
// expire. Region `eu`, so the suite's other files (region `default`) never see these rows.
// Needs a PostgreSQL server: runs when TEST_BFF_DATABASE_URL is set (npm test starts one).
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SessionStore } from '../src/db/store.ts';
import type { FakeUpstream } from './fake-upstream.ts';
import { createApp } from '../src/app.ts';
import { openStore } from '../src/db/store.ts';
import { defaultConfig, regionFor } from '../src/lib/config.ts';
import { createLogger } from '../src/lib/logger.ts';
import { createRecordChangeBus } from '../src/lib/record-changes.ts';
import { startServer } from '../src/lib/server.ts';
import { SESSION_COOKIE } from '../src/lib/sessions.ts';
import { startBffProcess } from './bff-process.ts';
import { openEventStream } from './event-stream.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  OTHER_CLIENT_ID,
  OTHER_CLIENT_SECRET,
  startFakeUpstream,
} from './fake-upstream.ts';

const DATABASE_URL = process.env.TEST_BFF_DATABASE_URL;
const SESSION_SECRET = 'presence-instances-secret-0123456789abcdefgh';
const TTL_MS = 1_000;
/** How long an event may take to arrive on a loaded machine before the test gives up. */
const WAIT_MS = 20_000;

let upstream: FakeUpstream;
let dataDir: string;
let child: ChildProcess | undefined;
let one: string;
let two: string;
let store: SessionStore;
let server: Server;
const bus = createRecordChangeBus();

/** The definitions, and the record presence names (a presence is checked against it: ADR 0027). */
function definitionsRoute(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  if (req.url === '/v1/apps/support-tickets/SUP-7') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'SUP-7', Status: 'Open' }));
    return;
  }
  res.writeHead(req.url === '/v1/definitions' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      items: [
        {
          recordType: 'apps',
          alias: 'support-tickets',
          name: 'Support Tickets',
          handle: 'SUP',
          handleField: 'id',
          fields: [],
        },
      ],
    }),
  );
}

/** Starts instance 1 (`src/index.ts`) with a short presence TTL. */
async function startInstance(): Promise<string> {
  const started = await startBffProcess({
    WORKSPACE_API_URL: upstream.apiUrl,
    WORKSPACE_API_URL_EU: upstream.apiUrl,
    SESSION_SECRET,
    BFF_DATABASE_URL: DATABASE_URL ?? '',
    BFF_PRESENCE_TTL_MS: String(TTL_MS),
    // Sign-ins come from an address of the test's own (X-Forwarded-For): the failed sign-ins
    // other files record for 127.0.0.1 in the shared store must not rate-limit this one.
    BFF_TRUST_PROXY: '1',
    PUBLIC_DIR: path.join(dataDir, 'no-console'),
    LOG_LEVEL: 'info',
  });
  child = started.child;
  return started.url;
}

async function signIn(base: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${base}/bff/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf': '1',
      'x-forwarded-for': `198.51.100.${randomInt(1, 255)}`,
    },
    body: JSON.stringify({ clientId, clientSecret, region: 'eu' }),
  });
  expect(res.status).toBe(200);
  return (
    new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '')?.[1] ?? ''
  );
}

const cookieHeader = (cookie: string) => ({ cookie: `${SESSION_COOKIE}=${cookie}` });

function put(base: string, cookie: string, connectionId: string, editing: boolean) {
  return fetch(`${base}/bff/presence`, {
    method: 'PUT',
    headers: { ...cookieHeader(cookie), 'x-csrf': '1', 'content-type': 'application/json' },
    body: JSON.stringify({
      connectionId,
      record: { recordType: 'apps', alias: 'support-tickets', recordId: 'SUP-7', editing },
    }),
  });
}

describe.runIf(!!DATABASE_URL)('presence across two BFF instances on one PostgreSQL', () => {
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.route = definitionsRoute;
    dataDir = await mkdtemp(path.join(tmpdir(), 'bff-presence-'));
    one = await startInstance();
    store = await openStore({ kind: 'postgres', url: DATABASE_URL ?? '' });
    const config = {
      ...defaultConfig(),
      regions: [regionFor('default', upstream.apiUrl), regionFor('eu', upstream.apiUrl)],
      sessionSecret: SESSION_SECRET,
      publicDir: null,
      liveEvents: { ...defaultConfig().liveEvents, presenceTtlMs: TTL_MS },
      trustProxy: 1,
    };
    const app = createApp({
      config,
      store,
      logger: createLogger({ level: 'silent' }),
      recordChanges: bus,
    });
    server = startServer(app.fetch, { port: 0, hostname: '127.0.0.1', limits: config.server });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    two = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
    await upstream?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shares presence and record changes, and drops a dead instance’s users', async () => {
    const ada = await signIn(one, CLIENT_ID, CLIENT_SECRET);
    const bob = await signIn(two, OTHER_CLIENT_ID, OTHER_CLIENT_SECRET);
    const onOne = await openEventStream(one, cookieHeader(ada));
    const onTwo = await openEventStream(two, cookieHeader(bob));
    try {
      await onTwo.next('presence', (m) => m.data.kind === 'snapshot');
      const id = onOne.hello.connectionId;

      // Set through instance 1: Bob, on instance 2, sees it (only a NOTIFY carries it there:
      // no instance polls presence). How soon is the bench's to say (sse-idle), not a test's.
      expect((await put(one, ada, id, false)).status).toBe(204);
      const seen = await onTwo.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.upserts.some((e) => e.connectionId === id),
        WAIT_MS,
      );
      expect(seen.data.kind === 'delta' && seen.data.upserts[0]).toMatchObject({
        user: { name: 'Ada Lovelace' },
        recordId: 'SUP-7',
        editing: false,
      });

      // Ada's stream lives on instance 1; her request may reach instance 2 (a load balancer).
      expect((await put(two, ada, id, true)).status).toBe(204);
      await onTwo.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.upserts.some((e) => e.editing),
        WAIT_MS,
      );

      // A change made through instance 2 reaches Ada's stream on instance 1.
      bus.publish({
        region: 'eu',
        recordType: 'apps',
        alias: 'support-tickets',
        recordId: 'SUP-7',
        kind: 'updated',
        actor: { id: 'bob', name: 'Bob Lovelace', identity: 'api' },
        source: 'editor',
        at: Date.now(),
        fields: [],
      });
      const changed = await onOne.next('record-changed', undefined, WAIT_MS);
      expect(changed.data).toMatchObject({ recordId: 'SUP-7', actor: { name: 'Bob Lovelace' } });

      // Instance 1 dies without a word: its rows expire (TTL_MS) and instance 2's sweep drops
      // them; nothing else could remove them, since the dead instance says nothing.
      child?.kill('SIGKILL');
      await onTwo.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.removed.includes(id),
        WAIT_MS,
      );
    } finally {
      onOne.close();
      onTwo.close();
    }
  }, 120_000);
});
