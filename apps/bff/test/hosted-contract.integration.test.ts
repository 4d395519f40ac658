// The BFF in front of the REAL workspace API in its hosted profile (API_PROFILE=hosted: only the
// published contract), with Stoplight Prism validating every request and reply between them
// against the repo's copy of the published OpenAPI. Sign-in, identity lookup, sampling, the
// workspace description and the proxy must stay inside the contract: Prism reports no violation.
import type { ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Prism } from '@wsc/api-client/testing/prism';
import {
  capabilitiesFor,
  DefinitionListSchema,
  LoginResultSchema,
  SampleResultSchema,
  UserPagedListSchema,
} from '@wsc/api-client';
import { startPrism } from '@wsc/api-client/testing/prism';

import type { FakeUpstream } from './fake-upstream.ts';
import type { Harness } from './harness.ts';
import { regionFor } from '../src/lib/config.ts';
import { createHarness } from './harness.ts';

/** The part of workspace-api's test harness used here (see workspace-api.integration.test.ts). */
type ApiHarness = {
  app: { fetch: (request: Request) => Response | Promise<Response> };
  credentials: Record<'admin' | 'member', { clientId: string; clientSecret: string }>;
  users: Record<'admin' | 'member', { id: string }>;
  tokens: Record<'admin', string>;
  request: (
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
  ) => Promise<{ status: number }>;
  close: () => Promise<void>;
};
const API_HARNESS = 'workspace-api/testing';

let api: ApiHarness;
let server: ServerType;
let prism: Prism;
let bff: Harness;

beforeAll(async () => {
  const { createHarness: createApiHarness } = (await import(/* @vite-ignore */ API_HARNESS)) as {
    createHarness: (config: { profile: 'hosted' }) => Promise<ApiHarness>;
  };
  api = await createApiHarness({ profile: 'hosted' });
  for (const [i, status] of ['New', 'Open', 'New', 'Closed', 'Open', 'New'].entries()) {
    const created = await api.request('POST', '/v1/apps/support-tickets', {
      token: api.tokens.admin,
      body: { Title: `Printer problem ${i + 1}`, Status: status, Assignee: 'agent@example.com' },
    });
    expect(created.status).toBe(201);
  }
  server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  prism = await startPrism({
    mode: 'proxy',
    upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  const unused = { apiUrl: '', close: async () => undefined } as unknown as FakeUpstream;
  bff = await createHarness({
    upstream: unused,
    config: {
      // Configured, so nothing outside the contract is ever tried (auto would probe /v1/me and
      // try form + Basic first: both are violations Prism reports, see the last test).
      regions: [
        regionFor('default', `${prism.origin}/v1`, { profile: 'hosted', tokenStyle: 'json' }),
      ],
      identities: [
        { clientId: api.credentials.admin.clientId, email: 'admin@example.com', role: 'ADMIN' },
      ],
    },
  });
}, 120_000);
afterAll(async () => {
  await bff?.close();
  await prism?.stop();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await api?.close();
});

const signIn = (who: 'admin' | 'member', extra: { email?: string } = {}) =>
  bff.login({ ...api.credentials[who], ...extra });

describe('BFF -> Prism (published OpenAPI) -> workspace API (hosted profile)', () => {
  it('signs in: operator identity with names from the user lookup; an unlisted typed email ignored', async () => {
    const admin = await signIn('admin');
    expect(admin.res.status).toBe(200);
    const body = LoginResultSchema.parse(await admin.res.json());
    expect(body.capabilities).toEqual(capabilitiesFor('hosted'));
    expect(body.user).toEqual({
      id: api.users.admin.id,
      email: 'admin@example.com',
      firstName: 'Ada',
      lastName: 'Admin',
      clientId: api.credentials.admin.clientId,
      role: 'ADMIN',
      identity: 'operator',
    });
    // The identities file does not list the member: a typed email is ignored (issue 26), so
    // nobody is looked up for it.
    const member = await signIn('member', { email: 'agent@example.com' });
    expect(LoginResultSchema.parse(await member.res.json()).user).toEqual({
      clientId: api.credentials.member.clientId,
      role: 'UNKNOWN',
      identity: 'none',
    });
    expect((await signIn('admin', { email: undefined })).res.status).toBe(200);
    expect((await bff.login({ ...api.credentials.admin, clientSecret: 'wrong' })).res.status).toBe(
      401,
    );
  });

  it('samples records and an element type, saves a definition and serves it', async () => {
    const { cookie } = await signIn('admin');
    const sample = await bff.api('/bff/workspace/sample', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recordType: 'apps', alias: 'support-tickets' }),
    });
    expect(sample.status).toBe(200);
    const proposal = SampleResultSchema.parse(await sample.json());
    expect(proposal).toMatchObject({
      sampled: 6,
      definition: { handle: 'SUP', handleField: 'Ticket ID', titleField: 'Title' },
    });
    expect(proposal.definition.fields.find((f) => f.name === 'Status')).toMatchObject({
      type: 'PICKLIST',
    });

    const element = await bff.api('/bff/workspace/sample', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recordType: 'elements', alias: 'customers' }),
    });
    expect(SampleResultSchema.parse(await element.json()).definition).toMatchObject({
      name: 'Customers',
      handle: 'CUS',
      listable: false,
    });

    const missing = await bff.api('/bff/workspace/sample', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recordType: 'apps', alias: 'no-such-app' }),
    });
    expect([403, 404]).toContain(missing.status);

    const saved = await bff.api('/bff/workspace/definitions/apps/support-tickets', {
      method: 'PUT',
      cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(proposal.definition),
    });
    expect(saved.status).toBe(200);
    const list = DefinitionListSchema.parse(
      await (await bff.api('/bff/definitions', { cookie })).json(),
    );
    expect(list.items.find((d) => d.alias === 'support-tickets')?.handleField).toBe('Ticket ID');
    await bff.api('/bff/workspace/definitions/apps/support-tickets', { method: 'DELETE', cookie });
  });

  it('proxies reads with the session token', async () => {
    const { cookie } = await signIn('member');
    const res = await bff.api('/api/v1/users?first=2', { cookie });
    expect(res.status).toBe(200);
    expect(UserPagedListSchema.parse(await res.json()).items.length).toBeLessThanOrEqual(2);
  });

  it('saves with X-Base-Values: one read and one whole-record PUT, or a 412 with latest', async () => {
    const { cookie } = await signIn('admin');
    const json = { 'content-type': 'application/json' };
    const sample = await bff.api('/bff/workspace/sample', {
      method: 'POST',
      cookie,
      headers: json,
      body: JSON.stringify({ recordType: 'apps', alias: 'support-tickets' }),
    });
    const { definition } = SampleResultSchema.parse(await sample.json());
    const path = '/bff/workspace/definitions/apps/support-tickets';
    expect(
      (
        await bff.api(path, {
          method: 'PUT',
          cookie,
          headers: json,
          body: JSON.stringify(definition),
        })
      ).status,
    ).toBe(200);
    try {
      const page = await bff.api('/api/v1/apps/support-tickets?first=1', { cookie });
      const first = ((await page.json()) as { items: { data: Record<string, string> }[] }).items[0];
      const handle = first?.data['Ticket ID'] ?? '';
      const seen = first?.data['Status'] ?? '';
      const wanted = seen === 'Closed' ? 'Open' : 'Closed';
      const save = (body: Record<string, string>, base: Record<string, string>) => {
        const text = JSON.stringify(body);
        return bff.api(`/api/v1/apps/support-tickets/${handle}`, {
          method: 'PUT',
          cookie,
          headers: {
            ...json,
            'content-length': String(Buffer.byteLength(text)),
            'x-base-values': Buffer.from(JSON.stringify(base)).toString('base64url'),
          },
          body: text,
        });
      };
      const saved = await save({ Status: wanted }, { Status: seen });
      expect(saved.status).toBe(200);
      expect(((await saved.json()) as Record<string, string>)['Status']).toBe(wanted);
      // Saved from the old value again: someone (this save) changed it meanwhile.
      const stale = await save({ Status: 'New' }, { Status: seen });
      expect(stale.status).toBe(412);
      expect(((await stale.json()) as { latest: Record<string, string> }).latest['Status']).toBe(
        wanted,
      );
    } finally {
      await bff.api(path, { method: 'DELETE', cookie });
    }
  });

  it('stayed inside the published contract: Prism saw no violation', () => {
    expect(prism.violations()).toEqual([]);
  });

  it('auto detection and the token fallback work through Prism, at the cost of two reported violations', async () => {
    const auto = await createHarness({
      upstream: { apiUrl: '', close: async () => undefined } as unknown as FakeUpstream,
      store: bff.store,
      config: { regions: [regionFor('default', `${prism.origin}/v1`)] },
    });
    try {
      const first = await auto.login(api.credentials.admin);
      expect(first.res.status).toBe(200);
      expect(LoginResultSchema.parse(await first.res.json()).capabilities.profile).toBe('hosted');
      expect((await auto.login(api.credentials.member)).res.status).toBe(200);
      // One form token request (Prism: 422) and one /v1/me probe (404), once per region.
      const violations = prism.violations();
      expect(violations).toHaveLength(2);
      expect(violations.join('\n')).toMatch(/post \/oauth\/token/);
      expect(violations.join('\n')).toMatch(/get \/v1\/me/);
    } finally {
      await auto.close();
    }
  });
});
