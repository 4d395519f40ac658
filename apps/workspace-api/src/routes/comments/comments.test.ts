import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import { CommentPagedListSchema, CommentSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { insertRecords } from '../../records/records.ts';

let h: Harness;
let url: string;

beforeAll(async () => {
  h = await createHarness();
  const definition = h.deps.workspace.find('apps', 'support-tickets');
  if (!definition) throw new Error('no tickets');
  const [row] = await insertRecords(
    h.db,
    definition,
    [{ Title: 'Talk to me', Status: 'New' }],
    h.users.admin.email,
  );
  url = `/v1/apps/support-tickets/${row?.id ?? ''}/comment`;
});
afterAll(() => h.close());

describe('comments', () => {
  it('adds a text/plain comment -> 201 text/plain with the new id, attributed to the credential owner', async () => {
    const res = await h.request('POST', url, {
      token: h.tokens.member,
      body: 'First! ünïcødé ✓',
      headers: { 'Content-Type': 'text/plain; charset=utf-8', Accept: 'text/plain' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^[0-9a-f-]{36}$/);
    const page = CommentPagedListSchema.parse(
      (await h.request('GET', url, { token: h.tokens.member })).json,
    );
    expect(page.items[0]).toMatchObject({
      id: res.text,
      contents: 'First! ünïcødé ✓',
      source: 'API',
    });
    expect(page.items[0]?.createdBy).toMatchObject({
      id: h.users.member.id,
      email: 'agent@example.com',
    });
  });

  it('accepts JSON {contents} and answers the Comment as JSON when Accept asks for it (extension)', async () => {
    const res = await h.request('POST', url, {
      token: h.tokens.admin,
      body: { contents: 'Second' },
      headers: { Accept: 'application/json' },
    });
    expect(res.status).toBe(201);
    const comment = CommentSchema.parse(res.json);
    expect(comment).toMatchObject({ contents: 'Second', source: 'API' });
    expect(comment.createdBy.email).toBe('admin@example.com');
    expect(comment.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('lists oldest first and pages', async () => {
    const page = CommentPagedListSchema.parse(
      (await h.request('GET', `${url}?first=1`, { token: h.tokens.member })).json,
    );
    expect(page.total).toBe(2);
    expect(page.items[0]?.contents).toMatch(/^First/);
    const next = CommentPagedListSchema.parse(
      (
        await h.request('GET', `${url}?first=1&after=${page.paging.end_cursor ?? ''}`, {
          token: h.tokens.member,
        })
      ).json,
    );
    expect(next.items.map((item) => item.contents)).toEqual(['Second']);
    expect(next.paging.has_next_page).toBe(false);
  });

  it('rejects empty, blank and over-10,000-character comments with 422 on contents', async () => {
    for (const body of ['', '   \n', 'x'.repeat(10_001)]) {
      const res = await h.request('POST', url, {
        token: h.tokens.member,
        body,
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(res.status).toBe(422);
      expect(ProblemSchema.parse(res.json).errors?.[0]?.field).toBe('contents');
    }
    expect(
      (await h.request('POST', url, { token: h.tokens.member, body: { contents: 42 } })).status,
    ).toBe(422);
    const max = await h.request('POST', url, {
      token: h.tokens.member,
      body: 'y'.repeat(10_000),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(max.status).toBe(201);
  });

  it('answers 400 for malformed JSON, 415 for other media types, 413 for huge bodies', async () => {
    expect(
      (
        await h.request('POST', url, {
          token: h.tokens.member,
          body: '{"contents":',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await h.request('POST', url, {
          token: h.tokens.member,
          body: '<p>x</p>',
          headers: { 'Content-Type': 'text/html' },
        })
      ).status,
    ).toBe(415);
    const huge = await h.request('POST', url, {
      token: h.tokens.member,
      // Over the 1 MiB of every JSON and text body (a comment itself stops at 10,000 characters).
      body: 'z'.repeat(1_100_000),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(huge.status).toBe(413);
    ProblemSchema.parse(huge.json);
  });

  it('guards access: 403 for a member of another definition, 404 unknown record', async () => {
    expect((await h.request('GET', url, { token: h.tokens.billing })).status).toBe(403);
    expect(
      (
        await h.request('POST', url, {
          token: h.tokens.billing,
          body: 'hi',
          headers: { 'Content-Type': 'text/plain' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await h.request('GET', '/v1/apps/support-tickets/SUP-4040/comment', {
          token: h.tokens.member,
        })
      ).status,
    ).toBe(404);
  });
});
