// One person cannot crowd out the others (ADR 0027), through HTTP on real loopback ports,
// performing the review's attacks (M2, L5):
// - streams per person are capped on every instance together (two apps on one store), while
//   someone else still gets a stream;
// - a sign-in past the person's session cap ends their oldest session (and its stream);
// - presence changes are limited per person across all their streams;
// - a connection id that is not the caller's costs no bucket; presence on a record that does not
//   exist is a 404; an instance keeps what a session may see only for sessions streaming there;
// - `/bff/*` has a per-session request rate: 429 problem+json with Retry-After.
// The people here sign in to a hosted region `eu` (owner ids of their own), so that the streams
// and sessions other files keep in a shared store are not counted against them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import { ProblemSchema } from '@wsc/api-client';

import type { EventStream } from '../../../test/event-stream.ts';
import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { BffConfig, FairnessLimits } from '../../lib/config.ts';
import type { LiveHub } from './events.hub.ts';
import { openEventStream } from '../../../test/event-stream.ts';
import {
  OTHER_CLIENT_ID,
  OTHER_CLIENT_SECRET,
  startFakeUpstream,
} from '../../../test/fake-upstream.ts';
import { createHarness, FAIRNESS_OFF, testStore } from '../../../test/harness.ts';
import { defaultConfig, regionFor } from '../../lib/config.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';

const TICKETS: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  fields: [{ name: 'Ticket ID', type: 'TEXT', required: false }],
};

/** Published reads: the tickets list and records (ids starting `NONE-` do not exist). */
function route(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  const url = new URL(req.url ?? '/', 'http://x');
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const record = /^\/v1\/apps\/support-tickets\/([^/]+)$/.exec(url.pathname);
  if (record) {
    return record[1]?.startsWith('NONE-')
      ? send(404, { message: 'Not Found' })
      : send(200, { 'Ticket ID': record[1] });
  }
  if (url.pathname === '/v1/apps/support-tickets') return send(200, { items: [] });
  return send(404, { message: 'Not Found' });
}

let upstream: FakeUpstream;
const harnesses: Harness[] = [];
const streams: EventStream[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream({ mode: 'hosted' });
  upstream.route = route;
  // The shared store starts here (seconds on a busy machine), not in the first test.
  await testStore();
}, 120_000);
afterAll(async () => {
  for (const s of streams) s.close();
  await Promise.all(harnesses.map((h) => h.close()));
  await upstream.close();
});

/** A BFF on a port of its own with the given limits on (the others off), and its hub. */
async function instance(
  fairness: Partial<FairnessLimits>,
  options: { store?: Harness['store']; config?: Partial<BffConfig> } = {},
) {
  let hub: LiveHub | undefined;
  const h = await createHarness({
    upstream,
    socket: true,
    ...(options.store ? { store: options.store } : {}),
    config: {
      regions: [regionFor('eu', upstream.apiUrl, { profile: 'hosted', workspace: [TICKETS] })],
      fairness: { ...defaultConfig().fairness, ...FAIRNESS_OFF, ...fairness },
      ...options.config,
    },
    deps: { onLiveHub: (live) => (hub = live) },
  });
  harnesses.push(h);
  const base = await h.listen();
  return {
    h,
    base,
    hub: () => {
      if (!hub) throw new Error('no hub');
      return hub;
    },
  };
}

async function signIn(h: Harness, other = false): Promise<string> {
  const { res, cookie } = await h.login({
    region: 'eu',
    ...(other ? { clientId: OTHER_CLIENT_ID, clientSecret: OTHER_CLIENT_SECRET } : {}),
  });
  expect(res.status).toBe(200);
  return cookie;
}

async function open(base: string, cookie: string): Promise<EventStream> {
  const s = await openEventStream(base, { cookie: `${SESSION_COOKIE}=${cookie}` });
  streams.push(s);
  return s;
}

const refusal = async (base: string, cookie: string) =>
  fetch(`${base}/bff/events`, { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });

const put = (base: string, cookie: string, connectionId: string, recordId: string | null) =>
  fetch(`${base}/bff/presence`, {
    method: 'PUT',
    headers: {
      cookie: `${SESSION_COOKIE}=${cookie}`,
      'x-csrf': '1',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      connectionId,
      record:
        recordId === null
          ? null
          : { recordType: 'apps', alias: 'support-tickets', recordId, editing: false },
    }),
  });

async function expectTooMany(res: Response) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  ProblemSchema.parse(await res.json());
}

describe('streams per person', () => {
  it('are capped on every instance together, while someone else still gets one', async () => {
    const one = await instance({ streamsPerPerson: 3 });
    const two = await instance({ streamsPerPerson: 3 }, { store: one.h.store });
    const first = await signIn(one.h);
    const second = await signIn(two.h);
    const mine = [await open(one.base, first), await open(one.base, first)];
    mine.push(await open(two.base, second));
    // The 4th, through either instance and either session: 429 (each session has room for 6).
    await expectTooMany(await refusal(two.base, second));
    await expectTooMany(await refusal(one.base, first));
    // Another person is not held back.
    const other = await open(one.base, await signIn(one.h, true));
    other.close();
    // One of hers closes: there is room again.
    mine[0]?.close();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i += 1) {
      const res = await refusal(two.base, second);
      status = res.status;
      await res.body?.cancel();
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

describe('sessions per person', () => {
  it('end the oldest (and its streams) when a sign-in passes the cap', async () => {
    const { h, base } = await instance({ sessionsPerPerson: 2 });
    // A millisecond apart: the sessions' creation times order them (the clock is the test's).
    const oldest = await signIn(h);
    const stream = await open(base, oldest);
    h.clock.advance(1);
    const middle = await signIn(h);
    h.clock.advance(1);
    const newest = await signIn(h);
    await stream.ended;
    expect((await h.api('/bff/session', { cookie: oldest })).status).toBe(401);
    expect((await h.api('/bff/session', { cookie: middle })).status).toBe(200);
    expect((await h.api('/bff/session', { cookie: newest })).status).toBe(200);
  });
});

describe('sign-ins per credential', () => {
  it('answer 429 with Retry-After past the rate, before the upstream is asked; a wrong secret counts nothing; another credential still signs in', async () => {
    const { h } = await instance({ signInsPerCredential: { ratePerSecond: 0.01, burst: 2 } });
    // Someone else's wrong secrets use up nothing of this credential's rate.
    for (let i = 0; i < 3; i += 1) {
      expect((await h.login({ region: 'eu', clientSecret: `wrong-${i}` })).res.status).toBe(401);
    }
    await signIn(h);
    await signIn(h);
    const tokenCalls = upstream.tokenCalls;
    const refused = await h.login({ region: 'eu' });
    await expectTooMany(refused.res);
    expect(refused.cookie).toBe('');
    expect(upstream.tokenCalls).toBe(tokenCalls);
    await signIn(h, true);
  });
});

describe('presence', () => {
  it('is limited per person across all their streams; another person is not held back', async () => {
    const { h, base } = await instance({ presencePerPerson: { ratePerSecond: 0.01, burst: 3 } });
    // Two sessions of one person (two browsers), a stream each.
    const first = await signIn(h);
    const a = await open(base, first);
    const second = await signIn(h);
    const b = await open(base, second);
    expect((await put(base, first, a.hello.connectionId, 'SUP-1')).status).toBe(204);
    expect((await put(base, second, b.hello.connectionId, 'SUP-2')).status).toBe(204);
    expect((await put(base, first, a.hello.connectionId, 'SUP-3')).status).toBe(204);
    await expectTooMany(await put(base, second, b.hello.connectionId, 'SUP-4'));
    const bob = await signIn(h, true);
    const c = await open(base, bob);
    expect((await put(base, bob, c.hello.connectionId, 'SUP-1')).status).toBe(204);
  });

  it('counts nothing for a connection id that is not the caller’s, and refuses a record that does not exist', async () => {
    const { h, base, hub } = await instance({});
    const cookie = await signIn(h);
    const mine = await open(base, cookie);
    const theirs = await open(base, await signIn(h, true));
    const before = hub().stats().rateBuckets;
    for (let i = 0; i < 20; i += 1) {
      const id = i % 2 === 0 ? theirs.hello.connectionId : crypto.randomUUID();
      expect((await put(base, cookie, id, 'SUP-1')).status).toBe(404);
    }
    expect(hub().stats().rateBuckets).toBe(before);

    const made = await put(base, cookie, mine.hello.connectionId, 'NONE-99999');
    expect(made.status).toBe(404);
    expect(ProblemSchema.parse(await made.json()).errors?.[0]?.field).toBe('record.recordId');
    expect((await put(base, cookie, mine.hello.connectionId, 'SUP-3')).status).toBe(204);
  });

  it('is answered by an instance without the stream, which keeps nothing of the session', async () => {
    const one = await instance({});
    const two = await instance({}, { store: one.h.store });
    const cookie = await signIn(one.h);
    const s = await open(one.base, cookie);
    expect((await put(two.base, cookie, s.hello.connectionId, 'SUP-5')).status).toBe(204);
    expect(two.hub().stats().visibleSessions).toBe(0);
  });
});

describe('the request rate of a session on /bff/*', () => {
  it('answers 429 with Retry-After past it; other sessions and signing out still go through', async () => {
    const { h } = await instance({ requestsPerSession: { ratePerSecond: 0.01, burst: 5 } });
    const cookie = await signIn(h);
    for (let i = 0; i < 5; i += 1) {
      expect((await h.api('/bff/session', { cookie })).status).toBe(200);
    }
    await expectTooMany(await h.api('/bff/session', { cookie }));
    await expectTooMany(await h.api('/bff/views', { cookie }));
    const other = await signIn(h);
    expect((await h.api('/bff/session', { cookie: other })).status).toBe(200);
    expect((await h.api('/bff/logout', { method: 'POST', cookie })).status).toBe(204);
  });
});
