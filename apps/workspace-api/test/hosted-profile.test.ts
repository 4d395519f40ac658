// API_PROFILE=hosted: every extension off, shapes and statuses only as the hosted service's
// published OpenAPI promises (DESIGN.md section 5). One test per rule, each failing if it breaks;
// hosted-prism.test.ts then runs every operation through Stoplight Prism over the document itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness, TestResponse } from './harness.ts';
import { createCredential, insertUser, issueToken } from '../src/identity/credentials.ts';
import { insertRecords } from '../src/records/records.ts';
import { DEMO_GROUPS } from '../src/workspace/demo-workspace.ts';
import { createHarness } from './harness.ts';

let h: Harness;
let ticket: string;
let task: string;
let refund: string;
let customer: string;

const TICKETS = '/v1/apps/support-tickets';
const AUDIT = ['Created on', 'Created by', 'Updated on', 'Updated by'];

beforeAll(async () => {
  h = await createHarness({ profile: 'hosted' });
  const insert = async (recordType: string, alias: string, data: Record<string, string>) => {
    const definition = h.deps.workspace.find(recordType, alias);
    if (!definition) throw new Error(`no ${alias}`);
    const [row] = await insertRecords(h.db, definition, [data], h.users.admin.email);
    return row?.id ?? '';
  };
  ticket = await insert('apps', 'support-tickets', { Title: 'Hosted', Status: 'New' });
  task = await insert('tasks', 'tasks', { Title: 'A task', Status: 'To Do' });
  refund = await insert('transactions', 'refunds', {
    Reason: 'Broken',
    Amount: '10',
    Currency: 'EUR',
    Status: 'Requested',
  });
  customer = await insert('elements', 'customers', { Name: 'Acme', Plan: 'Free' });
});
afterAll(() => h.close());

/** The reply as a plain JSON object (fails the test when it is not one). */
function object(res: TestResponse): Record<string, unknown> {
  expect(res.json, res.text).toBeTypeOf('object');
  return res.json as Record<string, unknown>;
}

/** Asserts the hosted error format: application/json `{"message"}` and nothing else. */
function expectMessage(res: TestResponse, status: number, pattern?: RegExp): string {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = object(res);
  expect(Object.keys(body)).toEqual(['message']);
  expect(body.message).toBeTypeOf('string');
  if (pattern) expect(body.message).toMatch(pattern);
  return String(body.message);
}

const get = (path: string, token = h.tokens.admin) => h.request('GET', path, { token });

describe('1. extensions are not mounted', () => {
  it('answers 404 for /v1/me, /v1/definitions, /v1/openapi.json and /v1/docs; /health stays', async () => {
    for (const path of ['/v1/me', '/v1/definitions', '/v1/openapi.json', '/v1/docs']) {
      expectMessage(await get(path), 404);
    }
    const health = await h.request('GET', '/health');
    expect(health.status).toBe(200);
  });
});

describe('2. token', () => {
  const json = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    h.request('POST', '/oauth/token', { body, headers });

  it('takes a JSON body and answers 201 with grant_type beside the token', async () => {
    const { clientId, clientSecret } = h.credentials.member;
    const res = await json({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(res.status).toBe(201);
    const body = object(res);
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: h.config.tokenTtlSeconds,
      grant_type: 'client_credentials',
    });
    expect(body.access_token).toBeTypeOf('string');
    const users = await get('/v1/users', String(body.access_token));
    expect(users.status).toBe(200);
  });

  it('refuses a form body and HTTP Basic with 400 invalid_request', async () => {
    const { clientId, clientSecret } = h.credentials.member;
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const form = await h.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const formBasic = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic },
    });
    const jsonBasic = await json({ grant_type: 'client_credentials' }, { Authorization: basic });
    for (const res of [form, formBasic, jsonBasic]) {
      expect(res.status).toBe(400);
      expect(object(res).error).toBe('invalid_request');
    }
  });
});

describe('3. records carry their handle and audit values under ordinary field names', () => {
  it('creates and reads a ticket with "Ticket ID" and the audit fields, no id or system fields', async () => {
    const created = await h.request('POST', TICKETS, {
      token: h.tokens.member,
      body: { Title: 'Printer', Status: 'Open' },
    });
    expect(created.status).toBe(201);
    const record = object(created);
    expect(Object.keys(record)).toEqual(['Ticket ID', 'Title', 'Status', ...AUDIT]);
    expect(record['Ticket ID']).toMatch(/^SUP-\d+$/);
    expect(record['Created by']).toBe('agent@example.com');
    expect(record['Updated on']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Paths still use the handle.
    const read = await get(`${TICKETS}/${String(record['Ticket ID'])}`);
    expect(read.json).toEqual(record);
  });

  it('names the handle per definition: "Task Key", "Customer ID", and none for refunds', async () => {
    const taskRecord = object(await get(`/v1/tasks/tasks/${task}`));
    expect(taskRecord['Task Key']).toBe(task);
    const customerRecord = object(await get(`/v1/elements/customers/${customer}`));
    expect(customerRecord['Customer ID']).toBe(customer);
    const refundRecord = object(await get(`/v1/transactions/refunds/${refund}`));
    expect(Object.keys(refundRecord)).toEqual(['Reason', 'Amount', 'Currency', 'Status', ...AUDIT]);
    expect(Object.values(refundRecord)).not.toContain(refund);
  });

  it('lists records in the same shape', async () => {
    const list = object(await get('/v1/transactions/refunds'));
    const items = list.items as Array<{ cursor: string; data: Record<string, string> }>;
    expect(items).toHaveLength(1);
    expect(items[0]?.data).toEqual(object(await get(`/v1/transactions/refunds/${refund}`)));
  });

  it('filters on the hosted names (mapped to the system columns) but not on id or Created At', async () => {
    const byHandle = object(
      await get(`${TICKETS}?filter=${encodeURIComponent(`Ticket ID==${ticket}`)}`),
    );
    expect(byHandle.total).toBe(1);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const recent = object(
      await get(
        `${TICKETS}?filter=${encodeURIComponent(`Created on=ge=${since};Created by==admin@example.com`)}`,
      ),
    );
    expect(recent.total).toBe(1);
    expectMessage(
      await get(`${TICKETS}?filter=${encodeURIComponent(`id==${ticket}`)}`),
      400,
      /Unknown field "id"/,
    );
    expectMessage(
      await get(`${TICKETS}?filter=${encodeURIComponent(`Created At=ge=${since}`)}`),
      400,
      /Unknown field "Created At"/,
    );
  });

  it('reads a batch of records by their handle field in one search (the published list form)', async () => {
    // A bulk run's re-read (ADR 0030): `<handleField>=in=(...)`, which the console's client
    // sends in the published dialect (`a:b`).
    const definition = h.deps.workspace.find('apps', 'support-tickets');
    if (!definition) throw new Error('no support-tickets');
    const rows = await insertRecords(
      h.db,
      definition,
      [{ Title: 'Batch A' }, { Title: 'Batch B' }, { Title: 'Batch C' }].map((r) => ({
        ...r,
        Status: 'Open',
      })),
      h.users.admin.email,
    );
    const [a, b] = rows.map((row) => row.id);
    for (const filter of [`Ticket ID=in=${a}:${b}`, `'Ticket ID'=in=${b}:${a}`]) {
      const page = object(await get(`${TICKETS}?first=2&filter=${encodeURIComponent(filter)}`));
      const items = page.items as Array<{ data: Record<string, string> }>;
      expect(items.map((item) => item.data['Ticket ID']).sort(), filter).toEqual([a, b].sort());
      expect(items[0]?.data.Title, filter).toMatch(/^Batch [AB]$/);
    }
  });

  it('ignores the hosted names in writes, as system fields are ignored', async () => {
    const res = await h.request('PUT', `${TICKETS}/${ticket}`, {
      token: h.tokens.member,
      body: {
        Title: 'Renamed',
        'Ticket ID': 'SUP-999',
        'Created by': 'someone@else.example',
        'Updated on': '2020-01-01T00:00:00.000Z',
      },
    });
    expect(res.status).toBe(200);
    expect(object(res)).toMatchObject({
      'Ticket ID': ticket,
      Title: 'Renamed',
      'Created by': 'admin@example.com',
      'Updated by': 'agent@example.com',
    });
    // `id` is no field of the hosted contract: an unknown field like any other.
    const withId = await h.request('PUT', `${TICKETS}/${ticket}`, {
      token: h.tokens.member,
      body: { id: 'SUP-999' },
    });
    expectMessage(withId, 422, /id: Unknown field/);
  });
});

describe('4. no ETag, If-Match or Location', () => {
  it('sends no ETag or Location, ignores If-Match and If-None-Match', async () => {
    const created = await h.request('POST', TICKETS, {
      token: h.tokens.member,
      body: { Title: 'No tags', Status: 'New' },
    });
    expect(created.headers.get('ETag')).toBeNull();
    expect(created.headers.get('Location')).toBeNull();
    const id = String(object(created)['Ticket ID']);
    const read = await h.request('GET', `${TICKETS}/${id}`, {
      token: h.tokens.member,
      headers: { 'If-None-Match': '*' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('ETag')).toBeNull();
    const stale = await h.request('PUT', `${TICKETS}/${id}`, {
      token: h.tokens.member,
      headers: { 'If-Match': '"stale.1"' },
      body: { Status: 'Open' },
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('ETag')).toBeNull();
    expect(object(stale).Status).toBe('Open');
  });
});

describe('5. only the query parameters the published operation declares', () => {
  it('answers 400 naming an undeclared parameter', async () => {
    const cases: Array<[string, string]> = [
      [`${TICKETS}?sort=-Title`, 'sort'],
      [`${TICKETS}/${ticket}/related-items?first=1`, 'first'],
      ['/v1/groups?filter=name==Billing', 'filter'],
      [`${TICKETS}/${ticket}?expand=all`, 'expand'],
      [`${TICKETS}/${ticket}/attachments?first=5`, 'first'],
      ['/v1/users?first=1&sort=email', 'sort'],
    ];
    for (const [path, name] of cases) {
      expectMessage(await get(path), 400, new RegExp(`parameter ${name}\\b`));
    }
  });

  it('takes the declared ones', async () => {
    for (const path of [
      `${TICKETS}?first=1&filter=Status==New`,
      `${TICKETS}/${ticket}/watchers?first=1`,
      `${TICKETS}/${ticket}/comment?last=1`,
      '/v1/users?first=1&filter=status==ACTIVE',
      '/v1/groups?first=2',
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
  });
});

describe('6. RSQL in the published dialect', () => {
  it.each([
    ['Status=out=New:Open', 6],
    ['Priority=nbt=1:3', 8],
    ['Status=in=(New,Open)', 10],
    ['(Status==New)', 0],
  ])('refuses %s at position %i', async (filter, position) => {
    expectMessage(
      await get(`${TICKETS}?filter=${encodeURIComponent(filter)}`),
      400,
      new RegExp(`position ${position}\\b`),
    );
  });

  it('reads the published forms, on records and users', async () => {
    const notIn = object(
      await get(`${TICKETS}?filter=${encodeURIComponent('Status!in=Closed:Resolved')}`),
    );
    expect(notIn.total).toBeGreaterThan(0);
    expect((await get(`/v1/users?filter=${encodeURIComponent('status!in=INACTIVE')}`)).status).toBe(
      200,
    );
    expectMessage(
      await get(`/v1/users?filter=${encodeURIComponent('status=out=INACTIVE')}`),
      400,
      /=out=/,
    );
  });
});

describe('7. plain error bodies', () => {
  it('answers {"message"} for 401, 403, 404 and 422 (field problems in prose)', async () => {
    expectMessage(await h.request('GET', '/v1/users'), 401);
    expectMessage(await get('/v1/users', 'not-a-token'), 401);
    expectMessage(await get(`/v1/transactions/refunds/${refund}`, h.tokens.member), 403);
    expectMessage(await get(`${TICKETS}/SUP-99999`), 404, /SUP-99999/);
    const invalid = await h.request('POST', TICKETS, {
      token: h.tokens.member,
      body: { Status: 'Bogus', Severity: 'Huge' },
    });
    const message = expectMessage(invalid, 422);
    expect(message).toMatch(/Title: Required/);
    expect(message).toMatch(/Status: Not one of/);
    expect(message).toMatch(/Severity: Not one of/);
  });

  it('sends no RateLimit headers, and its 429 keeps Retry-After', async () => {
    const limited = await createHarness({
      profile: 'hosted',
      rateLimit: { ratePerSecond: 1, burst: 1 },
    });
    try {
      const first = await limited.request('GET', '/v1/users', { token: limited.tokens.member });
      expect(first.status).toBe(200);
      const second = await limited.request('GET', '/v1/users', { token: limited.tokens.member });
      expectMessage(second, 429);
      expect(Number(second.headers.get('Retry-After'))).toBeGreaterThan(0);
      for (const res of [first, second]) {
        expect(res.headers.get('RateLimit')).toBeNull();
        expect(res.headers.get('RateLimit-Policy')).toBeNull();
      }
    } finally {
      await limited.close();
    }
  });
});

describe('8. attachments', () => {
  const base = () => `${TICKETS}/${ticket}/attachments`;

  it('answers an upload 202 with an empty body and lists it without extension keys', async () => {
    const form = new FormData();
    form.append('file', new File(['hello hosted'], 'hello.txt', { type: 'text/plain' }));
    const res = await h.app.request(base(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.tokens.member}` },
      body: form,
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    const link = await h.request('POST', `${base()}/url-links`, {
      token: h.tokens.member,
      body: { url: 'https://status.example.com/incidents/1', description: 'Incident' },
    });
    expect(link.status).toBe(201);
    expect(link.json).toEqual({
      url: 'https://status.example.com/incidents/1',
      description: 'Incident',
    });
    const list = (await get(base())).json as Array<Record<string, unknown>>;
    expect(list).toHaveLength(2);
    const [file, uriList] = list;
    expect(Object.keys(file ?? {}).sort()).toEqual(
      ['contentUrl', 'createdAt', 'id', 'mediaType', 'name', 'size', 'state', 'viewState'].sort(),
    );
    expect(uriList).toMatchObject({
      mediaType: 'text/uri-list',
      name: 'https://status.example.com/incidents/1',
      description: 'Incident',
    });
    for (const key of ['contentUrl', 'url', 'sha256', 'createdBy'])
      expect(uriList).not.toHaveProperty(key);
    const one = await get(`${base()}/${String(file?.id)}`);
    expect(one.json).toEqual(file);
    // The download is the published one: 200 octet-stream, whole file, no ETag.
    const download = await h.app.request(String(file?.contentUrl), {
      headers: { Authorization: `Bearer ${h.tokens.member}`, Range: 'bytes=0-1' },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(download.headers.get('ETag')).toBeNull();
    expect(await download.text()).toBe('hello hosted');
  });
});

describe('9. comments', () => {
  const base = () => `${TICKETS}/${ticket}/comment`;

  it('takes text/plain only and answers 201 text/plain with the new id', async () => {
    const added = await h.request('POST', base(), {
      token: h.tokens.member,
      body: 'A hosted comment',
      headers: { 'Content-Type': 'text/plain', Accept: 'application/json' },
    });
    expect(added.status).toBe(201);
    expect(added.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(added.text).toMatch(/^[0-9a-f-]{36}$/);
    const json = await h.request('POST', base(), {
      token: h.tokens.member,
      body: { contents: 'As JSON' },
    });
    expectMessage(json, 400, /text\/plain/);
  });

  it('lists authors without status', async () => {
    const list = object(await get(base()));
    const items = list.items as Array<{ contents: string; createdBy: Record<string, unknown> }>;
    expect(items.map((item) => item.contents)).toEqual(['A hosted comment']);
    expect(items[0]?.createdBy).toEqual({
      id: h.users.member.id,
      email: 'agent@example.com',
      firstName: 'Sam',
      lastName: 'Agent',
      jobTitle: 'Support Agent',
    });
  });
});

describe('10. lists omit null cursors and empty domains; users omit a null jobTitle', () => {
  it('omits start_cursor and end_cursor of an empty page', async () => {
    const empty = object(await get(`${TICKETS}/${ticket}/watchers`));
    expect(empty.paging).toEqual({ has_previous_page: false, has_next_page: false });
    const page = object(await get(`${TICKETS}?first=1`));
    expect(Object.keys(page.paging as object).sort()).toEqual([
      'end_cursor',
      'has_next_page',
      'has_previous_page',
      'start_cursor',
    ]);
  });

  it('omits a group’s empty domains and keeps non-empty ones', async () => {
    const groups = (object(await get('/v1/groups')).items ?? []) as Array<Record<string, unknown>>;
    const tier1 = groups.find((group) => group.name === DEMO_GROUPS.tier1);
    const tier2 = groups.find((group) => group.name === DEMO_GROUPS.tier2);
    // The published GroupDomain is {id, domain}: each rule carries its (stable) id.
    expect(tier1?.domains).toEqual([
      {
        id: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ) as unknown,
        domain: 'example.com',
      },
    ]);
    expect(tier2).toBeDefined();
    expect(tier2).not.toHaveProperty('domains');
    expect(object(await get(`/v1/groups/${String(tier2?.id)}`))).not.toHaveProperty('domains');
  });

  it('omits a null jobTitle', async () => {
    const user = object(await get(`/v1/users/${h.users.inactive.id}`));
    expect(user).not.toHaveProperty('jobTitle');
    expect(user.email).toBe('gone@example.com');
  });
});

describe('11. getElement', () => {
  it('describes the element definition as an Aspect, never a record list', async () => {
    const res = await get('/v1/elements/customers', h.tokens.member);
    expect(res.status).toBe(200);
    const aspect = object(res);
    expect(aspect).toEqual({
      id: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ) as unknown,
      name: 'Customers',
      handle: 'CUS',
      namespace: 'customers',
      __typename: 'AspectElement',
      status: 'ACTIVE',
      configured: true,
      readOnly: false,
    });
    expect(object(await get('/v1/elements/customers')).id).toBe(aspect.id);
    expectMessage(await get('/v1/elements/nope'), 404);
    expectMessage(await get('/v1/elements/customers?filter=Name==Acme'), 400, /filter/);
  });

  it('answers 403 to a caller the definition is closed to', async () => {
    const outsider = await insertUser(h.db, {
      email: 'outsider@example.com',
      firstName: 'Out',
      lastName: 'Sider',
    });
    const credential = await createCredential(h.db, outsider.id, 'test');
    const token = await issueToken(h.db, credential.clientId, outsider.id, 600);
    expectMessage(await get('/v1/elements/customers', token), 403);
  });
});

describe('12. group watchers', () => {
  it('lists a group among the watchers as {id, target: {id, type: Group, name}}', async () => {
    const group = await h.db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where('name', '=', DEMO_GROUPS.tier2)
      .executeTakeFirstOrThrow();
    const watcherId = crypto.randomUUID();
    await h.db
      .insertInto('watchers')
      .values({ id: watcherId, record_id: task, group_id: group.id, created_at: new Date() })
      .execute();
    const added = await h.request('POST', `/v1/tasks/tasks/${task}/watchers`, {
      token: h.tokens.member,
      body: { users: ['agent@example.com'] },
    });
    expect(added.status).toBe(201);
    const list = object(await get(`/v1/tasks/tasks/${task}/watchers`));
    expect(list.total).toBe(2);
    expect((list.items as unknown[])[0]).toEqual({
      id: watcherId,
      target: { id: group.id, type: 'Group', name: DEMO_GROUPS.tier2 },
    });
  });
});
