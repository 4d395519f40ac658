// The BFF's OpenAPI document: served, describing exactly the `/bff` routes the app has, and
// matching what they answer (each answer below is validated against its documented schema).
import addFormatsImport from 'ajv-formats';
import Ajv2020Import from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';

// Both are CommonJS with a default export; under Node's ESM interop they may arrive wrapped.
type AjvLike = { compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown } };
const Ajv2020 = ((Ajv2020Import as unknown as { default?: unknown }).default ??
  Ajv2020Import) as new (options: object) => AjvLike;
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ??
  addFormatsImport) as (ajv: AjvLike) => AjvLike;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
};

let h: Harness;
let doc: Doc;

beforeAll(async () => {
  h = await createHarness();
  const res = await h.request('/bff/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});
afterAll(async () => {
  await h.close();
});

/** Checks an answer against the document's schema for the operation and status. */
async function conforms(res: Response, method: string, path: string) {
  const response = doc.paths[path]?.[method]?.responses[String(res.status)];
  expect(response, `${method} ${path} ${res.status} is documented`).toBeDefined();
  const content = response?.content;
  if (!content) {
    expect(await res.text(), `${method} ${path} ${res.status} has no body`).toBe('');
    return;
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0] ?? '';
  const schema = content[type]?.schema;
  expect(schema, `${method} ${path} ${res.status} documents ${type}`).toBeDefined();
  const validate = ajv.compile(schema);
  const body: unknown = await res.json();
  expect(
    validate(body),
    `${method} ${path} ${res.status}: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
}

describe('GET /bff/openapi.json', () => {
  it('describes exactly the /bff routes the app has', () => {
    expect(doc.openapi).toBe('3.1.0');
    const registered = new Set(
      h.app.routes
        .filter((r) => r.path.startsWith('/bff/') && r.method !== 'ALL' && !r.path.includes('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method} ${path}`),
      ),
    );
    expect([...registered].sort()).toEqual([...documented].sort());
  });

  it('matches what the routes answer, errors included', async () => {
    await conforms(await h.request('/bff/health'), 'get', '/bff/health');
    await conforms(await h.request('/bff/ready'), 'get', '/bff/ready');
    await conforms(await h.request('/bff/config'), 'get', '/bff/config');
    await conforms(await h.request('/bff/session'), 'get', '/bff/session');
    const { res: login, cookie } = await h.login();
    await conforms(login, 'post', '/bff/login');
    await conforms(await h.api('/bff/session', { cookie }), 'get', '/bff/session');
    await conforms(await h.api('/bff/views', { cookie }), 'get', '/bff/views');
    await conforms(await h.api('/bff/views?recordType=apps', { cookie }), 'get', '/bff/views');
    await conforms(
      await h.api('/bff/views/6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f99', { cookie }),
      'get',
      '/bff/views/{id}',
    );
    await conforms(
      await h.api('/bff/views', { cookie, method: 'POST', csrf: false, body: '{}' }),
      'post',
      '/bff/views',
    );
    await conforms(await h.api('/bff/workspace', { cookie }), 'get', '/bff/workspace');
    await conforms(await h.api('/bff/logout', { cookie, method: 'POST' }), 'post', '/bff/logout');
    await conforms(await h.request('/bff/openapi.json'), 'get', '/bff/openapi.json');
  });
});
