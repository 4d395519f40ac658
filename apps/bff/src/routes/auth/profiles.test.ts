// Sign-in against both kinds of upstream: profile detection per region, the token request's
// form -> JSON fallback, which failures count as failed sign-ins, and who the person is when the
// upstream has no `/v1/me` (identities file, typed email, nobody) with a stable owner id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SessionUser } from '@wsc/api-client';
import { capabilitiesFor, LoginResultSchema, SessionSchema } from '@wsc/api-client';

import type { FakeUpstream, RouteHandler } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { BffConfig } from '../../lib/config.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  ME,
  OTHER_CLIENT_ID,
  OTHER_CLIENT_SECRET,
  startFakeUpstream,
} from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';
import { ownerIdFor } from '../../lib/identities.ts';

let extended: FakeUpstream;
let hosted: FakeUpstream;

beforeAll(async () => {
  extended = await startFakeUpstream();
  hosted = await startFakeUpstream({ mode: 'hosted' });
});
afterAll(async () => {
  await extended.close();
  await hosted.close();
});

const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
});

/** A fresh BFF (fresh detection and token-style memory) over one of the two fakes. */
async function bff(upstream: FakeUpstream, config: Partial<BffConfig> = {}): Promise<Harness> {
  upstream.reset();
  const h = await createHarness({
    upstream,
    config: { regions: [regionFor('default', upstream.apiUrl)], ...config },
  });
  harnesses.push(h);
  return h;
}

const meCalls = (upstream: FakeUpstream) =>
  upstream.requests.filter((r) => r.url === '/v1/me').length;
const tokenRequests = (upstream: FakeUpstream) =>
  upstream.requests.filter((r) => r.url === '/oauth/token');
const styleOf = (headers: IncomingMessage['headers']) =>
  (headers['content-type'] ?? '').startsWith('application/json') ? 'json' : 'form';

async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

const PEOPLE = [
  {
    id: 'a0000000-0000-4000-8000-000000000001',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
  },
  {
    id: 'a0000000-0000-4000-8000-000000000002',
    email: 'bob@example.com',
    firstName: 'Bob',
    lastName: 'Babbage',
  },
];

/** `GET /v1/users?filter=email==X&first=1` as the published API answers it (no other keys). */
function usersRoute(people = PEOPLE, seen: string[] = []): RouteHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname !== '/v1/users') {
      res.writeHead(404).end();
      return;
    }
    const filter = url.searchParams.get('filter') ?? '';
    seen.push(`${filter}&first=${url.searchParams.get('first')}`);
    const wanted = /^email==(.*)$/.exec(filter)?.[1]?.replace(/^'(.*)'$/, '$1');
    const items = people.filter((p) => p.email === wanted).map((data) => data);
    const body = JSON.stringify({ items });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  };
}

describe('profile detection (WORKSPACE_API_PROFILE=auto)', () => {
  it('detects extended from a /v1/me that answers with our Me, and reads the person from it', async () => {
    const h = await bff(extended);
    const { res, cookie } = await h.login();
    expect(res.status).toBe(200);
    const body = LoginResultSchema.parse(await res.json());
    expect(body.capabilities).toEqual(capabilitiesFor('extended'));
    expect(body.user).toEqual({
      id: ME.id,
      email: ME.email,
      firstName: ME.firstName,
      lastName: ME.lastName,
      clientId: CLIENT_ID,
      role: 'ADMIN',
      identity: 'api',
    });
    // The probe's reply is the identity: one /v1/me per sign-in, not two.
    expect(meCalls(extended)).toBe(1);
    await h.login();
    expect(meCalls(extended)).toBe(2);
    const session = SessionSchema.parse(await (await h.api('/bff/session', { cookie })).json());
    expect(session.capabilities.profile).toBe('extended');
  });

  it('detects hosted from a 404 on /v1/me once per region, then never asks again', async () => {
    const h = await bff(hosted);
    const { res, cookie } = await h.login();
    expect(res.status).toBe(200);
    const body = LoginResultSchema.parse(await res.json());
    expect(body.capabilities).toEqual(capabilitiesFor('hosted'));
    expect(body.user).toEqual({ clientId: CLIENT_ID, role: 'UNKNOWN', identity: 'none' });
    expect(meCalls(hosted)).toBe(1);
    await h.login();
    await h.login({ clientId: OTHER_CLIENT_ID, clientSecret: OTHER_CLIENT_SECRET });
    expect(meCalls(hosted)).toBe(1);
    const session = SessionSchema.parse(await (await h.api('/bff/session', { cookie })).json());
    expect(session.capabilities).toEqual(capabilitiesFor('hosted'));
  });

  it('takes 401, 403, 405 and a /me that is not ours for hosted', async () => {
    for (const status of [401, 403, 405, 200]) {
      const h = await bff(extended);
      extended.meStatus = status; // 200 with a body that is not a Me
      const { res } = await h.login();
      expect(res.status, String(status)).toBe(200);
      expect((await json<{ capabilities: { profile: string } }>(res)).capabilities.profile).toBe(
        'hosted',
      );
    }
  });

  it('answers 502 when the probe meets a 5xx or no answer, caches nothing, and counts no failure', async () => {
    const h = await bff(extended, { loginRateLimit: { max: 1, windowMs: 60_000 } });
    extended.meStatus = 503;
    expect((await h.login()).res.status).toBe(502);
    expect((await h.login()).res.status).toBe(502);
    extended.meStatus = undefined;
    const { res } = await h.login();
    expect(res.status).toBe(200);
    expect((await json<{ capabilities: { profile: string } }>(res)).capabilities.profile).toBe(
      'extended',
    );
    expect(meCalls(extended)).toBe(3);
  });

  it('probes once per region while concurrent sign-ins wait for it', async () => {
    const h = await bff(hosted);
    hosted.meDelayMs = 200;
    const results = await Promise.all(Array.from({ length: 5 }, () => h.login()));
    expect(results.map((r) => r.res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(meCalls(hosted)).toBe(1);
  });

  it('never probes a region whose profile is configured', async () => {
    const h = await bff(extended, {
      regions: [regionFor('default', extended.apiUrl, { profile: 'hosted' })],
    });
    const { res } = await h.login();
    expect(res.status).toBe(200);
    expect((await json<{ capabilities: { profile: string } }>(res)).capabilities.profile).toBe(
      'hosted',
    );
    expect(meCalls(extended)).toBe(0);
    // Configured extended: /v1/me is the identity, and it must work.
    const strict = await bff(hosted, {
      regions: [regionFor('default', hosted.apiUrl, { profile: 'extended' })],
    });
    expect((await strict.login()).res.status).toBe(502);
  });
});

describe('token request style', () => {
  it('falls back from form + Basic to the JSON body on 400 and remembers it per region', async () => {
    const h = await bff(hosted, {
      regions: [
        regionFor('default', hosted.apiUrl, { profile: 'hosted' }),
        regionFor('eu', hosted.apiUrl, { profile: 'hosted' }),
      ],
    });
    hosted.tokenTtlSeconds = 60;
    const { res, cookie } = await h.login();
    expect(res.status).toBe(200);
    expect(tokenRequests(hosted).map((r) => styleOf(r.headers))).toEqual(['form', 'json']);
    // The JSON body carries the credentials; no Basic header goes with it.
    expect(tokenRequests(hosted)[1]?.headers.authorization).toBeUndefined();
    await h.login();
    expect(tokenRequests(hosted).map((r) => styleOf(r.headers))).toEqual(['form', 'json', 'json']);
    // The other region has not learnt anything yet.
    await h.login({ region: 'eu' });
    expect(tokenRequests(hosted).map((r) => styleOf(r.headers))).toEqual([
      'form',
      'json',
      'json',
      'form',
      'json',
    ]);
    // Token refreshes use the remembered style too.
    hosted.requests.length = 0;
    h.clock.advance(55_000);
    expect((await h.api('/api/v1/users', { cookie })).status).toBe(200);
    expect(tokenRequests(hosted).map((r) => styleOf(r.headers))).toEqual(['json']);
  });

  it('retries on 415 and 422 too, and sends JSON only when configured so', async () => {
    for (const status of [415, 422]) {
      const h = await bff(extended);
      extended.tokenFailure = status;
      extended.tokenFailureBody = { message: 'Unsupported content' };
      expect((await h.login()).res.status).toBe(502);
      expect(tokenRequests(extended).map((r) => styleOf(r.headers))).toEqual(['form', 'json']);
    }
    const h = await bff(hosted, {
      regions: [regionFor('default', hosted.apiUrl, { tokenStyle: 'json' })],
    });
    expect((await h.login()).res.status).toBe(200);
    expect(tokenRequests(hosted).map((r) => styleOf(r.headers))).toEqual(['json']);
  });
});

describe('which failures are failed sign-ins', () => {
  /** After one counted failure (limit 1) the next attempt is refused with 429. */
  async function counted(setup: (upstream: FakeUpstream) => void, secret = CLIENT_SECRET) {
    const h = await bff(extended, { loginRateLimit: { max: 1, windowMs: 60_000 } });
    setup(extended);
    const first = await h.login({ clientSecret: secret });
    const calls = extended.tokenCalls;
    extended.tokenFailure = undefined;
    const next = await h.login();
    return { status: first.res.status, calls, counted: next.res.status === 429 };
  }

  it('counts 401 and the OAuth credential codes, without a JSON retry', async () => {
    expect(await counted(() => undefined, 'wrong-secret')).toEqual({
      status: 401,
      calls: 1,
      counted: true,
    });
    for (const error of ['invalid_client', 'invalid_grant', 'unauthorized_client']) {
      const result = await counted((u) => {
        u.tokenFailure = 400;
        u.tokenFailureBody = { error, error_description: 'no' };
      });
      expect(result, error).toEqual({ status: 401, calls: 1, counted: true });
    }
  });

  it('does not count other 4xx, 5xx or a 2xx without a token: the service had a problem', async () => {
    const cases: [number, unknown, number][] = [
      [400, { error: 'invalid_request' }, 2],
      [403, { message: 'Forbidden' }, 1],
      [404, { message: 'Not Found' }, 1],
      [500, { message: 'boom' }, 1],
      [200, { token_type: 'Bearer' }, 1],
      [201, {}, 1],
    ];
    for (const [status, body, calls] of cases) {
      const result = await counted((u) => {
        u.tokenFailure = status;
        u.tokenFailureBody = body;
      });
      expect(result, String(status)).toEqual({ status: 502, calls, counted: false });
    }
  });

  it('accepts a 201 token reply with only an access_token', async () => {
    const h = await bff(hosted);
    expect((await h.login()).res.status).toBe(200);
    expect(hosted.issued.length).toBeGreaterThan(0);
  });
});

describe('identity in the hosted profile', () => {
  const hostedRegion = () => [regionFor('default', hosted.apiUrl, { profile: 'hosted' })];

  it('takes email and role from the identities file (operator) and names from the user lookup', async () => {
    const h = await bff(hosted, {
      regions: hostedRegion(),
      identities: [
        { clientId: CLIENT_ID, email: 'bob@example.com', role: 'MEMBER' },
        { clientId: CLIENT_ID, email: 'ada@example.com', role: 'ADMIN', region: 'default' },
      ],
    });
    const seen: string[] = [];
    hosted.route = usersRoute(PEOPLE, seen);
    const { res, cookie } = await h.login({ email: 'someone-else@example.com' });
    expect(res.status).toBe(200);
    const expected: SessionUser = {
      id: PEOPLE[0]?.id,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      clientId: CLIENT_ID,
      role: 'ADMIN',
      identity: 'operator',
    };
    expect((await json(res)).user).toEqual(expected);
    expect(seen).toEqual(['email==ada@example.com&first=1']);
    expect((await json(await h.api('/bff/session', { cookie }))).user).toEqual(expected);
  });

  it('shows a typed email as self (role UNKNOWN), with names when the lookup finds the person', async () => {
    const h = await bff(hosted, { regions: hostedRegion() });
    hosted.route = usersRoute();
    const { res } = await h.login({ email: 'bob@example.com' });
    expect((await json(res)).user).toEqual({
      id: PEOPLE[1]?.id,
      email: 'bob@example.com',
      firstName: 'Bob',
      lastName: 'Babbage',
      clientId: CLIENT_ID,
      role: 'UNKNOWN',
      identity: 'self',
    });
  });

  it('signs in with what is known when the lookup fails or finds nobody (or somebody else)', async () => {
    const h = await bff(hosted, { regions: hostedRegion() });
    const self = {
      email: 'carol@example.com',
      clientId: CLIENT_ID,
      role: 'UNKNOWN',
      identity: 'self',
    };
    hosted.route = usersRoute();
    expect((await json((await h.login({ email: 'carol@example.com' })).res)).user).toEqual(self);
    hosted.route = (req, res) => {
      req.resume();
      res.writeHead(500).end();
    };
    expect((await json((await h.login({ email: 'carol@example.com' })).res)).user).toEqual(self);
    // A server that ignores the filter cannot hand us the first user it has.
    hosted.route = (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: [PEOPLE[0]] }));
    };
    expect((await json((await h.login({ email: 'carol@example.com' })).res)).user).toEqual(self);
    expect(h.logs.some((line) => line.includes('sign-in user lookup'))).toBe(true);
  });

  it('knows only the client id without a file entry or an email, and never looks anybody up', async () => {
    const h = await bff(hosted, {
      regions: hostedRegion(),
      identities: [{ clientId: 'someone-else', email: 'ada@example.com', role: 'ADMIN' }],
    });
    hosted.route = usersRoute();
    const { res } = await h.login();
    expect((await json(res)).user).toEqual({
      clientId: CLIENT_ID,
      role: 'UNKNOWN',
      identity: 'none',
    });
    expect(hosted.apiRequests().filter((r) => r.url.startsWith('/v1/users'))).toHaveLength(0);
  });

  it('ignores an email typed by a client the identities file does not list (none, no lookup)', async () => {
    const h = await bff(hosted, {
      regions: hostedRegion(),
      identities: [{ clientId: 'someone-else', email: 'ada@example.com', role: 'ADMIN' }],
    });
    hosted.route = usersRoute();
    const { res } = await h.login({ email: 'ada@example.com' });
    expect((await json(res)).user).toEqual({
      clientId: CLIENT_ID,
      role: 'UNKNOWN',
      identity: 'none',
    });
    expect(hosted.apiRequests().filter((r) => r.url.startsWith('/v1/users'))).toHaveLength(0);
  });

  it('ignores the typed email and the identities file in the extended profile', async () => {
    const h = await bff(extended, {
      identities: [{ clientId: CLIENT_ID, email: 'bob@example.com', role: 'MEMBER' }],
    });
    const { res } = await h.login({ email: 'bob@example.com' });
    expect((await json(res)).user).toMatchObject({
      email: ME.email,
      role: 'ADMIN',
      identity: 'api',
    });
  });

  it('refuses an email that is not one, naming the field', async () => {
    const h = await bff(hosted, { regions: hostedRegion() });
    const { res } = await h.login({ email: 'not an email' });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ errors: [{ field: 'email' }] });
    expect(hosted.tokenCalls).toBe(0);
  });
});

describe('owner id of hosted sessions', () => {
  const createView = (h: Harness, cookie: string, name: string) =>
    h.api('/bff/views', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, recordType: 'apps', alias: 'support' }),
    });

  it('keeps saved views for the same client id across sign-ins; another client id gets 404', async () => {
    // A view needs a definition of the region: the hosted workspace file gives one.
    const support = {
      recordType: 'apps' as const,
      alias: 'support',
      name: 'Support',
      handle: 'SUP',
      fields: [{ name: 'Title', type: 'TEXT' as const, required: false }],
    };
    const h = await bff(hosted, {
      regions: [regionFor('default', hosted.apiUrl, { profile: 'hosted', workspace: [support] })],
    });
    const first = await h.login({ email: 'ada@example.com' });
    const created = await createView(h, first.cookie, `Mine ${Date.now()}`);
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);
    const row = await h.store.db
      .selectFrom('saved_views')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(ownerIdFor('default', CLIENT_ID));

    // A new session of the same client id, typing another email: same owner.
    const again = await h.login({ email: 'bob@example.com' });
    expect((await h.api(`/bff/views/${id}`, { cookie: again.cookie })).status).toBe(200);
    // Another client id typing the first one's email: not the owner.
    const other = await h.login({
      clientId: OTHER_CLIENT_ID,
      clientSecret: OTHER_CLIENT_SECRET,
      email: 'ada@example.com',
    });
    expect(other.res.status).toBe(200);
    expect((await h.api(`/bff/views/${id}`, { cookie: other.cookie })).status).toBe(404);
    const list = await json<{ items: { id: string }[] }>(
      await h.api('/bff/views', { cookie: other.cookie }),
    );
    expect(list.items.map((v) => v.id)).not.toContain(id);
  });
});

describe('no secret leaves the BFF', () => {
  it('never logs or answers a secret or token across these sign-ins', () => {
    const text =
      harnesses.flatMap((h) => h.logs).join('\n') +
      harnesses.flatMap((h) => h.seen.map((s) => s.body)).join('\n');
    for (const value of [
      CLIENT_SECRET,
      OTHER_CLIENT_SECRET,
      ...hosted.issued,
      ...extended.issued,
    ]) {
      expect(text).not.toContain(value);
    }
  });
});
