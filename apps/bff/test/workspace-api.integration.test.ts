// The BFF in front of the REAL workspace API (apps/workspace-api) on a loopback port, signing in
// with credentials its test harness creates. Fault behaviour is covered by the fake upstream tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MeSchema, RecordSchema, UserPagedListSchema } from '@wsc/api-client';

import type { FakeUpstream } from './fake-upstream.ts';
import type { Harness } from './harness.ts';
import { regionFor } from '../src/lib/config.ts';
import { createHarness } from './harness.ts';
import { startRealApi } from './api-server.ts';

/**
 * The part of workspace-api's test harness (its `workspace-api/testing` export, started by
 * api-server.ts) used here; the tests check the shape at run time.
 */
type ApiHarness = {
  app: { fetch: (request: Request) => Response | Promise<Response> };
  credentials: Record<'admin' | 'member' | 'inactive', { clientId: string; clientSecret: string }>;
  users: Record<'member', { id: string }>;
  close: () => Promise<void>;
};

let api: ApiHarness;
let stopApi: (() => Promise<void>) | undefined;
let bff: Harness;

beforeAll(async () => {
  const started = await startRealApi<ApiHarness>();
  api = started.api;
  stopApi = started.close;
  const apiUrl = started.apiUrl;
  // The fake upstream is not used here; the harness only needs something to close.
  const unused = { apiUrl: apiUrl, close: async () => undefined } as unknown as FakeUpstream;
  bff = await createHarness({
    upstream: unused,
    config: { regions: [regionFor('default', apiUrl)] },
  });
});
afterAll(async () => {
  await bff?.close();
  await stopApi?.();
});

const signIn = (who: 'admin' | 'member' | 'inactive', secret?: string) =>
  bff.login({
    clientId: api.credentials[who].clientId,
    clientSecret: secret ?? api.credentials[who].clientSecret,
  });

describe('BFF over the real workspace API', () => {
  it('signs in with real credentials and reports the user from /v1/me', async () => {
    const { res, cookie } = await signIn('admin');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: unknown; region: string };
    expect(MeSchema.parse(body.user)).toMatchObject({ email: 'admin@example.com', role: 'ADMIN' });
    expect(body.region).toBe('default');
    const session = await bff.api('/bff/session', { cookie });
    expect(session.status).toBe(200);
  });

  it('refuses a wrong secret and an inactive user with 401', async () => {
    expect((await signIn('admin', 'definitely-not-the-secret')).res.status).toBe(401);
    expect((await signIn('inactive')).res.status).toBe(401);
  });

  it('proxies reads: users list parses with the contract, no-store', async () => {
    const { cookie } = await signIn('member');
    const res = await bff.api('/api/v1/users?first=2', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const list = UserPagedListSchema.parse(await res.json());
    expect(list.items.length).toBeLessThanOrEqual(2);
    expect(list.total).toBeGreaterThanOrEqual(3);
  });

  it('creates a record attributed to the signed-in user, and passes 400/403/422 through', async () => {
    const { cookie } = await signIn('admin');
    const body = JSON.stringify({ Title: 'Printer on fire', Status: 'New' });
    const created = await bff.api('/api/v1/apps/support-tickets', {
      cookie,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    });
    expect(created.status).toBe(201);
    const record = RecordSchema.parse(await created.json());
    expect(record['Created By']).toBe('admin@example.com');

    const badFilter = await bff.api('/api/v1/apps/support-tickets?filter=Title%3D%3D', { cookie });
    expect(badFilter.status).toBe(400);
    expect(badFilter.headers.get('content-type')).toContain('application/problem+json');

    const invalid = JSON.stringify({ Status: 'Nope' });
    const unprocessable = await bff.api('/api/v1/apps/support-tickets', {
      cookie,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(invalid.length) },
      body: invalid,
    });
    expect(unprocessable.status).toBe(422);

    const { cookie: memberCookie } = await signIn('member');
    const forbidden = await bff.api('/api/v1/users', {
      cookie: memberCookie,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      body: '{}',
    });
    expect(forbidden.status).toBe(403);
  });

  it('uploads an attachment as a stream and downloads it with Range', async () => {
    const { cookie } = await signIn('admin');
    const body = JSON.stringify({ Title: 'Has a file', Status: 'New' });
    const created = await bff.api('/api/v1/apps/support-tickets', {
      cookie,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    const { id } = (await created.json()) as { id: string };
    const form = new FormData();
    form.append('file', new Blob(['hello, attachment']), 'note.txt');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const upload = await bff.api(`/api/v1/apps/support-tickets/${id}/attachments`, {
      cookie,
      method: 'POST',
      headers: {
        'content-type': encoded.headers.get('content-type') ?? '',
        'content-length': String(bytes.byteLength),
      },
      body: bytes,
    });
    expect(upload.status).toBe(202);
    const attachment = (await upload.json()) as { id: string; size: number };
    expect(attachment.size).toBe(17);
    const part = await bff.api(
      `/api/v1/apps/support-tickets/${id}/attachments/${attachment.id}/content`,
      { cookie, headers: { range: 'bytes=7-16' } },
    );
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('attachment');
    expect(part.headers.get('content-disposition')).toContain("filename*=UTF-8''note.txt");
  });

  it('signs the session out when the user is deactivated upstream (token revoked)', async () => {
    const { cookie } = await signIn('member');
    expect((await bff.api('/api/v1/users?first=1', { cookie })).status).toBe(200);
    const { cookie: adminCookie } = await signIn('admin');
    const deactivate = await bff.api(`/api/v1/users/${api.users.member.id}/deactivate`, {
      cookie: adminCookie,
      method: 'POST',
      headers: { 'content-length': '0' },
    });
    expect(deactivate.status).toBe(200);
    const after = await bff.api('/api/v1/users?first=1', { cookie });
    expect(after.status).toBe(401);
    expect((await bff.api('/bff/session', { cookie })).status).toBe(401);
  });
});
