// The Workspace setup routes over HTTP: hosted only (409 in extended), session and CSRF rules,
// who may edit, saving and removing definitions with their checks, and sampling records of a
// record type through the published API.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';
import { SampleResultSchema, WorkspaceEntrySchema, WorkspaceSchema } from '@wsc/api-client';

import type { FakeUpstream, RouteHandler } from '../../../test/fake-upstream.ts';
import type { Harness } from '../../../test/harness.ts';
import type { BffConfig } from '../../lib/config.ts';
import { CLIENT_ID, startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { regionFor } from '../../lib/config.ts';
import { NOT_ADMIN_REASON } from './workspace.index.ts';

const FROM_FILE: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
  ],
};

let upstream: FakeUpstream;
const harnesses: Harness[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream({ mode: 'hosted' });
});
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await upstream.close();
});
beforeEach(() => {
  upstream.reset();
});

async function bff(config: Partial<BffConfig> = {}) {
  const h = await createHarness({
    upstream,
    config: {
      regions: [
        regionFor('default', upstream.apiUrl, { profile: 'hosted', workspace: [FROM_FILE] }),
      ],
      ...config,
    },
  });
  harnesses.push(h);
  return h;
}

let seq = 0;
/** Unique per run: the store is shared by every test file of a worker (and by workers on PG). */
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${++seq}`;

function definition(alias: string, extra: Partial<Definition> = {}): Definition {
  return {
    recordType: 'tasks',
    alias,
    name: 'Follow-ups',
    handle: 'FUP',
    handleField: 'Key',
    titleField: 'Title',
    fields: [
      { name: 'Key', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Title', type: 'TEXT', required: true },
      { name: 'Status', type: 'PICKLIST', required: false, values: ['Open', 'Done'] },
    ],
    ...extra,
  };
}

const put = (h: Harness, cookie: string, path: string, body: unknown) =>
  h.api(`/bff/workspace/definitions/${path}`, {
    method: 'PUT',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

describe('the setup routes need the hosted profile, a session and CSRF', () => {
  it('answers 409 in the extended profile: definitions come from the workspace API', async () => {
    // Its own fake upstream in the extended mode (auto detects extended).
    const h = await createHarness();
    harnesses.push(h);
    const { cookie } = await h.login();
    // The sign-in's own reads (`/v1/me`, the definitions it answers with) are not the routes'.
    const before = h.upstream.apiRequests().length;
    const calls = [
      h.api('/bff/workspace', { cookie }),
      h.api('/bff/workspace/sample', {
        method: 'POST',
        cookie,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ recordType: 'apps', alias: 'x' }),
      }),
      put(h, cookie, 'tasks/x', definition('x')),
      h.api('/bff/workspace/definitions/tasks/x', { method: 'DELETE', cookie }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(await json(res)).toMatchObject({ detail: expect.stringMatching(/workspace API/) });
    }
    expect(h.upstream.apiRequests().slice(before)).toEqual([]);
  });

  it('answers 401 without a session and 403 without X-CSRF or from another site, storing nothing', async () => {
    const h = await bff();
    expect((await h.api('/bff/workspace')).status).toBe(401);
    const { cookie } = await h.login();
    const alias = unique('csrf');
    const refusals: { csrf: boolean; headers: Record<string, string> }[] = [
      { csrf: false, headers: {} },
      { csrf: true, headers: { origin: 'https://evil.example' } },
      { csrf: true, headers: { 'sec-fetch-site': 'cross-site' } },
    ];
    for (const { csrf, headers } of refusals) {
      const withJson = { 'content-type': 'application/json', ...headers };
      const saved = await h.api(`/bff/workspace/definitions/tasks/${alias}`, {
        method: 'PUT',
        cookie,
        csrf,
        headers: withJson,
        body: JSON.stringify(definition(alias)),
      });
      expect(saved.status).toBe(403);
      const sampled = await h.api('/bff/workspace/sample', {
        method: 'POST',
        cookie,
        csrf,
        headers: withJson,
        body: JSON.stringify({ recordType: 'apps', alias }),
      });
      expect(sampled.status).toBe(403);
      const removed = await h.api(`/bff/workspace/definitions/tasks/${alias}`, {
        method: 'DELETE',
        cookie,
        csrf,
        headers,
      });
      expect(removed.status).toBe(403);
    }
    const workspace = WorkspaceSchema.parse(await json(await h.api('/bff/workspace', { cookie })));
    expect(workspace.items.map((i) => i.definition.alias)).not.toContain(alias);
    expect(upstream.apiRequests()).toHaveLength(0);
  });
});

describe('GET /bff/workspace and who may edit', () => {
  it('lists the file definitions and the stored ones, each with its source', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    const alias = unique('listed');
    expect((await put(h, cookie, `tasks/${alias}`, definition(alias))).status).toBe(200);
    const res = await h.api('/bff/workspace', { cookie });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = WorkspaceSchema.parse(await json(res));
    expect(body.editable).toBe(true);
    expect(body.reason).toBeUndefined();
    expect(body.items[0]).toEqual({ definition: FROM_FILE, source: 'file' });
    expect(body.items.find((i) => i.definition.alias === alias)).toEqual({
      definition: definition(alias),
      source: 'store',
      updatedAt: new Date(h.clock.now()).toISOString(),
      updatedBy: CLIENT_ID,
    });
  });

  it('lets only ADMIN identities of the identities file edit when there is one', async () => {
    const identities = (role: 'ADMIN' | 'MEMBER') => ({
      identities: [{ clientId: CLIENT_ID, email: 'ada@example.com', role }],
    });
    const admin = await bff(identities('ADMIN'));
    const { cookie } = await admin.login();
    expect(await json(await admin.api('/bff/workspace', { cookie }))).toMatchObject({
      editable: true,
    });
    const alias = unique('by-admin');
    const saved = WorkspaceEntrySchema.parse(
      await json(await put(admin, cookie, `tasks/${alias}`, definition(alias))),
    );
    expect(saved.updatedBy).toBe('ada@example.com');

    const member = await bff(identities('MEMBER'));
    const asMember = await member.login();
    const body = WorkspaceSchema.parse(
      await json(await member.api('/bff/workspace', { cookie: asMember.cookie })),
    );
    expect(body).toMatchObject({ editable: false, reason: NOT_ADMIN_REASON });
    const refused = await put(member, asMember.cookie, `tasks/${alias}`, definition(alias));
    expect(refused.status).toBe(403);
    const removed = await member.api(`/bff/workspace/definitions/tasks/${alias}`, {
      method: 'DELETE',
      cookie: asMember.cookie,
    });
    expect(removed.status).toBe(403);

    // A typed email is never an ADMIN, whatever it says.
    const other = await bff({
      identities: [{ clientId: 'someone-else', email: 'ada@example.com', role: 'ADMIN' }],
    });
    const self = await other.login({ email: 'ada@example.com' });
    expect(await json(await other.api('/bff/workspace', { cookie: self.cookie }))).toMatchObject({
      editable: false,
    });
  });
});

describe('PUT and DELETE /bff/workspace/definitions/{recordType}/{alias}', () => {
  it('saves, replaces and removes a definition', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    const alias = unique('crud');
    const first = await put(h, cookie, `tasks/${alias}`, definition(alias));
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    h.clock.advance(60_000);
    const renamed = await put(h, cookie, `tasks/${alias}`, definition(alias, { name: 'Renamed' }));
    const entry = WorkspaceEntrySchema.parse(await json(renamed));
    expect(entry).toMatchObject({
      source: 'store',
      definition: { name: 'Renamed' },
      updatedAt: new Date(h.clock.now()).toISOString(),
    });
    const items = WorkspaceSchema.parse(
      await json(await h.api('/bff/workspace', { cookie })),
    ).items;
    expect(items.filter((i) => i.definition.alias === alias)).toHaveLength(1);

    const path = `/bff/workspace/definitions/tasks/${alias}`;
    expect((await h.api(path, { method: 'DELETE', cookie })).status).toBe(204);
    expect((await h.api(path, { method: 'DELETE', cookie })).status).toBe(404);
    const after = await json<{ items: Definition[] }>(await h.api('/bff/definitions', { cookie }));
    expect(after.items.map((d) => d.alias)).not.toContain(alias);
  });

  it('refuses to save over or remove a file definition (409)', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    const saved = await put(h, cookie, 'apps/support-tickets', { ...FROM_FILE, name: 'Mine' });
    expect(saved.status).toBe(409);
    const removed = await h.api('/bff/workspace/definitions/apps/support-tickets', {
      method: 'DELETE',
      cookie,
    });
    expect(removed.status).toBe(409);
  });

  it('names the field of every problem: 400 for the shape, 422 for the rules', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    const alias = unique('bad');
    const cases: [string, unknown, number, string[]][] = [
      [`tasks/${alias}`, '{not json', 400, []],
      [`tasks/${alias}`, [], 400, ['(body)']],
      [
        `tasks/${alias}`,
        definition(alias, { fields: [{ name: 'X', type: 'FOO' as 'TEXT', required: false }] }),
        400,
        ['fields.0.type'],
      ],
      [`rockets/${alias}`, definition(alias), 400, ['recordType']],
      [`tasks/${alias}`, definition('other'), 422, ['alias']],
      [`apps/${alias}`, definition(alias), 422, ['recordType']],
      [
        `tasks/${alias}`,
        definition(alias, { handleField: 'Nope', titleField: 'Nada' }),
        422,
        ['handleField', 'titleField'],
      ],
      [
        `tasks/${alias}`,
        definition(alias, {
          handleField: undefined,
          titleField: undefined,
          fields: [
            { name: 'A', type: 'TEXT', required: false },
            { name: 'A', type: 'TEXT', required: false },
            { name: 'P', type: 'PICKLIST', required: false },
            { name: 'Q', type: 'PICKLIST', required: false, values: ['x', 'x', ''] },
          ],
        }),
        422,
        ['fields.1.name', 'fields.2.values', 'fields.3.values.1', 'fields.3.values.2'],
      ],
      [`tasks/${alias}`, definition(alias, { name: 'nul\u0000name' }), 422, ['name']],
    ];
    for (const [path, body, status, fields] of cases) {
      const res = await put(h, cookie, path, body);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = await json<{ errors?: { field: string }[] }>(res);
      expect((problem.errors ?? []).map((e) => e.field)).toEqual(fields);
    }
    const big = definition(alias, { name: 'x'.repeat(1024 * 1024) });
    expect((await put(h, cookie, `tasks/${alias}`, big)).status).toBe(413);
    const items = WorkspaceSchema.parse(
      await json(await h.api('/bff/workspace', { cookie })),
    ).items;
    expect(items.map((i) => i.definition.alias)).not.toContain(alias);
  });

  it('keeps at most maxStoredDefinitions per region (422), replacing one still works', async () => {
    const probe = await bff();
    const { cookie: probeCookie } = await probe.login();
    const stored = WorkspaceSchema.parse(
      await json(await probe.api('/bff/workspace', { cookie: probeCookie })),
    ).items.filter((i) => i.source === 'store').length;
    const h = await bff({ maxStoredDefinitions: stored + 1 });
    const { cookie } = await h.login();
    const alias = unique('last');
    expect((await put(h, cookie, `tasks/${alias}`, definition(alias))).status).toBe(200);
    const over = unique('over');
    const refused = await put(h, cookie, `tasks/${over}`, definition(over));
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ type: 'urn:wsc:bff:too_many_definitions' });
    expect((await put(h, cookie, `tasks/${alias}`, definition(alias))).status).toBe(200);
    await h.api(`/bff/workspace/definitions/tasks/${alias}`, { method: 'DELETE', cookie });
  });
});

/** `GET /v1/{rt}/{alias}` and `GET /v1/elements/{alias}` as the published API answers them. */
function sampleRoute(
  handler: (url: URL) => { status: number; body?: unknown; text?: string },
): RouteHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const { status, body, text } = handler(new URL(req.url ?? '/', 'http://upstream'));
    const payload = text ?? JSON.stringify(body ?? {});
    res.writeHead(status, {
      'content-type': text === undefined ? 'application/json' : 'text/plain',
    });
    res.end(payload);
  };
}

describe('POST /bff/workspace/sample', () => {
  const sample = (h: Harness, cookie: string, body: unknown) =>
    h.api('/bff/workspace/sample', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const records = Array.from({ length: 12 }, (_, i) => ({
    cursor: `c${i}`,
    data: {
      'Ticket ID': `SUP-${i + 1}`,
      Title: `Problem number ${i + 1}`,
      Status: i % 2 === 0 ? 'Open' : 'Closed',
      Assignee: i % 2 === 0 ? 'ada@example.com' : 'bob@example.com',
    },
  }));

  it('reads one page of 100 records with the session token and proposes a definition', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    upstream.route = sampleRoute((url) =>
      url.pathname === '/v1/apps/support-desk'
        ? { status: 200, body: { items: records, total: 12 } }
        : { status: 404, body: {} },
    );
    const res = await sample(h, cookie, { recordType: 'apps', alias: 'support-desk' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const result = SampleResultSchema.parse(await json(res));
    expect(result).toMatchObject({
      sampled: 12,
      total: 12,
      definition: {
        recordType: 'apps',
        alias: 'support-desk',
        name: 'Support Desk',
        handle: 'SUP',
        handleField: 'Ticket ID',
        titleField: 'Title',
      },
    });
    expect(result.definition.fields.map((f) => [f.name, f.type])).toEqual([
      ['Ticket ID', 'HANDLE'],
      ['Title', 'TEXT'],
      ['Status', 'PICKLIST'],
      ['Assignee', 'USER_ID'],
    ]);
    const [call] = upstream.apiRequests();
    // Inside the published contract: paging only, no sort.
    expect(call?.url).toBe('/v1/apps/support-desk?first=100');
    expect(call?.headers.authorization).toMatch(/^Bearer tok-/);
  });

  it('uses getElement for elements (name, handle) and proposes no fields', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    upstream.route = sampleRoute((url) =>
      url.pathname === '/v1/elements/customers'
        ? { status: 200, body: { id: 'e1', name: 'Customers', handle: 'CUS' } }
        : { status: 404, body: {} },
    );
    const result = SampleResultSchema.parse(
      await json(await sample(h, cookie, { recordType: 'elements', alias: 'customers' })),
    );
    expect(result.definition).toEqual({
      recordType: 'elements',
      alias: 'customers',
      name: 'Customers',
      handle: 'CUS',
      listable: false,
      fields: [],
    });
    expect(result.notes.join(' ')).toMatch(/add the fields by hand/);
    expect(upstream.apiRequests().map((r) => r.url)).toEqual(['/v1/elements/customers']);
  });

  it('answers an empty alias with no fields and a note', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    upstream.route = sampleRoute(() => ({ status: 200, body: { items: [] } }));
    const result = SampleResultSchema.parse(
      await json(await sample(h, cookie, { recordType: 'tasks', alias: 'nothing-yet' })),
    );
    expect(result.definition.fields).toEqual([]);
    expect(result.notes[0]).toMatch(/no tasks\/nothing-yet records/);
  });

  it('explains 403, 404, 400 and 422 from the service', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    const cases: [number, unknown, number, string][] = [
      [403, { message: 'denied' }, 403, 'Your credential may not read apps/secret-app'],
      [404, { message: 'nope' }, 404, 'No apps with alias secret-app'],
      [
        400,
        { message: 'first must be at most 50' },
        400,
        'The service refused to list apps/secret-app: first must be at most 50',
      ],
      [422, { message: 'alias is archived' }, 422, 'alias is archived'],
    ];
    for (const [upstreamStatus, body, status, detail] of cases) {
      upstream.route = sampleRoute(() => ({ status: upstreamStatus, body }));
      const res = await sample(h, cookie, { recordType: 'apps', alias: 'secret-app' });
      expect(res.status, String(upstreamStatus)).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect((await json<{ detail: string }>(res)).detail).toContain(detail);
    }
  });

  it('refreshes the token once after a 401, and refuses a bad body with 400', async () => {
    const h = await bff();
    const { cookie } = await h.login();
    upstream.route = sampleRoute(() => ({ status: 200, body: { items: records } }));
    upstream.revokeTokens();
    const calls = upstream.tokenCalls;
    expect((await sample(h, cookie, { recordType: 'apps', alias: 'support-desk' })).status).toBe(
      200,
    );
    expect(upstream.tokenCalls).toBe(calls + 1);

    const bad = await sample(h, cookie, { recordType: 'rockets', alias: 'a/b' });
    expect(bad.status).toBe(400);
    expect(
      (await json<{ errors: { field: string }[] }>(bad)).errors.map((e) => e.field).sort(),
    ).toEqual(['alias', 'recordType']);
  });
});
