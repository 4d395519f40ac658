// Shared views through HTTP: an owner shares a view with a group or with everyone in the region;
// members read it (read-only), everyone else gets the same 404 as for an id that never existed;
// membership is asked of the API at read time (cached for MEMBERSHIP_TTL_MS), so someone removed
// from the group stops seeing it; the caps and bad input; and the hosted profile, where only an
// operator-named identity can be told apart as a group member.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SavedView, SharedViewList } from '@wsc/api-client';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';
import { MEMBERSHIP_TTL_MS } from './group-membership.ts';
import { MAX_GROUPS_PER_SHARER, MAX_SHARED_VIEWS_PER_USER } from './saved-views.shares.ts';

const person = (n: string, first: string, last: string) => ({
  id: `5ea7ed00-${n.repeat(4)}-4c1e-8a51-5ea7ed0000${n.repeat(2)}`,
  email: `${first.toLowerCase()}@example.com`,
  firstName: first,
  lastName: last,
  jobTitle: 'Agent',
  status: 'ACTIVE',
  role: 'MEMBER',
});
const PEOPLE = {
  ada: person('1', 'Ada', 'Lovelace'),
  bob: person('2', 'Bob', 'Babbage'),
  cy: person('3', 'Cy', 'Caps'),
  dee: person('4', 'Dee', 'Deluge'),
};
type Person = keyof typeof PEOPLE;
const SECRET = 'secret-for-shared-views-tests';

const AGENTS = '7d0c4c1e-aaaa-4b6f-8d5e-000000000001';
const LEADS = '7d0c4c1e-bbbb-4b6f-8d5e-000000000002';
const UNKNOWN_GROUP = '7d0c4c1e-cccc-4b6f-8d5e-000000000003';
/** Group members by user id; tests change them as an administrator would. */
const groups = new Map<string, { name: string; members: string[] }>();
const resetGroups = () => {
  groups.clear();
  groups.set(AGENTS, { name: 'Agents', members: [PEOPLE.ada.id, PEOPLE.bob.id] });
  groups.set(LEADS, { name: 'Leads', members: [PEOPLE.ada.id] });
};
/** `GET /groups/{id}/users` calls, to show membership answers are cached. */
let memberCalls = 0;

const definition = (alias: string) => ({
  recordType: 'apps',
  alias,
  name: alias,
  handle: 'SUP',
  handleField: 'Ticket ID',
  fields: [
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Ticket ID', type: 'TEXT', readOnly: true },
  ],
});
const ALIASES = ['tickets', 'caps', 'hosted'];

/**
 * A workspace API for both profiles: tokens per client id (`client-<person>`), `/v1/me` (answered
 * only in the extended mode), `/v1/definitions`, the published user lookup by email, and the
 * published group endpoints (a group's members paged two at a time, to cover paging).
 */
async function startUpstream(): Promise<{ apiUrl: string; server: Server }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/oauth/token') {
        const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
        const [id, secret] = Buffer.from(basic, 'base64').toString().split(':');
        const who = id?.replace(/^client-/, '') as Person;
        if (!(who in PEOPLE) || secret !== SECRET) return send(401, { error: 'invalid_client' });
        return send(200, { access_token: `tok-${who}`, token_type: 'Bearer', expires_in: 3600 });
      }
      const who = (req.headers.authorization ?? '').replace(/^Bearer tok-/, '') as Person;
      if (!(who in PEOPLE)) return send(401, { title: 'Unauthorized', status: 401 });
      if (url.pathname === '/v1/me') return send(200, PEOPLE[who]);
      if (url.pathname === '/v1/definitions') {
        return send(200, { items: ALIASES.map(definition) });
      }
      // The hosted probe of what a session may see: every alias here is readable.
      const list = /^\/v1\/apps\/([^/]+)$/.exec(url.pathname);
      if (list && ALIASES.includes(list[1] ?? '')) return send(200, { items: [] });
      if (url.pathname === '/v1/users') {
        const email = /^email==(.*)$/.exec(url.searchParams.get('filter') ?? '')?.[1];
        const items = Object.values(PEOPLE).filter((p) => p.email === email);
        return send(200, { total: items.length, items: items.map(({ role: _, ...u }) => u) });
      }
      const group = /^\/v1\/groups\/([^/]+)(\/users)?$/.exec(url.pathname);
      const found = group ? groups.get(group[1] ?? '') : undefined;
      if (group && !found) return send(404, { title: 'Not Found', status: 404 });
      if (group && found && !group[2]) return send(200, { id: group[1], name: found.name });
      if (group && found) {
        memberCalls += 1;
        const start = Number(url.searchParams.get('after') ?? '0');
        const page = found.members.slice(start, start + 2);
        const items = page.map((id) => {
          const { role: _, ...user } = Object.values(PEOPLE).find((p) => p.id === id) ?? PEOPLE.cy;
          return user;
        });
        const next = start + 2 < found.members.length;
        return send(200, {
          total: found.members.length,
          items,
          paging: {
            has_next_page: next,
            has_previous_page: start > 0,
            end_cursor: next ? String(start + 2) : null,
          },
        });
      }
      return send(404, { title: 'Not Found', status: 404 });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

let upstream: { apiUrl: string; server: Server };
let h: Harness;
const cookies = {} as Record<Person, string>;

const harnessOver = (config: NonNullable<Parameters<typeof createHarness>[0]>['config']) =>
  createHarness({
    upstream: { apiUrl: upstream.apiUrl, close: async () => undefined } as unknown as FakeUpstream,
    config,
  });

async function signIn(harness: Harness, who: Person, email?: string): Promise<string> {
  const { res, cookie } = await harness.login({
    clientId: `client-${who}`,
    clientSecret: SECRET,
    ...(email ? { email } : {}),
  });
  expect(res.status).toBe(200);
  return cookie;
}

let seq = 0;
async function createView(cookie: string, alias = 'tickets', harness = h): Promise<SavedView> {
  const res = await harness.api('/bff/views', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `View ${++seq}`,
      recordType: 'apps',
      alias,
      filter: 'Status==Open',
      sort: '-Title',
      columns: ['Title'],
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as SavedView;
}

function share(cookie: string, id: string, body: unknown, harness = h) {
  return harness.api(`/bff/views/${id}/shares`, {
    method: 'PUT',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function sharedWith(cookie: string, harness = h): Promise<SharedViewList> {
  const res = await harness.api('/bff/views/shared', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as SharedViewList;
}

const getView = (cookie: string, id: string, harness = h) =>
  harness.api(`/bff/views/${id}`, { cookie });

beforeAll(async () => {
  resetGroups();
  upstream = await startUpstream();
  h = await harnessOver({ regions: [regionFor('default', upstream.apiUrl)] });
  for (const who of Object.keys(PEOPLE) as Person[]) cookies[who] = await signIn(h, who);
});
afterAll(async () => {
  await h.close();
  upstream.server.closeAllConnections();
  await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
});

describe('a view shared with a group', () => {
  it('is read by members (read-only, with who shared it), and a 404 to everyone else', async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    expect(view.shares).toEqual({ everyone: false, groups: [] });
    const res = await share(cookies.ada, view.id, { everyone: false, groups: [AGENTS] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SavedView).shares).toEqual({
      everyone: false,
      groups: [{ id: AGENTS, name: 'Agents' }],
    });
    // The owner's list carries the shares; the view stays the owner's only.
    const own = (await (await h.api('/bff/views', { cookie: cookies.ada })).json()) as {
      items: SavedView[];
    };
    expect(own.items.find((v) => v.id === view.id)?.shares?.groups).toHaveLength(1);

    // Bob is in Agents (on the members' second page: ada, bob are one page; paging is followed).
    const bobs = await sharedWith(cookies.bob);
    expect(bobs.groupSharing).toEqual({ available: true });
    const seen = bobs.items.find((v) => v.id === view.id);
    expect(seen).toMatchObject({
      name: view.name,
      filter: 'Status==Open',
      sort: '-Title',
      columns: ['Title'],
      sharedBy: 'Ada Lovelace',
      isDefault: false,
    });
    expect(seen?.shares).toBeUndefined();
    expect((await getView(cookies.bob, view.id)).status).toBe(200);
    const bobOwn = (await (await h.api('/bff/views', { cookie: cookies.bob })).json()) as {
      items: SavedView[];
    };
    expect(bobOwn.items.map((v) => v.id)).not.toContain(view.id);
    // Per definition too.
    const query = await h.api('/bff/views/shared?recordType=apps&alias=caps', {
      cookie: cookies.bob,
    });
    expect(((await query.json()) as SharedViewList).items.map((v) => v.id)).not.toContain(view.id);

    // Cy is in no group: not listed, and the same 404 as an id that never existed.
    expect((await sharedWith(cookies.cy)).items.map((v) => v.id)).not.toContain(view.id);
    const hidden = await getView(cookies.cy, view.id);
    const never = await getView(cookies.cy, crypto.randomUUID());
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual(await never.json());
  });

  it('is not the readers’ to change: every write is a 404, and nothing changes', async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    expect((await share(cookies.ada, view.id, { everyone: true, groups: [] })).status).toBe(200);
    const json = { 'content-type': 'application/json' };
    const writes: [string, string, string?][] = [
      ['PUT', `/bff/views/${view.id}`, JSON.stringify({ name: 'Mine now' })],
      ['DELETE', `/bff/views/${view.id}`],
      ['PUT', `/bff/views/${view.id}/default`],
      ['DELETE', `/bff/views/${view.id}/default`],
      ['PUT', `/bff/views/${view.id}/shares`, JSON.stringify({ everyone: false, groups: [] })],
      ['DELETE', `/bff/views/${view.id}/shares`],
    ];
    for (const [method, path, body] of writes) {
      const res = await h.api(path, {
        method,
        cookie: cookies.bob,
        ...(body ? { headers: json, body } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const still = (await (await getView(cookies.ada, view.id)).json()) as SavedView;
    expect(still.name).toBe(view.name);
    expect(still.shares).toEqual({ everyone: true, groups: [] });
  });

  it('stops reaching someone removed from the group once the membership answer expires', async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    await share(cookies.ada, view.id, { everyone: false, groups: [LEADS, AGENTS] });
    expect((await getView(cookies.bob, view.id)).status).toBe(200);
    const calls = memberCalls;
    expect((await sharedWith(cookies.bob)).items.map((v) => v.id)).toContain(view.id);
    expect(memberCalls, 'answers are cached').toBe(calls);

    groups.get(AGENTS)?.members.splice(1, 1);
    h.clock.advance(MEMBERSHIP_TTL_MS + 1);
    expect((await sharedWith(cookies.bob)).items.map((v) => v.id)).not.toContain(view.id);
    expect((await getView(cookies.bob, view.id)).status).toBe(404);
    // Added again: visible again after the next expiry.
    groups.get(AGENTS)?.members.push(PEOPLE.bob.id);
    h.clock.advance(MEMBERSHIP_TTL_MS + 1);
    expect((await getView(cookies.bob, view.id)).status).toBe(200);
    // A group deleted upstream shares nothing.
    groups.delete(AGENTS);
    h.clock.advance(MEMBERSHIP_TTL_MS + 1);
    expect((await getView(cookies.bob, view.id)).status).toBe(404);
  });
});

describe('a view shared with everyone in the region', () => {
  it('reaches everybody until the owner unshares or deletes it', async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    await share(cookies.ada, view.id, { everyone: true, groups: [] });
    expect((await getView(cookies.cy, view.id)).status).toBe(200);
    expect((await sharedWith(cookies.cy)).items.map((v) => v.id)).toContain(view.id);

    const off = await h.api(`/bff/views/${view.id}/shares`, {
      method: 'DELETE',
      cookie: cookies.ada,
    });
    expect(off.status).toBe(200);
    expect(((await off.json()) as SavedView).shares).toEqual({ everyone: false, groups: [] });
    expect((await getView(cookies.cy, view.id)).status).toBe(404);

    // Shared again, then deleted: the shares go with it.
    await share(cookies.ada, view.id, { everyone: true, groups: [AGENTS] });
    expect((await getView(cookies.cy, view.id)).status).toBe(200);
    const gone = await h.api(`/bff/views/${view.id}`, { method: 'DELETE', cookie: cookies.ada });
    expect(gone.status).toBe(204);
    expect((await getView(cookies.cy, view.id)).status).toBe(404);
    expect((await getView(cookies.bob, view.id)).status).toBe(404);
    expect((await sharedWith(cookies.bob)).items.map((v) => v.id)).not.toContain(view.id);
  });

  it('does not reach another region', async () => {
    const eu = await harnessOver({
      regions: [regionFor('default', upstream.apiUrl), regionFor('eu', upstream.apiUrl)],
    });
    try {
      const ada = await signIn(eu, 'ada');
      const view = await createView(ada, 'tickets', eu);
      await share(ada, view.id, { everyone: true, groups: [] }, eu);
      const { cookie } = await eu.login({
        clientId: 'client-cy',
        clientSecret: SECRET,
        region: 'eu',
      });
      expect((await getView(cookie, view.id, eu)).status).toBe(404);
      expect((await sharedWith(cookie, eu)).items).toEqual([]);
    } finally {
      await eu.close();
    }
  });
});

describe('PUT /bff/views/:id/shares, bad input and caps', () => {
  it('names the field of a bad body (400) and of an unknown group (422), sharing nothing', async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    const cases: [unknown, number, string][] = [
      [{ everyone: 'yes', groups: [] }, 400, 'everyone'],
      [{ everyone: false, groups: ['not-a-uuid'] }, 400, 'groups.0'],
      [{ everyone: false, groups: [AGENTS, AGENTS.toUpperCase()] }, 400, 'groups'],
      [
        { everyone: false, groups: Array.from({ length: 11 }, () => crypto.randomUUID()) },
        400,
        'groups',
      ],
      [{ everyone: true, groups: [], users: ['x'] }, 400, ''],
      [{ everyone: false, groups: [AGENTS, UNKNOWN_GROUP] }, 422, 'groups.1'],
    ];
    for (const [body, status, field] of cases) {
      const res = await share(cookies.ada, view.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      const problem = (await res.json()) as { errors?: { field: string }[] };
      if (field) expect(problem.errors?.map((e) => e.field)).toContain(field);
    }
    expect((await share(cookies.ada, view.id, '{"everyone":')).status).toBe(400);
    const still = (await (await getView(cookies.ada, view.id)).json()) as SavedView;
    expect(still.shares).toEqual({ everyone: false, groups: [] });
    // A CSRF-less write is refused before anything else.
    const csrf = await h.api(`/bff/views/${view.id}/shares`, {
      method: 'DELETE',
      cookie: cookies.ada,
      csrf: false,
    });
    expect(csrf.status).toBe(403);
  });

  it(`shares at most ${MAX_SHARED_VIEWS_PER_USER} views per owner`, async () => {
    const owner = await signIn(h, 'cy');
    const made: SavedView[] = [];
    for (let i = 0; i <= MAX_SHARED_VIEWS_PER_USER; i += 1)
      made.push(await createView(owner, 'caps'));
    for (const view of made.slice(0, MAX_SHARED_VIEWS_PER_USER)) {
      expect((await share(owner, view.id, { everyone: true, groups: [] })).status).toBe(200);
    }
    const last = made.at(-1) as SavedView;
    const refused = await share(owner, last.id, { everyone: true, groups: [] });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { type: string }).type).toBe(
      'urn:wsc:bff:too_many_shared_views',
    );
    // Changing the audience of a view already shared is no new share; unsharing frees a place.
    const first = made[0] as SavedView;
    expect((await share(owner, first.id, { everyone: false, groups: [AGENTS] })).status).toBe(200);
    await h.api(`/bff/views/${first.id}/shares`, { method: 'DELETE', cookie: owner });
    expect((await share(owner, last.id, { everyone: true, groups: [] })).status).toBe(200);
  });
});

describe('the groups a read checks (review I7)', () => {
  it(`count at most ${MAX_GROUPS_PER_SHARER} of one sharer: sharing with very many groups pushes nobody else out`, async () => {
    resetGroups();
    const view = await createView(cookies.ada);
    expect((await share(cookies.ada, view.id, { everyone: false, groups: [AGENTS] })).status).toBe(
      200,
    );
    // Later, Dee shares 11 views with 10 new groups each: 110 groups, all more recent.
    h.clock.advance(1);
    const flood = Array.from({ length: 110 }, () => crypto.randomUUID());
    for (const id of flood) groups.set(id, { name: `Flood ${id.slice(0, 8)}`, members: [] });
    for (let i = 0; i < 11; i += 1) {
      const mine = await createView(cookies.dee, 'caps');
      const res = await share(cookies.dee, mine.id, {
        everyone: false,
        groups: flood.slice(i * 10, i * 10 + 10),
      });
      expect(res.status).toBe(200);
    }
    h.clock.advance(MEMBERSHIP_TTL_MS + 1);
    const calls = memberCalls;
    expect((await sharedWith(cookies.bob)).items.map((v) => v.id)).toContain(view.id);
    // Bob's read asked about Dee's 10 newest groups and the others', not all 110.
    expect(memberCalls - calls).toBeLessThanOrEqual(MAX_GROUPS_PER_SHARER + 10);
  });
});

describe('hosted profile', () => {
  /** The hosted region over the test upstream, with the `hosted` definition described. */
  const hostedRegions = () => [
    regionFor('default', upstream.apiUrl, {
      profile: 'hosted',
      workspace: [definition('hosted')],
    } as Parameters<typeof regionFor>[2]),
  ];

  it('names a sharer who typed an email as unverified, never with the name the lookup found', async () => {
    const hosted = await harnessOver({ regions: hostedRegions() });
    try {
      // No identities file: Cy types Bob's email; the lookup finds Bob Babbage.
      const cy = await signIn(hosted, 'cy', PEOPLE.bob.email);
      const reader = await signIn(hosted, 'ada', PEOPLE.ada.email);
      const mine = await createView(cy, 'hosted', hosted);
      expect((await share(cy, mine.id, { everyone: true, groups: [] }, hosted)).status).toBe(200);
      const seen = (await sharedWith(reader, hosted)).items.find((v) => v.id === mine.id);
      expect(seen?.sharedBy).toBe('bob@example.com (unverified)');
      expect(seen?.sharedByIdentity).toBe('self');
      expect(JSON.stringify(seen)).not.toContain('Babbage');
    } finally {
      await hosted.close();
    }
  });

  it('checks membership through the published group endpoints for operator-named people only', async () => {
    resetGroups();
    const hosted = await harnessOver({
      regions: hostedRegions(),
      identities: [
        { clientId: 'client-ada', email: PEOPLE.ada.email, role: 'ADMIN' },
        { clientId: 'client-bob', email: PEOPLE.bob.email, role: 'MEMBER' },
      ],
    });
    try {
      const ada = await signIn(hosted, 'ada');
      const bob = await signIn(hosted, 'bob');
      // Cy types Bob's email: ignored (the identities file does not list Cy), never a key to
      // Bob's groups.
      const cy = await signIn(hosted, 'cy', PEOPLE.bob.email);
      const view = await createView(ada, 'hosted', hosted);
      expect(
        (await share(ada, view.id, { everyone: false, groups: [AGENTS] }, hosted)).status,
      ).toBe(200);
      expect((await getView(bob, view.id, hosted)).status).toBe(200);
      const cys = await sharedWith(cy, hosted);
      expect(cys.groupSharing.available).toBe(false);
      expect(cys.groupSharing.reason).toMatch(/cannot verify who you are/);
      expect(cys.items.map((v) => v.id)).not.toContain(view.id);
      expect((await getView(cy, view.id, hosted)).status).toBe(404);

      // Cy can share with everyone, not with a group; the name shown is a pseudonym, never Bob's.
      const mine = await createView(cy, 'hosted', hosted);
      const refused = await share(cy, mine.id, { everyone: false, groups: [AGENTS] }, hosted);
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { type: string }).type).toBe(
        'urn:wsc:bff:group_sharing_unavailable',
      );
      expect((await share(cy, mine.id, { everyone: true, groups: [] }, hosted)).status).toBe(200);
      const fromCy = (await sharedWith(bob, hosted)).items.find((v) => v.id === mine.id);
      expect(fromCy?.sharedBy).toMatch(/^API client [0-9a-f]{8}$/);
      expect(fromCy?.sharedByIdentity).toBe('none');
    } finally {
      await hosted.close();
    }
  });
});
