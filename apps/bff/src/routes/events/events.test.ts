// Live events over a real loopback port (the way the browser's EventSource reads them): the
// stream's first events, presence between two people (snapshot, deltas, own user left out, only
// definitions one can see), record changes from the bus, the bounds (streams per session and per
// instance, presence changes per stream), the stream ending with the session and when the client
// leaves (nothing left behind), the request deadline not cutting it, and the CSRF/session rules.
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import { ProblemSchema } from '@wsc/api-client';

import type { EventStream } from '../../../test/event-stream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import type { LiveHub } from './events.hub.ts';
import { openEventStream } from '../../../test/event-stream.ts';
import { OTHER_CLIENT_ID, OTHER_CLIENT_SECRET } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';

const TICKETS: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'id',
  fields: [{ name: 'Title', type: 'TEXT', required: true }],
};
const SECRET_ALIAS = 'payroll';

/**
 * `/v1/definitions`: Ada (client-1) sees tickets and payroll; Bob sees only tickets. Records
 * (`/v1/apps/{alias}/{id}`) exist unless their id starts with `NONE-`.
 */
function definitionsRoute(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  const record = /^\/v1\/apps\/[^/]+\/([^/]+)$/.exec(req.url ?? '');
  if (record) {
    const exists = !record[1]?.startsWith('NONE-');
    res.writeHead(exists ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(exists ? { id: record[1] } : { title: 'Not Found', status: 404 }));
    return;
  }
  if (req.url !== '/v1/definitions') {
    res.writeHead(404).end();
    return;
  }
  const bob =
    (req.headers.authorization ?? '').length > 0 && bobTokens.has(req.headers.authorization ?? '');
  const items = bob ? [TICKETS] : [TICKETS, { ...TICKETS, alias: SECRET_ALIAS, name: 'Payroll' }];
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ items }));
}
const bobTokens = new Set<string>();

let h: Harness;
let hub: LiveHub;
const bus = createRecordChangeBus();
let base: string;
let ada: string;
let bob: string;

const headersFor = (cookie: string, extra: Record<string, string> = {}) => ({
  cookie: `${SESSION_COOKIE}=${cookie}`,
  ...extra,
});
const open = (cookie: string, extra?: Record<string, string>) =>
  openEventStream(base, headersFor(cookie, extra));

function put(cookie: string, body: unknown, extra: Record<string, string> = {}) {
  return fetch(`${base}/bff/presence`, {
    method: 'PUT',
    headers: { ...headersFor(cookie), 'x-csrf': '1', 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
}

const viewing = (recordId: string, editing = false, alias = 'support-tickets') => ({
  recordType: 'apps',
  alias,
  recordId,
  editing,
});

async function signIn(clientId?: string, clientSecret?: string) {
  const { res, cookie } = await h.login(clientId ? { clientId, clientSecret } : {});
  expect(res.status).toBe(200);
  return cookie;
}

/** Waits until `check` holds (the hub's cleanup after a client leaves is asynchronous). */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 3_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rowsOf = async (connectionId: string) =>
  (
    await h.store.db
      .selectFrom('presence')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .execute()
  ).length;

beforeAll(async () => {
  h = await createHarness({
    socket: true,
    config: {
      liveEvents: {
        maxStreams: 1_000,
        maxStreamsPerSession: 6,
        heartbeatMs: 150,
        presenceTtlMs: 20_000,
        maxQueueBytes: 256 * 1024,
        presencePuts: { max: 5, windowMs: 60_000 },
        retryMs: 2_000,
      },
    },
    deps: { recordChanges: bus, onLiveHub: (live) => (hub = live) },
  });
  base = await h.listen();
  ada = await signIn();
  const before = new Set(h.upstream.issued);
  bob = await signIn(OTHER_CLIENT_ID, OTHER_CLIENT_SECRET);
  for (const token of h.upstream.issued) if (!before.has(token)) bobTokens.add(`Bearer ${token}`);
  h.upstream.route = definitionsRoute;
});
afterAll(async () => {
  await h.close();
});

describe('GET /bff/events', () => {
  it('streams uncompressed: retry hint, hello with the stream id, then a presence snapshot', async () => {
    const s = await open(ada, { 'accept-encoding': 'gzip, deflate, br' });
    try {
      expect(s.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.res.headers.get('content-encoding')).toBeNull();
      expect(s.res.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(s.messages[0]).toEqual({ kind: 'retry', ms: 2_000 });
      expect(s.hello).toEqual({ connectionId: expect.any(String), heartbeatMs: 150 });
      const snapshot = await s.next('presence');
      expect(snapshot.data).toEqual({ kind: 'snapshot', entries: [] });
      // A heartbeat comment keeps proxies from closing a quiet stream.
      await s.next('comment', (m) => m.text === ': heartbeat');
    } finally {
      s.close();
    }
  });

  it("shows each person the others' open records, live, and never their own", async () => {
    const a = await open(ada);
    const b = await open(bob);
    try {
      await a.next('presence');
      await b.next('presence');
      expect(
        (await put(ada, { connectionId: a.hello.connectionId, record: viewing('SUP-1') })).status,
      ).toBe(204);
      const seen = await b.next('presence', (m) => m.data.kind === 'delta');
      expect(seen.data).toEqual({
        kind: 'delta',
        upserts: [
          {
            connectionId: a.hello.connectionId,
            user: { id: expect.any(String), name: 'Ada Lovelace' },
            identity: 'api',
            recordType: 'apps',
            alias: 'support-tickets',
            recordId: 'SUP-1',
            editing: false,
            since: expect.any(String),
          },
        ],
        removed: [],
      });

      expect(
        (await put(ada, { connectionId: a.hello.connectionId, record: viewing('SUP-1', true) }))
          .status,
      ).toBe(204);
      const editing = await b.next('presence', (m) => m.data.kind === 'delta');
      expect(editing.data.kind === 'delta' && editing.data.upserts[0]?.editing).toBe(true);

      // A third stream (Bob's second tab) starts from a snapshot that already has Ada.
      const b2 = await open(bob);
      try {
        const snapshot = await b2.next('presence');
        expect(
          snapshot.data.kind === 'snapshot' &&
            snapshot.data.entries.map((e) => [e.user.name, e.recordId, e.editing]),
        ).toEqual([['Ada Lovelace', 'SUP-1', true]]);
      } finally {
        b2.close();
      }

      // Bob opens a record: Ada hears of it; Bob's streams never list Bob.
      expect(
        (await put(bob, { connectionId: b.hello.connectionId, record: viewing('SUP-2') })).status,
      ).toBe(204);
      const bobSeen = await a.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.upserts.length > 0,
      );
      expect(bobSeen.data.kind === 'delta' && bobSeen.data.upserts.map((e) => e.user.name)).toEqual(
        ['Bob Lovelace'],
      );

      expect((await put(ada, { connectionId: a.hello.connectionId, record: null })).status).toBe(
        204,
      );
      const gone = await b.next(
        'presence',
        (m) => m.data.kind === 'delta' && m.data.removed.length > 0,
      );
      expect(gone.data).toEqual({ kind: 'delta', upserts: [], removed: [a.hello.connectionId] });
      expect(
        a.messages.some((m) => m.kind === 'presence' && JSON.stringify(m.data).includes('Ada')),
      ).toBe(false);
    } finally {
      a.close();
      b.close();
    }
  });

  it('tells nobody of records of a definition they cannot see', async () => {
    const a = await open(ada);
    const b = await open(bob);
    try {
      await b.next('presence');
      // Bob cannot name payroll records at all.
      const refused = await put(bob, {
        connectionId: b.hello.connectionId,
        record: viewing('PAY-1', false, SECRET_ALIAS),
      });
      expect(refused.status).toBe(404);
      expect(ProblemSchema.parse(await refused.json()).errors?.[0]?.field).toBe('record.alias');
      // Ada can; Bob hears nothing of it, then hears of a ticket she opens.
      expect(
        (
          await put(ada, {
            connectionId: a.hello.connectionId,
            record: viewing('PAY-1', true, SECRET_ALIAS),
          })
        ).status,
      ).toBe(204);
      expect(
        (await put(ada, { connectionId: a.hello.connectionId, record: viewing('SUP-9') })).status,
      ).toBe(204);
      const delta = await b.next('presence', (m) => m.data.kind === 'delta');
      expect(delta.data.kind === 'delta' && delta.data.upserts.map((e) => e.recordId)).toEqual([
        'SUP-9',
      ]);
      expect(JSON.stringify(b.messages)).not.toContain('PAY-1');

      const change = (alias: string, recordId: string): RecordChange => ({
        region: 'default',
        recordType: 'apps',
        alias,
        recordId,
        kind: 'updated',
        actor: { id: 'u-1', name: 'Ada Lovelace', identity: 'api' },
        source: 'editor',
        at: Date.parse('2025-03-01T09:00:00.000Z'),
        fields: [{ field: 'Salary', before: 1, after: 2 }],
      });
      bus.publish(change(SECRET_ALIAS, 'PAY-1'));
      bus.publish(change('support-tickets', 'SUP-9'));
      const changed = await b.next('record-changed');
      // Ids only: the values never travel.
      expect(changed.data).toEqual({
        recordType: 'apps',
        alias: 'support-tickets',
        recordId: 'SUP-9',
        kind: 'updated',
        actor: { id: 'u-1', name: 'Ada Lovelace' },
        identity: 'api',
        source: 'editor',
        at: '2025-03-01T09:00:00.000Z',
      });
      expect(JSON.stringify(b.messages)).not.toContain('Salary');
      // Ada sees both, her own changes included (her other tabs refetch), in either order: on
      // PostgreSQL two notifications may go out on two pooled connections (a loaded CI run had
      // SUP-9 first, and a wait for PAY-1 then SUP-9 passed over it).
      const seen = new Set<string>();
      while (seen.size < 2) seen.add((await a.next('record-changed')).data.recordId);
      expect(seen).toEqual(new Set(['PAY-1', 'SUP-9']));
    } finally {
      a.close();
      b.close();
    }
  });

  it('holds at most 6 streams per session: the 7th is a 429 with Retry-After', async () => {
    const cookie = await signIn();
    const streams: EventStream[] = [];
    try {
      for (let i = 0; i < 6; i += 1) streams.push(await open(cookie));
      const res = await fetch(`${base}/bff/events`, { headers: headersFor(cookie) });
      expect(res.status).toBe(429);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('5');
      // Another session of the same person is not counted against this one.
      const other = await open(await signIn());
      other.close();
      // One closes: a slot is free again.
      streams.pop()?.close();
      await eventually(() => hub.stats().streams <= 5);
      streams.push(await open(cookie));
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('ends when the session signs out, and leaves nothing behind when the client goes', async () => {
    await eventually(() => hub.stats().streams === 0);
    const cookie = await signIn();
    const s = await open(cookie);
    expect(hub.stats()).toMatchObject({ streams: 1, listening: true, timers: 2 });
    expect(await rowsOf(s.hello.connectionId)).toBe(1);
    const out = await fetch(`${base}/bff/logout`, {
      method: 'POST',
      headers: { ...headersFor(cookie), 'x-csrf': '1' },
    });
    expect(out.status).toBe(204);
    await s.ended;
    await eventually(
      async () => hub.stats().streams === 0 && (await rowsOf(s.hello.connectionId)) === 0,
    );
    // The last stream gone: no timer, no listening connection, no per-stream state.
    expect(hub.stats()).toEqual({
      streams: 0,
      opening: 0,
      listening: false,
      timers: 0,
      regions: 0,
      visibleSessions: 0,
      rateBuckets: 0,
    });

    const cookie2 = await signIn();
    const again = await open(cookie2);
    const opened = await put(cookie2, {
      connectionId: again.hello.connectionId,
      record: viewing('SUP-3'),
    });
    expect(opened.status).toBe(204);
    again.close();
    await eventually(
      async () => hub.stats().streams === 0 && (await rowsOf(again.hello.connectionId)) === 0,
    );
    expect(hub.stats()).toMatchObject({ listening: false, timers: 0, regions: 0 });
  });

  it('is not cut by the request deadline (an unfinished request body included)', async () => {
    const slow = await createHarness({
      socket: true,
      config: {
        server: { ...h.config.server, requestTimeoutMs: 200 },
        liveEvents: { ...h.config.liveEvents, heartbeatMs: 100 },
      },
      upstream: h.upstream,
    });
    try {
      const { cookie } = await slow.login();
      const url = new URL(await slow.listen());
      // A GET whose chunked body never ends: the deadline would cut it at 200 ms.
      const heartbeats = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          path: '/bff/events',
          method: 'GET',
          headers: { cookie: `${SESSION_COOKIE}=${cookie}`, 'transfer-encoding': 'chunked' },
        });
        req.write('0');
        req.on('response', (res) => {
          let count = 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (count += chunk.split(': heartbeat').length - 1));
          res.on('close', () => resolve(count));
          setTimeout(() => {
            req.destroy();
          }, 700);
        });
        req.on('error', reject);
      });
      expect(heartbeats).toBeGreaterThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });

  it(
    'drops a stream whose reader stops reading, rather than buffer for it',
    { timeout: 90_000 },
    async () => {
      const liveBus = createRecordChangeBus();
      let slowHub: LiveHub | undefined;
      const slow = await createHarness({
        socket: true,
        config: { liveEvents: { ...h.config.liveEvents, maxQueueBytes: 16 * 1024 } },
        upstream: h.upstream,
        deps: { recordChanges: liveBus, onLiveHub: (live) => (slowHub = live) },
      });
      try {
        const { cookie } = await slow.login();
        const url = new URL(await slow.listen());
        // A reader that takes the headers and then never reads again.
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          path: '/bff/events',
          headers: { cookie: `${SESSION_COOKIE}=${cookie}` },
        });
        req.on('response', (res) => res.pause());
        req.on('error', () => undefined);
        req.end();
        await eventually(() => slowHub?.stats().streams === 1);
        // Record changes of ~900 bytes until the BFF gives up on the reader: far past the socket's
        // buffers and the 16 KiB queue (at most ~36 MB, in batches the store's NOTIFY keeps up with).
        const name = 'n'.repeat(200);
        for (let i = 0; i < 40_000 && slowHub?.stats().streams === 1; i += 1) {
          liveBus.publish({
            region: 'default',
            recordType: 'apps',
            alias: 'support-tickets',
            recordId: `SUP-${i}`.padEnd(200, 'x'),
            kind: 'updated',
            actor: { id: 'a'.repeat(200), name, identity: 'api' },
            source: 's'.repeat(200),
            at: Date.now(),
            fields: [],
          });
          if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20));
        }
        await eventually(() => slowHub?.stats().streams === 0, 10_000);
        expect(slow.logs.some((line) => line.includes('slow consumer'))).toBe(true);
        // The BFF let go of the socket too (its buffers full, the response could not end itself).
        await eventually(async () => (await slow.connections()) === 0, 10_000);
        req.destroy();
      } finally {
        await slow.close();
      }
    },
  );

  it('holds at most maxStreams per instance: then 429 for everyone', async () => {
    const small = await createHarness({
      socket: true,
      config: { liveEvents: { ...h.config.liveEvents, maxStreams: 2 } },
      upstream: h.upstream,
    });
    const base2 = await small.listen();
    const one = await small.login();
    const two = await small.login();
    const a = await openEventStream(base2, headersFor(one.cookie));
    const b = await openEventStream(base2, headersFor(two.cookie));
    try {
      const res = await fetch(`${base2}/bff/events`, { headers: headersFor(one.cookie) });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(ProblemSchema.parse(await res.json()).status).toBe(429);
    } finally {
      a.close();
      b.close();
      await small.close();
    }
  });

  it('refuses without a session (401) and from another site (403)', async () => {
    const none = await fetch(`${base}/bff/events`);
    expect(none.status).toBe(401);
    const cross = await fetch(`${base}/bff/events`, {
      headers: headersFor(ada, { 'sec-fetch-site': 'cross-site' }),
    });
    expect(cross.status).toBe(403);
    const foreign = await fetch(`${base}/bff/events`, {
      headers: headersFor(ada, { origin: 'https://evil.example' }),
    });
    expect(foreign.status).toBe(403);
  });
});

describe('PUT /bff/presence', () => {
  it('answers 400 naming each bad field, 403 without X-CSRF, 401 without a session', async () => {
    const bad = await put(ada, {
      connectionId: 'nope',
      record: { recordType: 'rockets', alias: 'a/b', recordId: '', editing: 'yes' },
    });
    expect(bad.status).toBe(400);
    const fields = ProblemSchema.parse(await bad.json()).errors?.map((e) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'connectionId',
        'record.recordType',
        'record.alias',
        'record.recordId',
        'record.editing',
      ]),
    );
    const notJson = await fetch(`${base}/bff/presence`, {
      method: 'PUT',
      headers: { ...headersFor(ada), 'x-csrf': '1', 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    const noCsrf = await put(
      ada,
      { connectionId: crypto.randomUUID(), record: null },
      { 'x-csrf': '0' },
    );
    expect(noCsrf.status).toBe(403);
    const noSession = await fetch(`${base}/bff/presence`, {
      method: 'PUT',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ connectionId: crypto.randomUUID(), record: null }),
    });
    expect(noSession.status).toBe(401);
  });

  it("refuses to set another session's stream, or one that is gone (404)", async () => {
    const a = await open(ada);
    try {
      const other = await put(bob, {
        connectionId: a.hello.connectionId,
        record: viewing('SUP-1'),
      });
      expect(other.status).toBe(404);
      expect(ProblemSchema.parse(await other.json()).errors?.[0]?.field).toBe('connectionId');
      // Even the same person in another session (another browser) may not.
      const sameUser = await put(await signIn(), {
        connectionId: a.hello.connectionId,
        record: null,
      });
      expect(sameUser.status).toBe(404);
    } finally {
      a.close();
    }
    await eventually(async () => (await rowsOf(a.hello.connectionId)) === 0);
    expect((await put(ada, { connectionId: a.hello.connectionId, record: null })).status).toBe(404);
  });

  it('takes at most 5 changes per stream per minute here: then 429 with Retry-After', async () => {
    const cookie = await signIn();
    const s = await open(cookie);
    try {
      for (let i = 0; i < 5; i += 1) {
        expect(
          (await put(cookie, { connectionId: s.hello.connectionId, record: viewing(`SUP-${i}`) }))
            .status,
        ).toBe(204);
      }
      const res = await put(cookie, { connectionId: s.hello.connectionId, record: null });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      s.close();
    }
  });
});

// Last: it moves the shared fake clock past every session's idle timeout.
describe('GET /bff/events and the session clock', () => {
  it('ends when the session expires (idle), checked at each heartbeat', async () => {
    const cookie = await signIn();
    const s = await open(cookie);
    h.clock.advance(h.config.idleTimeoutMs + 1);
    await s.ended;
    await eventually(() => hub.stats().streams === 0);
  });
});
