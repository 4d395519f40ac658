// Saved views through HTTP on the BFF test harness: validation, per-user isolation (two people
// signed in through a loopback stand-in for the API), one default per definition, CSRF, and
// views surviving a restart of the BFF over the same PGlite data folder.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { SavedView } from './saved-views.schemas.ts';
import { createHarness } from '../../../test/harness.ts';
import { openStore } from '../../db/store.ts';
import { regionFor } from '../../lib/config.ts';

const PEOPLE = {
  ada: {
    id: '0b6f7f9e-1111-4a8e-9a51-0d3c2b1a0f11',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    jobTitle: 'Agent',
    status: 'ACTIVE',
    role: 'MEMBER',
  },
  bob: {
    id: '0b6f7f9e-2222-4a8e-9a51-0d3c2b1a0f22',
    email: 'bob@example.com',
    firstName: 'Bob',
    lastName: 'Babbage',
    jobTitle: 'Agent',
    status: 'ACTIVE',
    role: 'MEMBER',
  },
} as const;
type Person = keyof typeof PEOPLE;
const SECRET = 'secret-for-saved-views-tests';

/** A minimal workspace API: a token per client id (`client-<person>`) and `/v1/me` for it. */
async function startPeopleUpstream(): Promise<{ apiUrl: string; server: Server }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      // No keep-alive: a reused socket that the server closed while the (slow) restart ran
      // would fail the next sign-in with a reset.
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (req.url === '/oauth/token') {
        const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
        const [id, secret] = Buffer.from(basic, 'base64').toString().split(':');
        const person = id?.replace(/^client-/, '') as Person;
        if (!(person in PEOPLE) || secret !== SECRET) return send(401, { error: 'invalid_client' });
        return send(200, { access_token: `tok-${person}`, token_type: 'Bearer', expires_in: 3600 });
      }
      const person = (req.headers.authorization ?? '').replace(/^Bearer tok-/, '') as Person;
      if (req.url === '/v1/me' && person in PEOPLE) return send(200, PEOPLE[person]);
      return send(401, { title: 'Unauthorized', status: 401 });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

let upstream: { apiUrl: string; server: Server };
let h: Harness;
let ada: string;
let bob: string;

const harnessOver = (store?: Awaited<ReturnType<typeof openStore>>) =>
  createHarness({
    upstream: { apiUrl: upstream.apiUrl, close: async () => undefined } as unknown as FakeUpstream,
    config: { regions: [regionFor('default', upstream.apiUrl)] },
    ...(store ? { store } : {}),
  });

async function signIn(harness: Harness, person: Person): Promise<string> {
  const { res, cookie } = await harness.login({
    clientId: `client-${person}`,
    clientSecret: SECRET,
  });
  expect(res.status).toBe(200);
  return cookie;
}

/** Unique per test run, so the shared in-memory store never sees a name twice by accident. */
let seq = 0;
const unique = (name: string) => `${name} ${Date.now().toString(36)}-${++seq}`;

function create(cookie: string, body: Record<string, unknown>, harness: Harness = h) {
  return harness.api('/bff/views', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const ticketsView = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  recordType: 'apps',
  alias: `support-tickets-${seq}`,
  filter: 'Status==Open;Severity=in=(High,Critical)',
  sort: '-Created At,Title',
  columns: ['id', 'Title', 'Status'],
  ...extra,
});

beforeAll(async () => {
  upstream = await startPeopleUpstream();
  h = await harnessOver();
  ada = await signIn(h, 'ada');
  bob = await signIn(h, 'bob');
});
afterAll(async () => {
  await h.close();
  upstream.server.closeAllConnections();
  await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
});

describe('POST /bff/views', () => {
  it('creates a view and lists it for its definition', async () => {
    const body = ticketsView(unique('Open high'));
    const res = await create(ada, body);
    expect(res.status).toBe(201);
    const view = (await res.json()) as SavedView;
    expect(view).toMatchObject({
      name: body.name,
      recordType: 'apps',
      alias: body.alias,
      filter: body.filter,
      sort: body.sort,
      columns: body.columns,
      isDefault: false,
    });
    expect(view.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(view.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers.get('location')).toBe(`/bff/views/${view.id}`);

    const list = await h.api(`/bff/views?recordType=apps&alias=${body.alias}`, { cookie: ada });
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(((await list.json()) as { items: SavedView[] }).items).toEqual([view]);
    // Without a definition: every view of the user (the command palette's list).
    const all = (await (await h.api('/bff/views', { cookie: ada })).json()) as {
      items: SavedView[];
    };
    expect(all.items.map((v) => v.id)).toContain(view.id);
  });

  it('answers 400 naming each bad field, and 400 with the position for a bad filter', async () => {
    const res = await create(ada, { name: '  ', recordType: 'rockets', alias: '' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string }[] };
    expect(body.errors.map((e) => e.field).sort()).toEqual(['alias', 'name', 'recordType']);

    const long = await create(ada, ticketsView('x'.repeat(81)));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ errors: [{ field: 'name' }] });

    const filter = await create(ada, ticketsView(unique('Bad'), { filter: 'Status==Open;(' }));
    expect(filter.status).toBe(400);
    expect(filter.headers.get('content-type')).toBe('application/problem+json');
    expect(await filter.json()).toMatchObject({
      status: 400,
      parameter: 'filter',
      position: 14, // the end of input, where a selector was expected
      errors: [{ field: 'filter' }],
    });

    const notJson = await h.api('/bff/views', {
      method: 'POST',
      cookie: ada,
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
  });

  it('refuses a second view of the same name (any case) for the same definition with 409', async () => {
    const name = unique('Mine');
    const body = ticketsView(name);
    expect((await create(ada, body)).status).toBe(201);
    const again = await create(ada, { ...body, name: name.toUpperCase() });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ errors: [{ field: 'name' }] });
    // The same name for another definition, or for another person, is fine.
    expect((await create(ada, { ...body, alias: `${body.alias}-other` })).status).toBe(201);
    expect((await create(bob, body)).status).toBe(201);
  });

  it('needs a session (401) and the X-CSRF header on writes (403)', async () => {
    expect((await h.api('/bff/views')).status).toBe(401);
    const noCsrf = await h.api('/bff/views', {
      method: 'POST',
      cookie: ada,
      csrf: false,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ticketsView(unique('No csrf'))),
    });
    expect(noCsrf.status).toBe(403);
    // Reads need no CSRF header (a same-origin GET changes nothing).
    expect((await h.api('/bff/views', { cookie: ada, csrf: false })).status).toBe(200);
  });
});

describe('one person never sees another person’s views', () => {
  it('lists only the caller’s views and answers 404 for the other person’s ids', async () => {
    const mine = (await (await create(ada, ticketsView(unique('Ada only')))).json()) as SavedView;
    const list = (await (
      await h.api(`/bff/views?recordType=apps&alias=${mine.alias}`, { cookie: bob })
    ).json()) as { items: SavedView[] };
    expect(list.items.map((v) => v.id)).not.toContain(mine.id);

    const asBob = (method: string, suffix = '', body?: unknown) =>
      h.api(`/bff/views/${mine.id}${suffix}`, {
        method,
        cookie: bob,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await asBob('GET')).status).toBe(404);
    expect((await asBob('PUT', '', { name: 'Stolen' })).status).toBe(404);
    expect((await asBob('PUT', '/default')).status).toBe(404);
    expect((await asBob('DELETE')).status).toBe(404);
    // Not even a hint: the 404 for a foreign id reads like the one for an id that never existed.
    const foreign = await (await asBob('GET')).json();
    const missing = await (
      await h.api('/bff/views/00000000-0000-4000-8000-000000000000', { cookie: bob })
    ).json();
    expect(foreign).toEqual(missing);
    expect((await h.api('/bff/views/not-a-uuid', { cookie: bob })).status).toBe(404);

    const still = (await (
      await h.api(`/bff/views/${mine.id}`, { cookie: ada })
    ).json()) as SavedView;
    expect(still.name).toBe(mine.name);
  });
});

describe('PUT and DELETE /bff/views/:id', () => {
  it('updates the given parts only, validates them, and deletes', async () => {
    const view = (await (await create(ada, ticketsView(unique('Edit me')))).json()) as SavedView;
    h.clock.advance(1_000);
    const put = await h.api(`/bff/views/${view.id}`, {
      method: 'PUT',
      cookie: ada,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter: 'Status==Pending', columns: ['id', 'Status'] }),
    });
    expect(put.status).toBe(200);
    const updated = (await put.json()) as SavedView;
    expect(updated).toMatchObject({
      name: view.name,
      sort: view.sort,
      filter: 'Status==Pending',
      columns: ['id', 'Status'],
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(view.updatedAt));

    const bad = await h.api(`/bff/views/${view.id}`, {
      method: 'PUT',
      cookie: ada,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter: '==x' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ position: 0 });
    const unknownKey = await h.api(`/bff/views/${view.id}`, {
      method: 'PUT',
      cookie: ada,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ alias: 'customers' }),
    });
    expect(unknownKey.status).toBe(400);

    const other = (await (
      await create(ada, ticketsView(unique('Taken'), { alias: view.alias }))
    ).json()) as SavedView;
    const clash = await h.api(`/bff/views/${view.id}`, {
      method: 'PUT',
      cookie: ada,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: other.name }),
    });
    expect(clash.status).toBe(409);

    const del = await h.api(`/bff/views/${view.id}`, { method: 'DELETE', cookie: ada });
    expect(del.status).toBe(204);
    expect((await h.api(`/bff/views/${view.id}`, { cookie: ada })).status).toBe(404);
    expect((await h.api(`/bff/views/${view.id}`, { method: 'DELETE', cookie: ada })).status).toBe(
      404,
    );
  });
});

describe('PUT /bff/views/:id/default', () => {
  it('keeps exactly one default per definition per person', async () => {
    const alias = `defaults-${Date.now().toString(36)}`;
    const a = (await (await create(ada, ticketsView(unique('A'), { alias }))).json()) as SavedView;
    const b = (await (await create(ada, ticketsView(unique('B'), { alias }))).json()) as SavedView;
    const elsewhere = (await (
      await create(ada, ticketsView(unique('C'), { alias: `${alias}-x` }))
    ).json()) as SavedView;
    const bobs = (await (
      await create(bob, ticketsView(unique('D'), { alias }))
    ).json()) as SavedView;
    const makeDefault = (id: string, cookie = ada) =>
      h.api(`/bff/views/${id}/default`, { method: 'PUT', cookie });

    for (const view of [elsewhere, bobs]) {
      const cookie = view === bobs ? bob : ada;
      expect((await makeDefault(view.id, cookie)).status).toBe(200);
    }
    const first = await makeDefault(a.id);
    expect(first.status).toBe(200);
    expect(((await first.json()) as SavedView).isDefault).toBe(true);
    expect((await makeDefault(b.id)).status).toBe(200);

    const defaults = async (cookie: string, of: string) =>
      (
        (await (await h.api(`/bff/views?recordType=apps&alias=${of}`, { cookie })).json()) as {
          items: SavedView[];
        }
      ).items
        .filter((v) => v.isDefault)
        .map((v) => v.id);
    expect(await defaults(ada, alias)).toEqual([b.id]);
    // Other definitions and other people keep theirs.
    expect(await defaults(ada, `${alias}-x`)).toEqual([elsewhere.id]);
    expect(await defaults(bob, alias)).toEqual([bobs.id]);

    // DELETE .../default goes back to no default; writes need X-CSRF.
    expect(
      (await h.api(`/bff/views/${b.id}/default`, { method: 'PUT', cookie: ada, csrf: false }))
        .status,
    ).toBe(403);
    expect(
      (await h.api(`/bff/views/${b.id}/default`, { method: 'DELETE', cookie: ada })).status,
    ).toBe(200);
    expect(await defaults(ada, alias)).toEqual([]);
  });
});

describe('saved views in the PGlite store', () => {
  it('survive a restart of the BFF: a new app over the same data folder sees them', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bff-views-'));
    try {
      const first = await openStore({ kind: 'pglite', dataDir });
      const before = await harnessOver(first);
      const cookie = await signIn(before, 'ada');
      const created = await create(cookie, ticketsView('Survivor', { alias: 'restart' }), before);
      expect(created.status).toBe(201);
      const view = (await created.json()) as SavedView;
      expect(
        (await before.api(`/bff/views/${view.id}/default`, { method: 'PUT', cookie })).status,
      ).toBe(200);
      await before.close();
      await first.close();

      const second = await openStore({ kind: 'pglite', dataDir });
      const after = await harnessOver(second);
      // A fresh sign-in: views belong to the person, not to the session that made them.
      const again = await signIn(after, 'ada');
      const list = await after.api('/bff/views?recordType=apps&alias=restart', { cookie: again });
      expect(((await list.json()) as { items: SavedView[] }).items).toEqual([
        { ...view, isDefault: true },
      ]);
      await after.close();
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
