// DESIGN.md section 6, "JSON bodies": 1 MiB on every JSON route, the token endpoint 16 KiB before
// any secret work; 413 before reading further, in both profiles. Each test sends the oversized
// body and counts how much of it the server pulled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';

import type { Harness } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';
import { insertRecords } from '../records/records.ts';
import { JSON_BODY_MAX_BYTES, TOKEN_BODY_MAX_BYTES } from './body.ts';

let h: Harness;
let hosted: Harness;
let ticket: string;
let groupId: string;

beforeAll(async () => {
  [h, hosted] = await Promise.all([createHarness(), createHarness({ profile: 'hosted' })]);
  const tickets = h.deps.workspace.find('apps', 'support-tickets');
  if (!tickets) throw new Error('demo workspace missing');
  const [row] = await insertRecords(h.db, tickets, [{ Title: 'Big', Status: 'New' }], 'x@y.z');
  ticket = row?.id ?? '';
  groupId = (await h.db.selectFrom('groups').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => Promise.all([h.close(), hosted.close()]));

const CHUNK = 64 * 1024;

/** An endless body that counts what the server pulls from it (one 64 KiB chunk per pull). */
function endlessBody() {
  const counter = { bytes: 0 };
  const chunk = new TextEncoder().encode('{"a":"'.padEnd(CHUNK, 'x'));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        counter.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

function send(
  harness: Harness,
  method: string,
  target: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
  token?: string,
) {
  return harness.app.request(target, {
    method,
    headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body,
    duplex: 'half',
  } as RequestInit);
}

type Route = { name: string; method: string; path: () => string; admin?: boolean; type?: string };

const ROUTES: Route[] = [
  { name: 'record create', method: 'POST', path: () => '/v1/apps/support-tickets' },
  { name: 'record update', method: 'PUT', path: () => `/v1/apps/support-tickets/${ticket}` },
  { name: 'user create', method: 'POST', path: () => '/v1/users', admin: true },
  {
    name: 'group members add',
    method: 'POST',
    path: () => `/v1/groups/${groupId}/users`,
    admin: true,
  },
  {
    name: 'group members remove',
    method: 'DELETE',
    path: () => `/v1/groups/${groupId}/users`,
    admin: true,
  },
  {
    name: 'comment (JSON)',
    method: 'POST',
    path: () => `/v1/apps/support-tickets/${ticket}/comment`,
  },
  {
    name: 'comment (text)',
    method: 'POST',
    path: () => `/v1/apps/support-tickets/${ticket}/comment`,
    type: 'text/plain',
  },
  {
    name: 'watchers add',
    method: 'POST',
    path: () => `/v1/apps/support-tickets/${ticket}/watchers`,
  },
  {
    name: 'watchers remove',
    method: 'DELETE',
    path: () => `/v1/apps/support-tickets/${ticket}/watchers`,
  },
  {
    name: 'url link',
    method: 'POST',
    path: () => `/v1/apps/support-tickets/${ticket}/attachments/url-links`,
  },
  {
    name: 'related item',
    method: 'POST',
    path: () => `/v1/apps/support-tickets/${ticket}/related-items`,
  },
];

describe('JSON bodies: 1 MiB, 413 before reading further', () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s: a declared length over 1 MiB is refused before one byte is read',
    async (_name, route) => {
      const { stream, counter } = endlessBody();
      const res = await send(
        h,
        route.method,
        route.path(),
        stream,
        {
          'Content-Type': route.type ?? 'application/json',
          'Content-Length': String(JSON_BODY_MAX_BYTES + 1),
        },
        route.admin ? h.tokens.admin : h.tokens.member,
      );
      expect(res.status).toBe(413);
      expect(res.headers.get('Content-Type')).toContain('application/problem+json');
      expect(ProblemSchema.parse(await res.json()).status).toBe(413);
      expect(counter.bytes).toBe(0);
    },
  );

  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s: a body without a length stops being read at 1 MiB',
    async (_name, route) => {
      const { stream, counter } = endlessBody();
      const res = await send(
        h,
        route.method,
        route.path(),
        stream,
        { 'Content-Type': route.type ?? 'application/json' },
        route.admin ? h.tokens.admin : h.tokens.member,
      );
      expect(res.status).toBe(413);
      expect(res.headers.get('Connection')).toBe('close');
      ProblemSchema.parse(await res.json());
      // The budget plus the chunk that crossed it (and one the stream may hold ready).
      expect(counter.bytes).toBeGreaterThan(JSON_BODY_MAX_BYTES);
      expect(counter.bytes).toBeLessThanOrEqual(JSON_BODY_MAX_BYTES + 2 * CHUNK);
    },
  );

  it('still accepts a body just under 1 MiB (the limit is not lower than promised)', async () => {
    const text = 'y'.repeat(JSON_BODY_MAX_BYTES - 20);
    const res = await h.request('POST', `/v1/apps/support-tickets/${ticket}/comment`, {
      token: h.tokens.member,
      body: { contents: text },
    });
    // Read and validated (too long for a comment), not refused for its size.
    expect(res.status).toBe(422);
    expect(ProblemSchema.parse(res.json).errors?.[0]?.field).toBe('contents');
  });

  it('answers in the hosted format in the hosted profile', async () => {
    const variants: Array<Record<string, string>> = [
      { 'Content-Type': 'application/json', 'Content-Length': String(JSON_BODY_MAX_BYTES + 1) },
      { 'Content-Type': 'application/json' },
    ];
    for (const headers of variants) {
      const { stream } = endlessBody();
      const res = await send(
        hosted,
        'POST',
        '/v1/apps/support-tickets',
        stream,
        headers,
        hosted.tokens.member,
      );
      expect(res.status).toBe(413);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['message']);
      expect(String(body.message)).toMatch(/1048576 bytes/);
    }
  });
});

describe('token endpoint: 16 KiB, before any secret work', () => {
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

  it('refuses a declared length over 16 KiB without reading or checking anything', async () => {
    const started = h.deps.secrets.started;
    const { stream, counter } = endlessBody();
    const res = await send(h, 'POST', '/oauth/token', stream, {
      ...form,
      'Content-Length': String(TOKEN_BODY_MAX_BYTES + 1),
    });
    expect(res.status).toBe(413);
    ProblemSchema.parse(await res.json());
    expect(counter.bytes).toBe(0);
    expect(h.deps.secrets.started).toBe(started);
  });

  it('stops reading a body without a length at 16 KiB (form and JSON), no secret checked', async () => {
    const started = h.deps.secrets.started;
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      const { stream, counter } = endlessBody();
      const res = await send(h, 'POST', '/oauth/token', stream, { 'Content-Type': type });
      expect(res.status).toBe(413);
      expect(counter.bytes).toBeLessThanOrEqual(TOKEN_BODY_MAX_BYTES + 2 * CHUNK);
    }
    expect(h.deps.secrets.started).toBe(started);
  });

  it('answers 413 as {message} in the hosted profile', async () => {
    const { stream } = endlessBody();
    const res = await send(hosted, 'POST', '/oauth/token', stream, {
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect(Object.keys((await res.json()) as object)).toEqual(['message']);
  });

  it('still takes a normal credential body', async () => {
    const { clientId, clientSecret } = h.credentials.member;
    const res = await h.request('POST', '/oauth/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }).toString(),
      headers: form,
    });
    expect(res.status).toBe(200);
  });
});
