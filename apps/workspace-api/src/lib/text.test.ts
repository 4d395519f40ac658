// DESIGN.md section 6, "text": a NUL or an unpaired surrogate in any string input is refused with
// 400/422 naming the field (or the RSQL position), never reaching PostgreSQL (which would fail
// with 22021, 22P05 or 22P02: a 500), in every place a client can put text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema, TokenErrorSchema } from '@wsc/api-client';

import type { Harness, TestResponse } from '../../test/harness.ts';
import { createHarness } from '../../test/harness.ts';
import { insertRecords } from '../records/records.ts';
import { badTextIndex, findBadText } from './text.ts';

let h: Harness;
let hosted: Harness;
let ticket: string;
let tickets: string;
let groupId: string;

beforeAll(async () => {
  [h, hosted] = await Promise.all([createHarness(), createHarness({ profile: 'hosted' })]);
  const definition = h.deps.workspace.find('apps', 'support-tickets');
  if (!definition) throw new Error('demo workspace missing');
  const [row] = await insertRecords(h.db, definition, [{ Title: 'Text', Status: 'New' }], 'a@b.c');
  ticket = row?.id ?? '';
  tickets = `/v1/apps/support-tickets`;
  groupId = (await h.db.selectFrom('groups').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => Promise.all([h.close(), hosted.close()]));

const NUL = '\u0000';
const LONE = '\ud800';

/** Asserts a problem naming `field`, with the given status; returns the problem. */
function expectRefused(res: TestResponse, status: 400 | 422, field: string) {
  expect(res.status, res.text).toBe(status);
  const problem = ProblemSchema.parse(res.json);
  expect(problem.errors?.map((error) => error.field)).toContain(field);
  return problem;
}

describe('badTextIndex and findBadText', () => {
  it('find NUL and unpaired surrogates, not surrogate pairs', () => {
    expect(badTextIndex('ab\u0000')).toBe(2);
    expect(badTextIndex('x\ud800')).toBe(1);
    expect(badTextIndex('\udc00y')).toBe(0);
    expect(badTextIndex('emoji 😀 and ü')).toBe(-1);
    expect(findBadText({ a: ['ok', { b: `x${NUL}` }], [`k${LONE}`]: 'v' })).toEqual([
      { field: 'a[1].b', message: expect.stringMatching(/NUL .* at position 1/) as unknown },
      {
        field: 'k\\ud800',
        message: expect.stringMatching(/^The name contains an unpaired surrogate/) as unknown,
      },
    ]);
  });

  it('walk a deeply nested body without recursion', () => {
    let deep: unknown = `x${NUL}`;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(findBadText(deep)).toHaveLength(1);
  });
});

describe('JSON bodies: 422 naming the field', () => {
  it.each([
    ['a NUL', NUL],
    ['an unpaired surrogate', LONE],
  ])('record values on create and update (%s)', async (_name, bad) => {
    const created = await h.request('POST', tickets, {
      token: h.tokens.member,
      body: { Title: `Broken ${bad} title`, Status: 'New' },
    });
    expectRefused(created, 422, 'Title');
    const updated = await h.request('PUT', `${tickets}/${ticket}`, {
      token: h.tokens.member,
      body: { Description: `x${bad}` },
    });
    expectRefused(updated, 422, 'Description');
  });

  it('a field name with a NUL, shown escaped', async () => {
    const res = await h.request('POST', tickets, {
      token: h.tokens.member,
      body: { [`Ti${NUL}tle`]: 'x', Status: 'New' },
    });
    expectRefused(res, 422, 'Ti\\u0000tle');
  });

  it('comment contents as JSON and as text/plain', async () => {
    const json = await h.request('POST', `${tickets}/${ticket}/comment`, {
      token: h.tokens.member,
      body: { contents: `hi ${LONE}` },
    });
    expectRefused(json, 422, 'contents');
    const text = await h.request('POST', `${tickets}/${ticket}/comment`, {
      token: h.tokens.member,
      body: `hi ${NUL} there`,
      headers: { 'Content-Type': 'text/plain' },
    });
    const problem = expectRefused(text, 422, 'contents');
    expect(problem.errors?.[0]?.message).toMatch(/position 3/);
  });

  it('user fields', async () => {
    for (const [field, body] of [
      ['firstName', { email: 'n1@example.com', firstName: `A${NUL}`, lastName: 'B' }],
      ['lastName', { email: 'n2@example.com', firstName: 'A', lastName: `B${LONE}` }],
      ['jobTitle', { email: 'n3@example.com', firstName: 'A', lastName: 'B', jobTitle: NUL }],
      ['email', { email: `n4${NUL}@example.com`, firstName: 'A', lastName: 'B' }],
    ] as const) {
      const res = await h.request('POST', '/v1/users', { token: h.tokens.admin, body });
      expectRefused(res, 422, field);
    }
  });

  it('watcher emails, group member ids, related item ids', async () => {
    expectRefused(
      await h.request('POST', `${tickets}/${ticket}/watchers`, {
        token: h.tokens.member,
        body: { users: ['agent@example.com', `x${NUL}@example.com`] },
      }),
      422,
      'users[1]',
    );
    expectRefused(
      await h.request('DELETE', `${tickets}/${ticket}/watchers`, {
        token: h.tokens.member,
        body: { users: [LONE] },
      }),
      422,
      'users[0]',
    );
    expectRefused(
      await h.request('POST', `/v1/groups/${groupId}/users`, {
        token: h.tokens.admin,
        body: { userIds: [`${h.users.member.id}${NUL}`] },
      }),
      422,
      'userIds[0]',
    );
    expectRefused(
      await h.request('POST', `${tickets}/${ticket}/related-items`, {
        token: h.tokens.member,
        body: { id: `SUP-1${NUL}` },
      }),
      422,
      'id',
    );
  });

  it('url-link description and upload description', async () => {
    expectRefused(
      await h.request('POST', `${tickets}/${ticket}/attachments/url-links`, {
        token: h.tokens.member,
        body: { url: 'https://example.com/', description: `d${NUL}` },
      }),
      422,
      'description',
    );
    const form = new FormData();
    form.append('file', new File(['x'], 'a.txt'));
    form.append('description', `d${NUL}`);
    const res = await h.app.request(`${tickets}/${ticket}/attachments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.tokens.member}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect(ProblemSchema.parse(await res.json()).errors?.[0]?.field).toBe('description');
  });

  it('answers {message} naming the field in the hosted profile', async () => {
    const res = await hosted.request('POST', tickets, {
      token: hosted.tokens.member,
      body: { Title: `x${NUL}`, Status: 'New' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json as object)).toEqual(['message']);
    expect((res.json as { message: string }).message).toMatch(/Title: Contains a NUL/);
  });
});

describe('URLs: 400 naming the parameter or the position', () => {
  it('an RSQL value with a NUL gets 400 with its position in the filter', async () => {
    const filter = `Status==New;Title=='a${NUL}b'`;
    const res = await h.request('GET', `${tickets}?${new URLSearchParams({ filter })}`, {
      token: h.tokens.member,
    });
    const problem = expectRefused(res, 400, 'filter');
    expect(problem).toMatchObject({ position: filter.indexOf(NUL), parameter: 'filter' });
    const users = await h.request(
      'GET',
      `/v1/users?${new URLSearchParams({ filter: `email==${NUL}` })}`,
      {
        token: h.tokens.member,
      },
    );
    expect(expectRefused(users, 400, 'filter')).toMatchObject({ position: 7 });
  });

  it('sort, paging and other parameters, and the path', async () => {
    expectRefused(
      await h.request('GET', `${tickets}?sort=Title%00`, { token: h.tokens.member }),
      400,
      'sort',
    );
    expectRefused(
      await h.request('GET', `${tickets}?after=abc%00`, { token: h.tokens.member }),
      400,
      'after',
    );
    expectRefused(
      await h.request('GET', `${tickets}/SUP-1%00`, { token: h.tokens.member }),
      400,
      'path',
    );
    expectRefused(await h.request('GET', `/v1/users/%00`, { token: h.tokens.member }), 400, 'path');
  });
});

describe('the token endpoint: 400 invalid_request naming the parameter', () => {
  it('client_id or client_secret with a NUL or unpaired surrogate, in any form', async () => {
    const form = await h.request('POST', '/oauth/token', {
      body: `grant_type=client_credentials&client_id=wsc_a%00b&client_secret=x`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(TokenErrorSchema.parse(form.json)).toMatchObject({ error: 'invalid_request' });
    expect(TokenErrorSchema.parse(form.json).error_description).toMatch(/client_id/);
    const json = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: 'wsc_a', client_secret: `s${LONE}` },
    });
    expect(json.status).toBe(400);
    expect(TokenErrorSchema.parse(json.json).error_description).toMatch(/client_secret/);
    const basic = await h.request('POST', '/oauth/token', {
      body: 'grant_type=client_credentials',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`wsc_a${NUL}:secret`).toString('base64')}`,
      },
    });
    expect(basic.status).toBe(400);
  });
});
