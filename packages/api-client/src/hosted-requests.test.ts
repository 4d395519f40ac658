// Every call the client makes in the hosted profile matches a published operation: method and
// path, query names (and values) the operation declares, a request content type it accepts, an
// Accept its replies can satisfy, and a JSON body valid against its request schema. Prism cannot
// check undeclared query parameters, so this test does, with fetch stubbed.
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { describe, expect, it } from 'vitest';

import type { ApiClient } from './client.ts';
import type { OpenApiSchema } from './testing/openapi.ts';
import { createApiClient } from './client.ts';
import { isApiError } from './errors.ts';
import { requestToken } from './request-token.ts';
import { deref, matchOperation } from './testing/openapi.ts';

// ajv-formats is CommonJS with a default export; under Node's ESM interop it arrives wrapped.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ??
  addFormatsImport) as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

const USER = '550e8400-e29b-41d4-a716-446655440000';
const GROUP = '550e8400-e29b-41d4-a716-446655440001';

/** A hosted-profile client whose fetch records the request and answers `reply`. */
function recorder(reply: () => Response = () => new Response('{}', { status: 200 })) {
  const sent: Sent[] = [];
  const fetchStub: typeof fetch = async (input, init) => {
    const body = init?.body;
    sent.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init?.headers),
      body: typeof body === 'string' ? body : undefined,
    });
    return reply();
  };
  const api = createApiClient({
    baseUrl: 'https://tenant.example.com/v1',
    profile: 'hosted',
    retry: false,
    fetch: fetchStub,
    getToken: async () => 'token',
  });
  return { api, sent, fetchStub };
}

function mediaType(value: string | null): string | undefined {
  return value?.split(';')[0]?.trim().toLowerCase();
}

function accepts(accept: string | null, offered: string[]): boolean {
  if (!accept) return true;
  const wanted = accept.split(',').map((part) => mediaType(part) ?? '');
  return wanted.some(
    (type) =>
      type === '*/*' ||
      offered.some(
        (media) => media === type || (type.endsWith('/*') && media.startsWith(type.slice(0, -1))),
      ),
  );
}

/** Checks one request against the published document; returns its operationId. */
function conforms(request: Sent): string {
  const label = `${request.method} ${request.url.pathname}`;
  const match = matchOperation(request.method, request.url.pathname);
  expect(match, `${label}: no published operation`).toBeDefined();
  if (!match) return '';
  const { operation, parameters } = match;

  // Path parameters: values valid against their schemas (user and group ids are uuids).
  const template = match.path.split('/');
  const segments = request.url.pathname.split('/');
  template.forEach((part, i) => {
    if (!part.startsWith('{')) return;
    const parameter = parameters.find((p) => p.in === 'path' && `{${p.name}}` === part);
    if (parameter?.schema) {
      const value = decodeURIComponent(segments[i] ?? '');
      expect(ajv.validate(parameter.schema, value), `${label}: path ${part}=${value}`).toBe(true);
    }
  });

  // Query: only declared names, values valid against their schemas.
  const declared = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  for (const [name, value] of request.url.searchParams) {
    const parameter = declared.get(name);
    expect(parameter, `${label}: query '${name}' is not declared`).toBeDefined();
    const schema = parameter?.schema;
    if (schema) {
      const typed = schema.type === 'integer' ? Number(value) : value;
      expect(ajv.validate(schema, typed), `${label}: query ${name}=${value}`).toBe(true);
    }
  }

  // Body: a content type the operation accepts; JSON valid against its schema.
  const content = operation.requestBody?.content ?? {};
  const type = mediaType(request.headers.get('content-type'));
  if (type === undefined) {
    expect(request.body ?? '', `${label}: a body without a content type`).toBe('');
  } else {
    expect(Object.keys(content), `${label}: content type ${type}`).toContain(type);
    const schema: OpenApiSchema | undefined = content[type]?.schema;
    if (type === 'application/json' && schema) {
      const valid = ajv.validate(deref(schema), JSON.parse(request.body ?? 'null'));
      expect(valid, `${label}: body ${request.body} ${ajv.errorsText()}`).toBe(true);
    }
  }

  // Accept: some success reply of the operation can satisfy it.
  const offered = Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(response.content ?? {}));
  if (offered.length > 0) {
    expect(
      accepts(request.headers.get('accept'), offered),
      `${label}: Accept ${request.headers.get('accept')} vs ${offered.join(', ')}`,
    ).toBe(true);
  }
  return operation.operationId;
}

const R = ['apps', 'support-tickets', 'SUP-4'] as const;

// Every method of the client that the hosted profile may call, with realistic arguments.
const calls: [string, (api: ApiClient) => Promise<unknown>][] = [
  [
    'searchRecords',
    (api) =>
      api.searchRecords('apps', 'support-tickets', {
        filter:
          '(Status==New,Status==Open);Severity=out=(Low,Medium);Created At=bt=(2024-01-01T00:00:00.000Z,2024-12-31T23:59:59.999Z)',
        first: 100,
        after: 'c1',
      }),
  ],
  [
    'searchRecords backwards',
    (api) => api.searchRecords('tasks', 'tasks', { last: 5, before: 'c' }),
  ],
  ['getRecord', (api) => api.getRecord(...R)],
  ['getElement', (api) => api.getElement('customers')],
  ['createRecord', (api) => api.createRecord('apps', 'support-tickets', { Title: 'New' })],
  ['updateRecord', (api) => api.updateRecord(...R, { Status: 'Open' })],
  ['listRelated', (api) => api.listRelated(...R, { first: 200 })],
  ['addRelated', (api) => api.addRelated(...R, { id: 'TSK-1', alias: 'tasks' })],
  ['removeRelated', (api) => api.removeRelated(...R, 'TSK-1')],
  ['listAttachments', (api) => api.listAttachments(...R)],
  ['getAttachment', (api) => api.getAttachment(...R, 'att-1')],
  [
    'uploadAttachment',
    (api) => api.uploadAttachment(...R, new Blob(['hello']), { description: 'greeting' }),
  ],
  ['addUrlLink', (api) => api.addUrlLink(...R, { url: 'https://example.com', description: 'x' })],
  ['removeAttachment', (api) => api.removeAttachment(...R, 'att-1')],
  ['downloadAttachment', (api) => api.downloadAttachment(...R, 'att-1')],
  ['listWatchers', (api) => api.listWatchers(...R, { first: 50 })],
  ['addWatchers', (api) => api.addWatchers(...R, ['a@example.com'])],
  ['removeWatchers', (api) => api.removeWatchers(...R, ['a@example.com'])],
  ['listComments', (api) => api.listComments(...R, { first: 100 })],
  ['addComment', (api) => api.addComment(...R, 'Looking into it')],
  ['listUsers', (api) => api.listUsers({ filter: 'status==ACTIVE;email=lki=jane', first: 20 })],
  [
    'createUser',
    (api) => api.createUser({ email: 'new@example.com', firstName: 'New', lastName: 'Person' }),
  ],
  ['getUser', (api) => api.getUser(USER)],
  ['deactivateUser', (api) => api.deactivateUser(USER)],
  ['listGroups', (api) => api.listGroups({ first: 100 })],
  ['getGroup', (api) => api.getGroup(GROUP)],
  ['listGroupMembers', (api) => api.listGroupMembers(GROUP, { first: 100, after: 'x' })],
  ['addGroupMembers', (api) => api.addGroupMembers(GROUP, [USER])],
  ['removeGroupMembers', (api) => api.removeGroupMembers(GROUP, [USER])],
];

describe('hosted profile: every request is a published operation', () => {
  it.each(calls)('%s', async (_name, call) => {
    const { api, sent } = recorder();
    await call(api).catch(() => undefined); // replies are not the point here
    expect(sent).toHaveLength(1);
    const [request] = sent;
    if (request) conforms(request);
  });

  it('covers every method of the client the hosted profile can call', () => {
    const { api } = recorder();
    const called = new Set(calls.map(([name]) => name.split(' ')[0]));
    const extensionsOnly = new Set(['listDefinitions', 'me', 'attachmentContentUrl', 'profile']);
    const methods = Object.keys(api).filter((name) => !extensionsOnly.has(name));
    expect(methods.filter((name) => !called.has(name))).toEqual([]);
  });

  it('the token request in JSON style is the published requestAccessToken', async () => {
    const { sent, fetchStub } = recorder(
      () => new Response(JSON.stringify({ access_token: 't' }), { status: 201 }),
    );
    await requestToken({
      tokenUrl: 'https://tenant.example.com/oauth/token',
      clientId: 'id',
      clientSecret: 'secret',
      style: 'json',
      fetch: fetchStub,
    });
    const [request] = sent;
    expect(request && conforms(request)).toBe('requestAccessToken');
  });

  it.each([
    ['listDefinitions', (api: ApiClient) => api.listDefinitions()],
    ['me', (api: ApiClient) => api.me()],
    ['sort', (api: ApiClient) => api.searchRecords('apps', 'a', { sort: '-Created At' })],
    ['element lists', (api: ApiClient) => api.searchRecords('elements', 'customers')],
  ])('refuses %s without sending anything', async (_name, call) => {
    const { api, sent } = recorder();
    const error = await call(api).catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('not_in_contract');
    expect(sent).toHaveLength(0);
  });

  it('a filter that cannot be written in the published dialect fails before sending', async () => {
    const { api, sent } = recorder();
    const error = await api.searchRecords('apps', 'a', { filter: 'Status==' }).catch((e) => e);
    expect(isApiError(error) && error.status).toBe(400);
    expect(isApiError(error) && (error.problem as { position: number }).position).toBe(8);
    expect(sent).toHaveLength(0);
  });

  it('the extended profile would send what the contract lacks (the check is not vacuous)', () => {
    const label = 'GET /v1/apps/support-tickets';
    expect(() =>
      conforms({
        method: 'GET',
        url: new URL(`https://x${label.slice(4)}?sort=-Title`),
        headers: new Headers(),
        body: undefined,
      }),
    ).toThrow(/query 'sort' is not declared/);
    expect(() =>
      conforms({
        method: 'POST',
        url: new URL('https://x/v1/apps/a/SUP-1/comment'),
        headers: new Headers({ 'content-type': 'application/json' }),
        body: '{"contents":"x"}',
      }),
    ).toThrow(/content type application\/json/);
    expect(() =>
      conforms({
        method: 'GET',
        url: new URL('https://x/v1/me'),
        headers: new Headers(),
        body: undefined,
      }),
    ).toThrow(/no published operation/);
  });
});
