import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { BffClient } from './bff-client.ts';
import type { Definition } from './schemas/records.ts';
import type { RecordedRequest, TestServer } from './testing/http-server.ts';
import { createBffClient } from './bff-client.ts';
import { isApiError } from './errors.ts';
import { capabilitiesFor } from './schemas/bff.ts';
import { sendJson, startTestServer } from './testing/http-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const client = (): BffClient => createBffClient({ baseUrl: server.origin });

function only(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0] as RecordedRequest;
}

const VIEW = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-000000000001',
  name: 'Open',
  recordType: 'apps',
  alias: 'support desk',
  filter: 'Status==Open',
  sort: '-Created At',
  columns: ['Title'],
  isDefault: false,
  createdAt: '2025-03-01T09:00:00.000Z',
  updatedAt: '2025-03-01T09:00:00.000Z',
};
const USER = { clientId: 'cid', role: 'ADMIN', identity: 'api', email: 'a@x.io' };
const SESSION = {
  user: USER,
  region: 'default',
  expiresAt: '2025-03-01T17:00:00.000Z',
  capabilities: capabilitiesFor('extended'),
};
const DEFINITION: Definition = {
  recordType: 'apps',
  alias: 'support',
  name: 'Support',
  handle: 'SUP',
  fields: [{ name: 'Title', type: 'TEXT', required: true }],
};
const ENTRY = { definition: DEFINITION, source: 'store', updatedAt: '2025-03-01T09:00:00.000Z' };

interface Case {
  name: string;
  call: (bff: BffClient) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  reply: { status: number; json?: unknown };
  result: unknown;
}

// One row per `/bff` route: what goes on the wire and what comes back.
const cases: Case[] = [
  {
    name: 'config',
    call: (bff) => bff.config(),
    method: 'GET',
    path: '/bff/config',
    reply: { status: 200, json: { regions: [{ id: 'default', label: 'Default' }] } },
    result: { regions: [{ id: 'default', label: 'Default' }] },
  },
  {
    name: 'session',
    call: (bff) => bff.session(),
    method: 'GET',
    path: '/bff/session',
    reply: { status: 200, json: SESSION },
    result: SESSION,
  },
  {
    name: 'login',
    call: (bff) => bff.login({ clientId: 'cid', clientSecret: 's', region: 'default' }),
    method: 'POST',
    path: '/bff/login',
    json: { clientId: 'cid', clientSecret: 's', region: 'default' },
    // Sign-in answers the whole session, so the console needs no `GET /bff/session` after it.
    reply: { status: 200, json: SESSION },
    result: SESSION,
  },
  {
    name: 'logout',
    call: (bff) => bff.logout(),
    method: 'POST',
    path: '/bff/logout',
    reply: { status: 204 },
    result: undefined,
  },
  {
    name: 'definitions',
    call: (bff) => bff.definitions(),
    method: 'GET',
    path: '/bff/definitions',
    reply: { status: 200, json: { items: [DEFINITION] } },
    result: { items: [DEFINITION] },
  },
  {
    name: 'savedViews.list (all)',
    call: (bff) => bff.savedViews.list(),
    method: 'GET',
    path: '/bff/views',
    reply: { status: 200, json: { items: [VIEW] } },
    result: { items: [VIEW] },
  },
  {
    name: 'savedViews.list (one definition)',
    call: (bff) => bff.savedViews.list({ recordType: 'apps', alias: 'support desk' }),
    method: 'GET',
    path: '/bff/views',
    query: { recordType: 'apps', alias: 'support desk' },
    reply: { status: 200, json: { items: [] } },
    result: { items: [] },
  },
  {
    name: 'savedViews.get',
    call: (bff) => bff.savedViews.get(VIEW.id),
    method: 'GET',
    path: `/bff/views/${VIEW.id}`,
    reply: { status: 200, json: VIEW },
    result: VIEW,
  },
  {
    name: 'savedViews.create',
    call: (bff) =>
      bff.savedViews.create({ name: 'Open', recordType: 'apps', alias: 'support desk' }),
    method: 'POST',
    path: '/bff/views',
    json: { name: 'Open', recordType: 'apps', alias: 'support desk' },
    reply: { status: 201, json: VIEW },
    result: VIEW,
  },
  {
    name: 'savedViews.update',
    call: (bff) => bff.savedViews.update('a/b', { filter: '' }),
    method: 'PUT',
    path: '/bff/views/a%2Fb',
    json: { filter: '' },
    reply: { status: 200, json: VIEW },
    result: VIEW,
  },
  {
    name: 'savedViews.delete',
    call: (bff) => bff.savedViews.delete(VIEW.id),
    method: 'DELETE',
    path: `/bff/views/${VIEW.id}`,
    reply: { status: 204 },
    result: undefined,
  },
  {
    name: 'savedViews.setDefault (on)',
    call: (bff) => bff.savedViews.setDefault(VIEW.id, true),
    method: 'PUT',
    path: `/bff/views/${VIEW.id}/default`,
    reply: { status: 200, json: { ...VIEW, isDefault: true } },
    result: { ...VIEW, isDefault: true },
  },
  {
    name: 'savedViews.setDefault (off)',
    call: (bff) => bff.savedViews.setDefault(VIEW.id, false),
    method: 'DELETE',
    path: `/bff/views/${VIEW.id}/default`,
    reply: { status: 200, json: VIEW },
    result: VIEW,
  },
  {
    name: 'savedViews.shared',
    call: (bff) => bff.savedViews.shared({ recordType: 'apps', alias: 'support desk' }),
    method: 'GET',
    path: '/bff/views/shared',
    query: { recordType: 'apps', alias: 'support desk' },
    reply: {
      status: 200,
      json: { items: [{ ...VIEW, sharedBy: 'Ada' }], groupSharing: { available: true } },
    },
    result: { items: [{ ...VIEW, sharedBy: 'Ada' }], groupSharing: { available: true } },
  },
  {
    name: 'savedViews.share',
    call: (bff) => bff.savedViews.share(VIEW.id, { everyone: true, groups: [] }),
    method: 'PUT',
    path: `/bff/views/${VIEW.id}/shares`,
    json: { everyone: true, groups: [] },
    reply: { status: 200, json: { ...VIEW, shares: { everyone: true, groups: [] } } },
    result: { ...VIEW, shares: { everyone: true, groups: [] } },
  },
  {
    name: 'savedViews.unshare',
    call: (bff) => bff.savedViews.unshare(VIEW.id),
    method: 'DELETE',
    path: `/bff/views/${VIEW.id}/shares`,
    reply: { status: 200, json: { ...VIEW, shares: { everyone: false, groups: [] } } },
    result: { ...VIEW, shares: { everyone: false, groups: [] } },
  },
  {
    name: 'workspace.get',
    call: (bff) => bff.workspace.get(),
    method: 'GET',
    path: '/bff/workspace',
    reply: { status: 200, json: { editable: true, items: [ENTRY] } },
    result: { editable: true, items: [{ source: 'store' }] },
  },
  {
    name: 'workspace.sample',
    call: (bff) => bff.workspace.sample({ recordType: 'apps', alias: 'support' }),
    method: 'POST',
    path: '/bff/workspace/sample',
    json: { recordType: 'apps', alias: 'support' },
    reply: { status: 200, json: { definition: DEFINITION, sampled: 3, notes: [] } },
    result: { sampled: 3, notes: [] },
  },
  {
    name: 'workspace.saveDefinition',
    call: (bff) => bff.workspace.saveDefinition({ ...DEFINITION, alias: 'support desk' }),
    method: 'PUT',
    path: `/bff/workspace/definitions/${DEFINITION.recordType}/support%20desk`,
    json: { ...DEFINITION, alias: 'support desk' },
    reply: { status: 200, json: ENTRY },
    result: { source: 'store' },
  },
  {
    name: 'workspace.removeDefinition',
    call: (bff) => bff.workspace.removeDefinition('apps', 'support desk'),
    method: 'DELETE',
    path: '/bff/workspace/definitions/apps/support%20desk',
    reply: { status: 204 },
    result: undefined,
  },
];

describe('createBffClient: every route', () => {
  it.each(cases)('$name', async (c) => {
    server.handle((_req, res) => {
      if (c.reply.json !== undefined) return sendJson(res, c.reply.status, c.reply.json);
      res.writeHead(c.reply.status).end();
    });
    const result = await c.call(client());
    if (typeof c.result === 'object' && c.result !== null) expect(result).toMatchObject(c.result);
    else expect(result).toEqual(c.result);

    const req = only();
    const [sentPath, sentQuery = ''] = req.url.split('?');
    expect(req.method).toBe(c.method);
    expect(sentPath).toBe(c.path);
    expect(Object.fromEntries(new URLSearchParams(sentQuery))).toEqual(c.query ?? {});
    // The BFF refuses state-changing requests without it; the browser sends no token.
    expect(req.headers['x-csrf']).toBe('1');
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    if (c.json === undefined) expect(req.body.byteLength).toBe(0);
    else {
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(c.json);
    }
  });
});

describe('createBffClient: failures', () => {
  it('throws the problem as ApiError, field errors and Retry-After included', async () => {
    server.handle((_req, res) =>
      sendJson(
        res,
        409,
        {
          type: 'urn:wsc:bff:conflict',
          title: 'Conflict',
          status: 409,
          detail: 'You already have a view named "Open" for this record type',
          errors: [{ field: 'name', message: 'A view with this name already exists' }],
        },
        { 'retry-after': '7' },
      ),
    );
    const error = await client()
      .savedViews.create({ name: 'Open', recordType: 'apps', alias: 'a' })
      .catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({
      status: 409,
      detail: 'You already have a view named "Open" for this record type',
      errors: [{ field: 'name', message: 'A view with this name already exists' }],
      retryAfter: 7,
    });
  });

  it('refuses a reply that does not match the shared schema', async () => {
    server.handle((_req, res) => sendJson(res, 200, { items: [{ ...VIEW, recordType: 'cars' }] }));
    await expect(client().savedViews.list()).rejects.toMatchObject({
      status: 200,
      code: 'invalid_response',
    });
  });

  it('does not retry: a 503 is thrown at once', async () => {
    server.handle((_req, res) => sendJson(res, 503, { title: 'Service Unavailable', status: 503 }));
    await expect(client().session()).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('names a request that got no answer a network error', async () => {
    const bff = createBffClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(bff.session()).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});
