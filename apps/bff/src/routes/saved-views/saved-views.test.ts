// Saved views through HTTP on the BFF test harness: validation, per-user isolation (two people
// signed in through a loopback stand-in for the API), one default per definition, CSRF, and
// views surviving a restart of the BFF over the same PGlite data folder.
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SavedView } from '@wsc/api-client';

import type { FakeUpstream } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
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
  cy: {
    id: '0b6f7f9e-3333-4a8e-9a51-0d3c2b1a0f33',
    email: 'cy@example.com',
    firstName: 'Cy',
    lastName: 'Caps',
    jobTitle: 'Agent',
    status: 'ACTIVE',
    role: 'MEMBER',
  },
} as const;
type Person = keyof typeof PEOPLE;
const SECRET = 'secret-for-saved-views-tests';

/**
 * The definitions everybody may see: one per test (`support-tickets-<n>`, and `-other` beside it)
 * so that each test's lists hold only its own views, plus a few named ones.
 */
const ALIASES = [
  ...Array.from({ length: 100 }, (_, i) => [
    `support-tickets-${i + 1}`,
    `support-tickets-${i + 1}-other`,
  ]).flat(),
  'defaults',
  'defaults-x',
  'restart',
  'caps',
  'caps-other',
];
const DEFINITIONS = {
  items: ALIASES.map((alias) => ({
    recordType: 'apps',
    alias,
    name: alias,
    handle: 'SUP',
    fields: [{ name: 'Title', type: 'TEXT', required: true }],
  })),
};
/** Calls of `/v1/definitions`, to show a refused view asked nothing else upstream. */
let definitionCalls = 0;

/**
 * A minimal workspace API: a token per client id (`client-<person>`), `/v1/me` for it, and
 * `/v1/definitions`.
 */
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
      if (req.url === '/v1/definitions' && person in PEOPLE) {
        definitionCalls++;
        return send(200, DEFINITIONS);
      }
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

describe('GET /bff/views, compressed', () => {
  it('is gzip when the browser accepts it (over 1 KiB), and as it is when it does not', async () => {
    for (let i = 0; i < 8; i += 1) {
      expect(
        (await create(ada, ticketsView(unique(`Compressed ${'x'.repeat(40)} ${i}`)))).status,
      ).toBe(201);
    }
    const plain = await h.api('/bff/views', { cookie: ada });
    const text = await plain.text();
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(text.length).toBeGreaterThan(1_024);
    const gz = await h.api('/bff/views', {
      cookie: ada,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/accept-encoding/i);
    const bytes = Buffer.from(await gz.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length / 2);
    expect(JSON.parse(gunzipSync(bytes).toString())).toEqual(JSON.parse(text));
  });
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
    const alias = 'defaults';
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

describe('limits (DESIGN.md section 6)', () => {
  let cy: string;
  beforeAll(async () => {
    cy = await signIn(h, 'cy');
  });

  const count = async (alias?: string) => {
    let query = h.store.db
      .selectFrom('saved_views')
      .select(({ fn }) => fn.countAll<number | string>().as('n'))
      .where('user_id', '=', PEOPLE.cy.id);
    if (alias) query = query.where('alias', '=', alias);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  /** Rows written straight into the store: the state an attacker would have reached by HTTP. */
  const seed = async (alias: string, n: number, prefix = alias) => {
    const now = Date.now();
    await h.store.db
      .insertInto('saved_views')
      .values(
        Array.from({ length: n }, (_, i) => ({
          user_id: PEOPLE.cy.id,
          region: 'default',
          name: `${prefix} seeded ${i}`,
          record_type: 'apps',
          alias,
          search: JSON.stringify({ filter: '', sort: '', columns: [] }),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  };

  it('refuses a view of a definition the session cannot see (422), so invented aliases cannot spread views', async () => {
    const before = await count();
    definitionCalls = 0;
    for (let i = 0; i < 5; i++) {
      const res = await create(cy, ticketsView(unique('Junk'), { alias: `junk-${i}` }));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        type: 'urn:wsc:bff:unknown_definition',
        errors: [{ field: 'alias' }],
      });
    }
    // Another record type with a known alias is another definition: refused too.
    const wrongType = await create(
      cy,
      ticketsView(unique('Type'), { recordType: 'tasks', alias: 'caps' }),
    );
    expect(wrongType.status).toBe(422);
    expect(definitionCalls).toBe(6);
    // Not even a syntactically valid alias: 400 before anything is asked upstream.
    for (const alias of ['a/b', 'a b', 'a?b', 'a#b', 'x'.repeat(201)]) {
      const res = await create(cy, ticketsView(unique('Syntax'), { alias }));
      expect(res.status, alias).toBe(400);
      expect(await res.json()).toMatchObject({ errors: [{ field: 'alias' }] });
    }
    expect(definitionCalls).toBe(6);
    expect(await count()).toBe(before);
  });

  it('binds 100 views per definition and 500 in all; concurrent creates cannot pass either', async () => {
    await seed('caps', 99);
    expect((await create(cy, ticketsView(unique('100th'), { alias: 'caps' }))).status).toBe(201);
    const over = await create(cy, ticketsView(unique('101st'), { alias: 'caps' }));
    expect(over.status).toBe(422);
    expect(await over.json()).toMatchObject({ type: 'urn:wsc:bff:too_many_views' });
    expect(await count('caps')).toBe(100);

    // 380 more across other definitions: 480 in all. 30 concurrent creates: exactly 20 fit.
    for (let n = 1; n <= 4; n++) await seed(`support-tickets-${90 + n}`, 95);
    expect(await count()).toBe(480);
    const racing = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        create(cy, ticketsView(`Race ${i}`, { alias: 'caps-other' })),
      ),
    );
    const statuses = racing.map((r) => r.status);
    expect(statuses.filter((st) => st === 201)).toHaveLength(20);
    expect(statuses.filter((st) => st === 422)).toHaveLength(10);
    expect(await count()).toBe(500);
    const last = await (
      await create(cy, ticketsView(unique('501st'), { alias: 'caps-other' }))
    ).json();
    expect(last).toMatchObject({ status: 422, detail: expect.stringContaining('500') });

    // The whole list is bounded too, even over rows stored before the caps existed.
    await seed('support-tickets-99', 25, 'legacy');
    const list = await h.api('/bff/views', { cookie: cy });
    expect(list.status).toBe(200);
    const body = await list.text();
    expect((JSON.parse(body) as { items: unknown[] }).items).toHaveLength(500);
    expect(Buffer.byteLength(body)).toBeLessThan(500 * 16 * 1024);
  });

  it('refuses NUL and unpaired surrogates in every text with 400 naming the field, never a 500', async () => {
    const view = (await (await create(ada, ticketsView(unique('Clean')))).json()) as SavedView;
    for (const bad of ['a\u0000b', '\ud800', 'x\udc00y', '\udbff']) {
      const createCases: [string, Record<string, unknown>][] = [
        ['name', { name: `n${bad}` }],
        ['alias', { alias: `support${bad}` }],
        ['filter', { filter: `Title=='${bad}'` }],
        ['sort', { sort: `Title${bad}` }],
        ['columns.1', { columns: ['Title', `c${bad}`] }],
      ];
      for (const [field, patch] of createCases) {
        // JSON.stringify writes NUL and lone surrogates as \u escapes, as a client would.
        const raw = JSON.stringify({ ...ticketsView(unique('Bad')), ...patch });
        const res = await h.api('/bff/views', {
          method: 'POST',
          cookie: ada,
          headers: { 'content-type': 'application/json' },
          body: raw,
        });
        expect(res.status, `${field} ${bad}`).toBe(400);
        const problem = (await res.json()) as { errors: { field: string }[] };
        expect(
          problem.errors.map((e) => e.field),
          `${field} ${bad}`,
        ).toContain(field);
      }
      for (const [field, patch] of createCases.filter(([f]) => f !== 'alias')) {
        const raw = JSON.stringify(patch);
        const res = await h.api(`/bff/views/${view.id}`, {
          method: 'PUT',
          cookie: ada,
          headers: { 'content-type': 'application/json' },
          body: raw,
        });
        expect(res.status, `PUT ${field} ${bad}`).toBe(400);
        const problem = (await res.json()) as { errors: { field: string }[] };
        expect(problem.errors.map((e) => e.field)).toContain(field);
      }
    }
    const list = await h.api(`/bff/views?recordType=apps&alias=support\u0000x`, { cookie: ada });
    expect(list.status).toBe(400);
    expect(h.logs.filter((line) => line.includes('unhandled error'))).toEqual([]);
  });

  it('keeps one view within 16 KiB even when built up by partial updates, and bodies within 16 KiB', async () => {
    const view = (await (await create(ada, ticketsView(unique('Grows')))).json()) as SavedView;
    // 90-character column names: 140 fit one body, 200 do not.
    const columns = Array.from({ length: 200 }, (_, i) => `Column number ${i} `.padEnd(90, 'x'));
    const put = (body: unknown) =>
      h.api(`/bff/views/${view.id}`, {
        method: 'PUT',
        cookie: ada,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ columns: columns.slice(0, 140) })).status).toBe(200);
    const grown = await put({ filter: `Title=='${'f'.repeat(4000)}'` });
    expect(grown.status).toBe(422);
    expect(await grown.json()).toMatchObject({ type: 'urn:wsc:bff:view_too_large' });
    // A body over 16 KiB: 413, declared or streamed without a length.
    expect((await put({ columns })).status).toBe(413);
    const streamed = await h.app.request(`/bff/views/${view.id}`, {
      method: 'PUT',
      headers: {
        'x-csrf': '1',
        cookie: `__Host-wsc_session=${ada}`,
        'content-type': 'application/json',
      },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify({ columns })));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});
