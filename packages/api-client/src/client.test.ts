import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { ApiClient } from './client.ts';
import type { RecordedRequest, TestServer } from './testing/http-server.ts';
import { createApiClient } from './client.ts';
import { path, queryString } from './client/transport.ts';
import { ApiError, isApiError } from './errors.ts';
import * as f from './testing/fixtures.ts';
import { sendJson, startTestServer } from './testing/http-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function client(overrides: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  return createApiClient({ baseUrl: `${server.origin}/v1`, retry: false, ...overrides });
}

function only(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  return server.requests[0] as RecordedRequest;
}

interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

interface Case {
  name: string;
  /** The client's profile (default extended). */
  profile?: 'extended' | 'hosted';
  call: (api: ApiClient) => Promise<unknown>;
  method: string;
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  reply: Reply;
  result?: unknown;
}

const SUP = '/v1/apps/support/SUP-42';

// One row per API operation of DESIGN.md section 1: what goes on the wire and what comes back.
const cases: Case[] = [
  {
    name: 'searchRecords',
    call: (api) =>
      api.searchRecords('apps', 'support desk', {
        filter: "Status==Open;Title=lk='a&b'",
        sort: '-Created At,Title',
        first: 50,
        after: 'abc',
      }),
    method: 'GET',
    path: '/v1/apps/support%20desk',
    query: {
      filter: "Status==Open;Title=lk='a&b'",
      sort: '-Created At,Title',
      first: '50',
      after: 'abc',
    },
    reply: { status: 200, json: f.paged([{ cursor: 'c0', data: f.record }]) },
    result: f.paged([{ cursor: 'c0', data: f.record }]),
  },
  {
    name: 'searchRecords (hosted: filter in the published dialect)',
    profile: 'hosted',
    call: (api) =>
      api.searchRecords('apps', 'support', {
        filter: "(Status==New,Status==Open);Severity=out=(Low,Medium);Title=lk='a b'",
        first: 50,
      }),
    method: 'GET',
    path: '/v1/apps/support',
    query: {
      filter:
        "Status==New;Severity!in=Low:Medium;Title=lk='a b',Status==Open;Severity!in=Low:Medium;Title=lk='a b'",
      first: '50',
    },
    reply: { status: 200, json: { items: [{ data: { Title: 'No cursor, no id' } }] } },
    result: {
      paging: {
        has_previous_page: false,
        start_cursor: null,
        end_cursor: null,
        has_next_page: false,
      },
      items: [{ data: { Title: 'No cursor, no id' } }],
    },
  },
  {
    name: 'getRecord',
    call: (api) => api.getRecord('apps', 'support', 'SUP-42'),
    method: 'GET',
    path: SUP,
    reply: { status: 200, json: f.record, headers: { ETag: '"v7"' } },
    result: { record: f.record, etag: '"v7"' },
  },
  {
    name: 'createRecord',
    call: (api) => api.createRecord('tasks', 'support', { Title: 'New' }),
    method: 'POST',
    path: '/v1/tasks/support',
    json: { Title: 'New' },
    reply: { status: 201, json: f.record },
    result: f.record,
  },
  {
    name: 'createRecord (a 201 with no body is still a success)',
    profile: 'hosted',
    call: (api) => api.createRecord('apps', 'support', { Title: 'New' }),
    method: 'POST',
    path: '/v1/apps/support',
    json: { Title: 'New' },
    reply: { status: 201 },
    result: {},
  },
  {
    name: 'getElement',
    profile: 'hosted',
    call: (api) => api.getElement('customers'),
    method: 'GET',
    path: '/v1/elements/customers',
    reply: { status: 200, json: { name: 'Customers', handle: 'CUS', namespace: 'customers' } },
    result: { name: 'Customers', handle: 'CUS', namespace: 'customers' },
  },
  {
    name: 'updateRecord',
    call: (api) =>
      api.updateRecord('apps', 'support', 'SUP-42', { Title: 'X' }, { ifMatch: '"v7"' }),
    method: 'PUT',
    path: SUP,
    json: { Title: 'X' },
    headers: { 'if-match': '"v7"' },
    reply: { status: 200, json: f.record, headers: { ETag: '"v8"' } },
    result: { record: f.record, etag: '"v8"' },
  },
  {
    name: 'listRelated',
    call: (api) => api.listRelated('apps', 'support', 'SUP-42', { first: 10 }),
    method: 'GET',
    path: `${SUP}/related-items`,
    query: { first: '10' },
    reply: { status: 200, json: f.paged([f.related]) },
    result: f.paged([f.related]),
  },
  {
    name: 'listRelated (hosted: no paging parameters)',
    profile: 'hosted',
    call: (api) => api.listRelated('apps', 'support', 'SUP-42', { first: 10 }),
    method: 'GET',
    path: `${SUP}/related-items`,
    reply: { status: 200, json: { items: [{ id: 'TSK-4', type: 'task' }] } },
    result: { items: [{ id: 'TSK-4', type: 'TASK' }] },
  },
  {
    name: 'addRelated',
    call: (api) => api.addRelated('apps', 'support', 'SUP-42', { id: 'TSK-4', alias: 'tasks' }),
    method: 'POST',
    path: `${SUP}/related-items`,
    json: { id: 'TSK-4', alias: 'tasks' },
    reply: { status: 201 },
    result: undefined,
  },
  {
    name: 'removeRelated',
    call: (api) => api.removeRelated('apps', 'support', 'SUP-42', 'TSK/4'),
    method: 'DELETE',
    path: `${SUP}/related-items/TSK%2F4`,
    reply: { status: 200 },
    result: undefined,
  },
  {
    name: 'listAttachments',
    call: (api) => api.listAttachments('apps', 'support', 'SUP-42'),
    method: 'GET',
    path: `${SUP}/attachments`,
    reply: { status: 200, json: [f.attachment] },
    result: [f.attachment],
  },
  {
    name: 'getAttachment',
    call: (api) => api.getAttachment('apps', 'support', 'SUP-42', 'att-1'),
    method: 'GET',
    path: `${SUP}/attachments/att-1`,
    reply: { status: 200, json: f.attachment },
    result: f.attachment,
  },
  {
    name: 'addUrlLink',
    call: (api) =>
      api.addUrlLink('apps', 'support', 'SUP-42', {
        url: 'https://example.com/a',
        description: 'doc',
      }),
    method: 'POST',
    path: `${SUP}/attachments/url-links`,
    json: { url: 'https://example.com/a', description: 'doc' },
    reply: { status: 201, json: { url: 'https://example.com/a', description: 'doc' } },
    result: { url: 'https://example.com/a', description: 'doc' },
  },
  {
    name: 'removeAttachment',
    call: (api) => api.removeAttachment('apps', 'support', 'SUP-42', 'att-1'),
    method: 'DELETE',
    path: `${SUP}/attachments/att-1`,
    reply: { status: 200 },
    result: undefined,
  },
  {
    name: 'listWatchers',
    call: (api) => api.listWatchers('apps', 'support', 'SUP-42', { after: 'w1' }),
    method: 'GET',
    path: `${SUP}/watchers`,
    query: { after: 'w1' },
    reply: { status: 200, json: f.paged([f.watcher]) },
    result: f.paged([f.watcher]),
  },
  {
    name: 'addWatchers',
    call: (api) => api.addWatchers('apps', 'support', 'SUP-42', ['a@x.com', 'b@x.com']),
    method: 'POST',
    path: `${SUP}/watchers`,
    json: { users: ['a@x.com', 'b@x.com'] },
    reply: { status: 201 },
    result: undefined,
  },
  {
    name: 'removeWatchers (DELETE with a JSON body)',
    call: (api) => api.removeWatchers('apps', 'support', 'SUP-42', ['a@x.com']),
    method: 'DELETE',
    path: `${SUP}/watchers`,
    json: { users: ['a@x.com'] },
    reply: { status: 200 },
    result: undefined,
  },
  {
    name: 'listComments',
    call: (api) => api.listComments('apps', 'support', 'SUP-42', { last: 5, before: 'z' }),
    method: 'GET',
    path: `${SUP}/comment`,
    query: { last: '5', before: 'z' },
    reply: { status: 200, json: f.paged([f.comment]) },
    result: f.paged([f.parsedComment]),
  },
  {
    name: 'addComment (JSON)',
    call: (api) => api.addComment('apps', 'support', 'SUP-42', 'Looking into it'),
    method: 'POST',
    path: `${SUP}/comment`,
    json: { contents: 'Looking into it' },
    headers: { accept: 'application/json' },
    reply: { status: 201, json: f.comment },
    result: { id: f.comment.id, comment: f.parsedComment },
  },
  {
    name: 'addComment (hosted: text/plain)',
    profile: 'hosted',
    call: (api) => api.addComment('apps', 'support', 'SUP-42', 'Plain words, ünïcode'),
    method: 'POST',
    path: `${SUP}/comment`,
    text: 'Plain words, ünïcode',
    headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'text/plain' },
    reply: { status: 201, text: `${f.comment.id}\n`, headers: { 'Content-Type': 'text/plain' } },
    result: { id: f.comment.id },
  },
  {
    name: 'listUsers',
    call: (api) => api.listUsers({ filter: 'email=lki=*@example.com', first: 5 }),
    method: 'GET',
    path: '/v1/users',
    query: { filter: 'email=lki=*@example.com', first: '5' },
    reply: { status: 200, json: f.paged([f.user]) },
    result: f.paged([f.user]),
  },
  {
    // The people pickers search `status==ACTIVE;(email=lki=x,firstName=lki=x,lastName=lki=x)`.
    name: 'listUsers (hosted: filter in the published dialect)',
    profile: 'hosted',
    call: (api) =>
      api.listUsers({ filter: 'status==ACTIVE;(email=lki=ada,lastName=lki=ada)', first: 20 }),
    method: 'GET',
    path: '/v1/users',
    query: { filter: 'status==ACTIVE;email=lki=ada,status==ACTIVE;lastName=lki=ada', first: '20' },
    reply: { status: 200, json: f.paged([f.user]) },
    result: f.paged([f.user]),
  },
  {
    name: 'createUser',
    call: (api) =>
      api.createUser({ email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe' }),
    method: 'POST',
    path: '/v1/users',
    json: { email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe' },
    reply: { status: 201, json: f.user },
    result: f.user,
  },
  {
    name: 'getUser',
    call: (api) => api.getUser(f.USER_ID),
    method: 'GET',
    path: `/v1/users/${f.USER_ID}`,
    reply: { status: 200, json: f.user },
    result: f.user,
  },
  {
    name: 'deactivateUser',
    call: (api) => api.deactivateUser(f.USER_ID),
    method: 'POST',
    path: `/v1/users/${f.USER_ID}/deactivate`,
    reply: { status: 200, json: { ...f.user, status: 'INACTIVE' } },
    result: { ...f.user, status: 'INACTIVE' },
  },
  {
    name: 'listGroups',
    call: (api) => api.listGroups({ first: 2 }),
    method: 'GET',
    path: '/v1/groups',
    query: { first: '2' },
    reply: { status: 200, json: f.paged([f.group]) },
    result: f.paged([f.group]),
  },
  {
    name: 'getGroup',
    call: (api) => api.getGroup(f.GROUP_ID),
    method: 'GET',
    path: `/v1/groups/${f.GROUP_ID}`,
    reply: { status: 200, json: f.group },
    result: f.group,
  },
  {
    name: 'listGroupMembers',
    call: (api) => api.listGroupMembers(f.GROUP_ID),
    method: 'GET',
    path: `/v1/groups/${f.GROUP_ID}/users`,
    reply: { status: 200, json: f.paged([f.user]) },
    result: f.paged([f.user]),
  },
  {
    name: 'addGroupMembers',
    call: (api) => api.addGroupMembers(f.GROUP_ID, [f.USER_ID]),
    method: 'POST',
    path: `/v1/groups/${f.GROUP_ID}/users`,
    json: { userIds: [f.USER_ID] },
    reply: { status: 201 },
    result: undefined,
  },
  {
    name: 'removeGroupMembers',
    call: (api) => api.removeGroupMembers(f.GROUP_ID, [f.USER_ID]),
    method: 'DELETE',
    path: `/v1/groups/${f.GROUP_ID}/users`,
    json: { userIds: [f.USER_ID] },
    reply: { status: 200 },
    result: undefined,
  },
  {
    name: 'listDefinitions',
    call: (api) => api.listDefinitions(),
    method: 'GET',
    path: '/v1/definitions',
    reply: { status: 200, json: f.definitions },
    result: f.definitions,
  },
  {
    name: 'me',
    call: (api) => api.me(),
    method: 'GET',
    path: '/v1/me',
    reply: { status: 200, json: f.me },
    result: f.me,
  },
];

describe('every operation: request shape and parsed reply', () => {
  it.each(cases)('$name', async (c) => {
    server.handle((_req, res) => {
      if (c.reply.json !== undefined)
        return sendJson(res, c.reply.status, c.reply.json, c.reply.headers);
      res.writeHead(c.reply.status, c.reply.headers ?? {});
      res.end(c.reply.text ?? '');
    });
    const result = await c.call(client({ getToken: async () => 'tok-1', profile: c.profile }));
    if (typeof c.result === 'object' && c.result !== null) expect(result).toMatchObject(c.result);
    else expect(result).toEqual(c.result);

    const req = only();
    const [sentPath, sentQuery = ''] = req.url.split('?');
    expect(req.method).toBe(c.method);
    expect(sentPath).toBe(c.path);
    expect(Object.fromEntries(new URLSearchParams(sentQuery))).toEqual(c.query ?? {});
    expect(req.headers.authorization).toBe('Bearer tok-1');
    if (c.json !== undefined) {
      expect(req.headers['content-type']).toBe('application/json');
      expect(JSON.parse(req.body.toString('utf8'))).toEqual(c.json);
    } else if (c.text !== undefined) {
      expect(req.body.toString('utf8')).toBe(c.text);
    } else {
      expect(req.body.byteLength).toBe(0);
    }
    for (const [name, value] of Object.entries(c.headers ?? {}))
      expect(req.headers[name]).toBe(value);
  });
});

describe('request plumbing', () => {
  it('sends no Authorization without getToken, passes extra headers, tolerates a trailing slash', async () => {
    server.handle((_req, res) => sendJson(res, 200, f.me));
    const api = createApiClient({
      baseUrl: `${server.origin}/v1/`,
      headers: { 'X-CSRF': '1' },
      retry: false,
    });
    await api.me();
    const req = only();
    expect(req.url).toBe('/v1/me');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['x-csrf']).toBe('1');
  });

  it('asks getToken on every request, so a refreshed token is used at once', async () => {
    server.handle((_req, res) => sendJson(res, 200, f.me));
    let n = 0;
    const api = client({ getToken: async () => `tok-${++n}` });
    await api.me();
    await api.me();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer tok-1',
      'Bearer tok-2',
    ]);
  });

  it('omits the Authorization header when getToken resolves undefined', async () => {
    server.handle((_req, res) => sendJson(res, 200, f.me));
    await client({ getToken: async () => undefined }).me();
    expect(only().headers.authorization).toBeUndefined();
  });

  it('builds the attachment content URL and streams a ranged download', async () => {
    const api = client();
    expect(api.attachmentContentUrl('apps', 'sup port', 'SUP-42', 'a/1')).toBe(
      `${server.origin}/v1/apps/sup%20port/SUP-42/attachments/a%2F1/content`,
    );
    server.handle((_req, res) => {
      res.writeHead(206, { 'Content-Range': 'bytes 0-2/10', 'Content-Type': 'text/plain' });
      res.end('abc');
    });
    const response = await api.downloadAttachment('apps', 'support', 'SUP-42', 'att-1', {
      range: 'bytes=0-2',
    });
    expect(response.status).toBe(206);
    expect(await response.text()).toBe('abc');
    const req = only();
    expect(req.url).toBe(`${SUP}/attachments/att-1/content`);
    expect(req.headers.range).toBe('bytes=0-2');
  });

  it('encodes path segments and query values', () => {
    expect(path`/apps/${'a b'}/${'SUP-42'}/${'../x?y#z'}`).toBe(
      '/apps/a%20b/SUP-42/..%2Fx%3Fy%23z',
    );
    expect(queryString({ filter: 'a==1;b=in=(x,y)', first: 3, after: undefined })).toBe(
      'filter=a%3D%3D1%3Bb%3Din%3D%28x%2Cy%29&first=3',
    );
  });
});

describe('response parsing', () => {
  it('throws a clear invalid_response error on a schema mismatch', async () => {
    server.handle((_req, res) => sendJson(res, 200, { items: 'nope', total: 1 }));
    const error = await client()
      .listUsers()
      .catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    const apiError = error as ApiError;
    expect(apiError.code).toBe('invalid_response');
    expect(apiError.message).toContain('GET /users');
    expect(apiError.message).toMatch(/items/);
  });

  it('throws invalid_response on a 2xx body that is not JSON', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>login page</html>');
    });
    await expect(client().me()).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
  });
});

describe('error mapping', () => {
  it('maps problem+json to ApiError fields', async () => {
    const problem = {
      type: 'https://workspace.example/problems/validation',
      title: 'Validation failed',
      status: 422,
      detail: '2 fields are invalid',
      errors: [
        { field: 'Status', message: 'not in picklist' },
        { field: 'Due', message: 'malformed date' },
      ],
    };
    server.handle((_req, res) => sendJson(res, 422, problem));
    const error = await client()
      .createRecord('apps', 'support', { Status: 'Nope' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: problem.type,
      title: 'Validation failed',
      detail: '2 fields are invalid',
      errors: problem.errors,
      problem,
    });
  });

  it('gives 429 a retryAfter in seconds', async () => {
    server.handle((_req, res) =>
      sendJson(
        res,
        429,
        { type: 'about:blank', title: 'Too Many Requests', status: 429 },
        { 'Retry-After': '7' },
      ),
    );
    await expect(client().me()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfter: 7,
    });
  });

  it('still gives a useful error for a non-JSON error page', async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>upstream down</h1>');
    });
    const error = (await client()
      .me()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 502, code: 'bad_gateway' });
    expect(error.detail).toContain('upstream down');
  });

  it('names where a record write was made in X-Change-Source, and only when told', async () => {
    server.handle((_req, res) => sendJson(res, 200, { id: 'SUP-42', Title: 'x' }));
    await client().updateRecord('apps', 'support', 'SUP-42', { Title: 'x' }, { source: 'triage' });
    expect(only().headers['x-change-source']).toBe('triage');
    server.requests.length = 0;
    await client().updateRecord('apps', 'support', 'SUP-42', { Title: 'x' });
    expect(only().headers['x-change-source']).toBeUndefined();
    server.requests.length = 0;
    server.handle((_req, res) => {
      res.writeHead(201);
      res.end();
    });
    await client().addWatchers('apps', 'support', 'SUP-42', ['a@example.com'], {
      source: 'watchers',
    });
    expect(only().headers['x-change-source']).toBe('watchers');
  });

  it('maps a 412 on a stale If-Match', async () => {
    server.handle((_req, res) =>
      sendJson(res, 412, { type: 'about:blank', title: 'Precondition Failed', status: 412 }),
    );
    await expect(
      client().updateRecord('apps', 'support', 'SUP-42', { Title: 'x' }, { ifMatch: '"old"' }),
    ).rejects.toMatchObject({ status: 412, code: 'precondition_failed' });
  });

  it('sends the base values of a PUT without an ETag in X-Base-Values, and keeps the 412 `latest`', async () => {
    const latest = { 'Ticket ID': 'SUP-42', Title: 'Theirs', Status: 'Pending' };
    server.handle((_req, res) =>
      sendJson(res, 412, {
        type: 'about:blank',
        title: 'Changed by someone else',
        status: 412,
        code: 'stale_record',
        detail: 'Status changed since you opened the record',
        latest,
      }),
    );
    const error = (await client()
      .updateRecord(
        'apps',
        'support',
        'SUP-42',
        { Status: 'Open', Title: 'Größe ✓' },
        { baseValues: { Status: 'New', Title: 'Größe' } },
      )
      .catch((e: unknown) => e)) as ApiError;
    const header = only().headers['x-base-values'];
    expect(header).toMatch(/^[A-Za-z0-9_-]+$/);
    const decoded = Buffer.from(String(header), 'base64url').toString('utf8');
    expect(JSON.parse(decoded)).toEqual({ Status: 'New', Title: 'Größe' });
    expect(only().headers['if-match']).toBeUndefined();
    expect(error).toMatchObject({ status: 412 });
    expect(error.member('latest')).toEqual(latest);
    expect(error.member('nothing')).toBeUndefined();
  });

  it('sends If-Match and no base values when it has an ETag', async () => {
    server.handle((_req, res) => sendJson(res, 200, { id: 'SUP-42', Title: 'x' }));
    await client().updateRecord(
      'apps',
      'support',
      'SUP-42',
      { Title: 'x' },
      { ifMatch: '"v1"', baseValues: { Title: 'y' } },
    );
    expect(only().headers['if-match']).toBe('"v1"');
    expect(only().headers['x-base-values']).toBeUndefined();
  });

  it('reports an unreachable server as status 0 network_error', async () => {
    const closed = await startTestServer();
    const origin = closed.origin;
    await closed.close();
    const api = createApiClient({ baseUrl: `${origin}/v1`, retry: false });
    await expect(api.me()).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('rethrows the AbortError untouched when the caller aborts', async () => {
    server.handle(() => {
      // Never answers: only the abort ends the request.
    });
    const controller = new AbortController();
    const pending = client().listUsers({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(isApiError(error)).toBe(false);
    expect((error as Error).name).toBe('AbortError');
  });

  it('passes an ApiError from getToken through unchanged', async () => {
    const failure = new ApiError({ status: 401, code: 'invalid_client' });
    const error = await client({
      getToken: () => Promise.reject(failure),
      retry: { sleep: async () => undefined },
    })
      .me()
      .catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(server.requests).toHaveLength(0);
  });
});

describe('onUnauthorized', () => {
  it('is told about a 401 and the error is thrown', async () => {
    server.handle((_req, res) =>
      sendJson(res, 401, { type: 'about:blank', title: 'Unauthorized', status: 401 }),
    );
    const seen: number[] = [];
    await expect(
      client({ onUnauthorized: (e) => void seen.push(e.status) }).me(),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(seen).toEqual([401]);
    expect(server.requests).toHaveLength(1);
  });

  it('replays once with a fresh token when it resolves true', async () => {
    server.handle((req, res) =>
      req.headers.authorization === 'Bearer fresh'
        ? sendJson(res, 200, f.me)
        : sendJson(res, 401, { type: 'about:blank', title: 'Unauthorized', status: 401 }),
    );
    let token = 'stale';
    let calls = 0;
    const api = client({
      getToken: async () => token,
      onUnauthorized: () => {
        calls++;
        token = 'fresh';
        return true;
      },
    });
    await expect(api.me()).resolves.toEqual(f.me);
    expect(calls).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer stale',
      'Bearer fresh',
    ]);
  });

  it('replays at most once', async () => {
    server.handle((_req, res) =>
      sendJson(res, 401, { type: 'about:blank', title: 'Unauthorized', status: 401 }),
    );
    const api = client({ onUnauthorized: () => true });
    await expect(api.me()).rejects.toMatchObject({ status: 401 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('retries', () => {
  const unavailable = { type: 'about:blank', title: 'Service Unavailable', status: 503 };

  function retrying(options: { retries?: number; maxRetryAfterMs?: number } = {}) {
    const sleeps: number[] = [];
    const api = client({
      retry: { ...options, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    });
    return { api, sleeps };
  }

  it('retries a GET on 503 and then succeeds, with jittered backoff', async () => {
    let n = 0;
    server.handle((_req, res) =>
      n++ === 0 ? sendJson(res, 503, unavailable) : sendJson(res, 200, f.me),
    );
    const { api, sleeps } = retrying();
    await expect(api.me()).resolves.toEqual(f.me);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([100]); // 0.5 * min(5000, 200 * 2^0)
  });

  it('never retries a POST', async () => {
    server.handle((_req, res) => sendJson(res, 503, unavailable));
    const { api, sleeps } = retrying();
    await expect(api.createRecord('apps', 'support', { Title: 'x' })).rejects.toMatchObject({
      status: 503,
    });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a PUT on 502 and re-sends the same body', async () => {
    let n = 0;
    server.handle((_req, res) =>
      n++ === 0 ? sendJson(res, 502, {}) : sendJson(res, 200, f.record),
    );
    const { api } = retrying();
    await api.updateRecord('apps', 'support', 'SUP-42', { Title: 'x' });
    expect(server.requests.map((r) => r.body.toString())).toEqual([
      '{"Title":"x"}',
      '{"Title":"x"}',
    ]);
  });

  it('honours Retry-After', async () => {
    let n = 0;
    server.handle((_req, res) =>
      n++ === 0
        ? sendJson(
            res,
            429,
            { type: 'about:blank', title: 'Too Many Requests', status: 429 },
            { 'Retry-After': '2' },
          )
        : sendJson(res, 200, f.me),
    );
    const { api, sleeps } = retrying();
    await api.me();
    expect(sleeps).toEqual([2000]);
  });

  it('gives up and surfaces the 429 when Retry-After exceeds the cap', async () => {
    server.handle((_req, res) =>
      sendJson(
        res,
        429,
        { type: 'about:blank', title: 'Too Many Requests', status: 429 },
        { 'Retry-After': '120' },
      ),
    );
    const { api, sleeps } = retrying();
    await expect(api.me()).rejects.toMatchObject({ status: 429, retryAfter: 120 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('bounds the attempts and surfaces the last answer', async () => {
    server.handle((_req, res) => sendJson(res, 503, unavailable));
    const { api, sleeps } = retrying({ retries: 2 });
    await expect(api.listGroups()).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('uses 3 retries by default', async () => {
    server.handle((_req, res) => sendJson(res, 504, {}));
    const { api } = retrying();
    await expect(api.me()).rejects.toMatchObject({ status: 504 });
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry other errors', async () => {
    server.handle((_req, res) => sendJson(res, 500, {}));
    const { api } = retrying();
    await expect(api.me()).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET after a network error, but not a POST', async () => {
    const closed = await startTestServer();
    const origin = closed.origin;
    await closed.close();
    const sleeps: number[] = [];
    const api = createApiClient({
      baseUrl: `${origin}/v1`,
      retry: { retries: 2, sleep: async (ms) => void sleeps.push(ms), random: () => 0 },
    });
    await expect(api.me()).rejects.toMatchObject({ code: 'network_error' });
    expect(sleeps).toHaveLength(2);
    sleeps.length = 0;
    await expect(
      api.createUser({ email: 'a@b.c', firstName: 'A', lastName: 'B' }),
    ).rejects.toMatchObject({
      code: 'network_error',
    });
    expect(sleeps).toHaveLength(0);
  });
});
