import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import {
  DefinitionListSchema,
  MeSchema,
  UserPagedListSchema,
  UserSchema,
} from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { TokenBucketLimiter } from '../../lib/rate-limit.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('users', () => {
  it('lists users with paging and total', async () => {
    const res = await h.request('GET', '/v1/users?first=2', { token: h.tokens.member });
    const list = UserPagedListSchema.parse(res.json);
    expect(list.total).toBe(4);
    expect(list.items.map((user) => user.email)).toEqual([
      'admin@example.com',
      'agent@example.com',
    ]);
    const next = UserPagedListSchema.parse(
      (
        await h.request(
          'GET',
          `/v1/users?first=2&after=${encodeURIComponent(list.paging.end_cursor ?? '')}`,
          { token: h.tokens.member },
        )
      ).json,
    );
    expect(next.items.map((user) => user.email)).toEqual([
      'billing@example.com',
      'gone@example.com',
    ]);
    expect(next.paging.has_next_page).toBe(false);
  });

  it('filters users with RSQL on email, names, jobTitle and status', async () => {
    const cases: Array<[string, string[]]> = [
      ['status==INACTIVE', ['gone@example.com']],
      ['firstName==Sam', ['agent@example.com']],
      ['lastName=lki=ADMIN', ['admin@example.com']],
      ['email=lk=bill', ['billing@example.com']],
      ['jobTitle==null', ['gone@example.com']],
      ['jobTitle=lki=support,status==INACTIVE', ['agent@example.com', 'gone@example.com']],
    ];
    for (const [filter, emails] of cases) {
      const res = await h.request('GET', `/v1/users?filter=${encodeURIComponent(filter)}`, {
        token: h.tokens.member,
      });
      expect(res.status, filter).toBe(200);
      expect(
        UserPagedListSchema.parse(res.json)
          .items.map((user) => user.email)
          .sort(),
        filter,
      ).toEqual(emails);
    }
    const bad = await h.request('GET', `/v1/users?filter=${encodeURIComponent('status==GONE')}`, {
      token: h.tokens.member,
    });
    expect(bad.status).toBe(400);
    expect(ProblemSchema.parse(bad.json).position).toBe(8);
    const unknown = await h.request(
      'GET',
      `/v1/users?filter=${encodeURIComponent('password==x')}`,
      { token: h.tokens.member },
    );
    expect(unknown.status).toBe(400);
  });

  it('creates users (ADMIN only) and refuses duplicate emails case-insensitively', async () => {
    const input = {
      email: 'New.Person@Example.com',
      firstName: 'New',
      lastName: 'Person',
      jobTitle: 'Analyst',
    };
    const denied = await h.request('POST', '/v1/users', { token: h.tokens.member, body: input });
    expect(denied.status).toBe(403);
    ProblemSchema.parse(denied.json);
    const created = await h.request('POST', '/v1/users', { token: h.tokens.admin, body: input });
    expect(created.status).toBe(201);
    const user = UserSchema.parse(created.json);
    expect(user).toMatchObject({
      email: 'New.Person@Example.com',
      status: 'ACTIVE',
      jobTitle: 'Analyst',
    });
    const duplicate = await h.request('POST', '/v1/users', {
      token: h.tokens.admin,
      body: { ...input, email: 'new.person@example.COM' },
    });
    expect(duplicate.status).toBe(422);
    expect(ProblemSchema.parse(duplicate.json).errors?.[0]?.field).toBe('email');
    const got = await h.request('GET', `/v1/users/${user.id}`, { token: h.tokens.member });
    expect(UserSchema.parse(got.json)).toEqual(user);
  });

  it('validates user input with field errors', async () => {
    const res = await h.request('POST', '/v1/users', {
      token: h.tokens.admin,
      body: { email: 'not-an-email', firstName: '' },
    });
    expect(res.status).toBe(422);
    const fields = ProblemSchema.parse(res.json)
      .errors?.map((error) => error.field)
      .sort();
    expect(fields).toEqual(['email', 'firstName', 'lastName']);
    const malformed = await h.request('POST', '/v1/users', {
      token: h.tokens.admin,
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });

  it('deactivates idempotently (ADMIN only); 404 for unknown ids', async () => {
    const created = UserSchema.parse(
      (
        await h.request('POST', '/v1/users', {
          token: h.tokens.admin,
          body: { email: 'temp@example.com', firstName: 'T', lastName: 'Emp' },
        })
      ).json,
    );
    expect(
      (await h.request('POST', `/v1/users/${created.id}/deactivate`, { token: h.tokens.member }))
        .status,
    ).toBe(403);
    for (let i = 0; i < 2; i += 1) {
      const res = await h.request('POST', `/v1/users/${created.id}/deactivate`, {
        token: h.tokens.admin,
      });
      expect(res.status).toBe(200);
      expect(UserSchema.parse(res.json).status).toBe('INACTIVE');
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await h.request('GET', `/v1/users/${id}`, { token: h.tokens.admin })).status).toBe(
        404,
      );
      expect(
        (await h.request('POST', `/v1/users/${id}/deactivate`, { token: h.tokens.admin })).status,
      ).toBe(404);
    }
  });
});

describe('me and definitions', () => {
  it('returns the caller with their role', async () => {
    const member = MeSchema.parse(
      (await h.request('GET', '/v1/me', { token: h.tokens.member })).json,
    );
    expect(member).toMatchObject({ email: 'agent@example.com', role: 'MEMBER' });
    const admin = MeSchema.parse(
      (await h.request('GET', '/v1/me', { token: h.tokens.admin })).json,
    );
    expect(admin.role).toBe('ADMIN');
  });

  it('lists only the definitions the caller may use, with typed fields', async () => {
    const member = DefinitionListSchema.parse(
      (await h.request('GET', '/v1/definitions', { token: h.tokens.member })).json,
    );
    expect(member.items.map((d) => d.alias).sort()).toEqual([
      'customers',
      'support-tickets',
      'tasks',
    ]);
    const admin = DefinitionListSchema.parse(
      (await h.request('GET', '/v1/definitions', { token: h.tokens.admin })).json,
    );
    expect(admin.items.map((d) => d.alias).sort()).toEqual([
      'customers',
      'refunds',
      'support-tickets',
      'tasks',
    ]);
    const tickets = admin.items.find((d) => d.alias === 'support-tickets');
    expect(tickets).toMatchObject({ recordType: 'apps', handle: 'SUP', titleField: 'Title' });
    expect(tickets?.fields.find((f) => f.name === 'Status')).toEqual({
      name: 'Status',
      type: 'PICKLIST',
      required: true,
      values: ['New', 'Open', 'Pending', 'On Hold', 'Resolved', 'Closed'],
    });
    expect(tickets?.fields.filter((f) => f.readOnly).map((f) => f.name)).toEqual([
      'id',
      'Created At',
      'Created By',
      'Updated At',
      'Updated By',
    ]);
  });
});

describe('cross-cutting', () => {
  it('serves the OpenAPI document without a token, built from the zod schemas', async () => {
    const res = await h.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/oauth/token',
        '/v1/users',
        '/v1/{recordType}/{alias}',
        '/v1/groups/{groupId}/users',
      ]),
    );
    expect(JSON.stringify(doc.paths['/v1/users']?.get?.responses['200'])).toContain(
      'has_previous_page',
    );
  });

  it('serves a browsable reference at /v1/docs: self-hosted, no inline script, strict CSP', async () => {
    const page = await h.request('GET', '/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    // Every script is a file of this origin.
    const scripts = [...page.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toMatch(/src="\/v1\/docs\/[\w.-]+\.js"/);
    for (const [asset, type] of [
      ['swagger-ui-bundle.js', 'text/javascript'],
      ['swagger-ui.css', 'text/css'],
      ['init.js', 'text/javascript'],
    ] as const) {
      const res = await h.request('GET', `/v1/docs/${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('Content-Type'), asset).toContain(type);
      expect(res.text.length, asset).toBeGreaterThan(100);
    }
    expect((await h.request('GET', '/v1/docs/init.js')).text).toContain("url: '/v1/openapi.json'");
    expect((await h.request('GET', '/v1/docs/package.json')).status).toBe(404);
    expect((await h.request('GET', '/v1/docs/..%2Fpackage.json')).status).toBe(404);
  });

  it('answers unknown routes with 404 and wrong methods with 405 problem+json', async () => {
    const missing = await h.request('GET', '/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Content-Type')).toContain('application/problem+json');
    const wrongMethod = await h.request('PATCH', '/v1/users', { token: h.tokens.admin });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('Allow')).toContain('GET');
    ProblemSchema.parse(wrongMethod.json);
    expect(wrongMethod.headers.get('X-Request-Id')).toBeTruthy();
  });

  it('rate limits per credential with 429, Retry-After and RateLimit headers', async () => {
    const saved = h.deps.limiters.requests;
    h.deps.limiters.requests = new TokenBucketLimiter({ ratePerSecond: 1, burst: 3 });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i += 1) {
        last = await h.request('GET', '/v1/me', { token: h.tokens.member });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.headers.get('Retry-After')).toBe('1');
      expect(last?.headers.get('RateLimit-Policy')).toBe('"per-credential";q=3;w=3');
      expect(last?.headers.get('RateLimit')).toMatch(/^"per-credential";r=0;t=\d+$/);
      expect(ProblemSchema.parse(last?.json).status).toBe(429);
      // Another credential has its own bucket.
      const other = await h.request('GET', '/v1/me', { token: h.tokens.admin });
      expect(other.status).toBe(200);
      expect(other.headers.get('RateLimit')).toBe('"per-credential";r=2;t=1');
    } finally {
      h.deps.limiters.requests = saved;
    }
  });
});
