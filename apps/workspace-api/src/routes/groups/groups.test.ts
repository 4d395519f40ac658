import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import {
  GroupPagedListSchema,
  GroupSchema,
  RecordPagedListSchema,
  UserPagedListSchema,
} from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { domainRuleId, syncWorkspace } from '../../workspace/sync.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function groupId(name: string) {
  const res = await h.request('GET', `/v1/groups?filter=${encodeURIComponent(`name=="${name}"`)}`, {
    token: h.tokens.member,
  });
  const list = GroupPagedListSchema.parse(res.json);
  expect(list.total).toBe(1);
  return list.items[0]?.id ?? '';
}

describe('groups', () => {
  it('lists and gets the workspace groups', async () => {
    const list = GroupPagedListSchema.parse(
      (await h.request('GET', '/v1/groups', { token: h.tokens.member })).json,
    );
    expect(list.total).toBe(6);
    expect(list.items.map((group) => group.name)).toContain('Support Tier 1');
    const id = list.items[0]?.id ?? '';
    const one = GroupSchema.parse(
      (await h.request('GET', `/v1/groups/${id}`, { token: h.tokens.member })).json,
    );
    expect(one).toEqual(list.items[0]);
    expect(
      (
        await h.request('GET', '/v1/groups/00000000-0000-4000-8000-000000000000', {
          token: h.tokens.member,
        })
      ).status,
    ).toBe(404);
  });

  it('gives every domain rule its id, as the published Group {id, domain} has; stable across syncs', async () => {
    const tier1 = async () => {
      const res = await h.request('GET', `/v1/groups/${await groupId('Support Tier 1')}`, {
        token: h.tokens.member,
      });
      return GroupSchema.parse(res.json).domains;
    };
    const domains = await tier1();
    expect(domains).toEqual([
      {
        id: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ) as unknown,
        domain: 'example.com',
      },
    ]);
    // Stored with the id (not only computed on the way out), and the same after a restart's sync.
    const stored = await h.db
      .selectFrom('groups')
      .select('domains')
      .where('name', '=', 'Support Tier 1')
      .executeTakeFirstOrThrow();
    expect(stored.domains).toEqual(domains);
    await syncWorkspace(h.db, h.deps.workspace, h.deps);
    expect(await tier1()).toEqual(domains);
    expect(domainRuleId('Support Tier 1', 'example.com')).toBe(domains[0]?.id);
  });

  it('lists members, paged', async () => {
    const id = await groupId('Support Tier 1');
    const members = UserPagedListSchema.parse(
      (await h.request('GET', `/v1/groups/${id}/users?first=1`, { token: h.tokens.member })).json,
    );
    expect(members.total).toBe(2);
    expect(members.items.map((user) => user.email)).toEqual(['agent@example.com']);
    expect(members.paging.has_next_page).toBe(true);
  });

  it('adds and removes members (ADMIN only), which opens and closes definitions', async () => {
    const billingGroup = await groupId('Billing');
    const body = { userIds: [h.users.member.id] };
    expect(
      (
        await h.request('POST', `/v1/groups/${billingGroup}/users`, {
          token: h.tokens.member,
          body,
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.request('GET', '/v1/transactions/refunds', { token: h.tokens.member })).status,
    ).toBe(403);
    const added = await h.request('POST', `/v1/groups/${billingGroup}/users`, {
      token: h.tokens.admin,
      body,
    });
    expect(added.status).toBe(201);
    // Adding twice is a no-op.
    expect(
      (await h.request('POST', `/v1/groups/${billingGroup}/users`, { token: h.tokens.admin, body }))
        .status,
    ).toBe(201);
    const refunds = await h.request('GET', '/v1/transactions/refunds', { token: h.tokens.member });
    expect(RecordPagedListSchema.parse(refunds.json).total).toBe(0);
    const members = UserPagedListSchema.parse(
      (await h.request('GET', `/v1/groups/${billingGroup}/users`, { token: h.tokens.admin })).json,
    );
    expect(members.items.map((user) => user.email).sort()).toEqual([
      'agent@example.com',
      'billing@example.com',
    ]);
    const removed = await h.request('DELETE', `/v1/groups/${billingGroup}/users`, {
      token: h.tokens.admin,
      body,
    });
    expect(removed.status).toBe(200);
    expect(
      (await h.request('GET', '/v1/transactions/refunds', { token: h.tokens.member })).status,
    ).toBe(403);
  });

  it('refuses unknown user ids with 422 and changes nothing', async () => {
    const id = await groupId('Engineering');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await h.request('POST', `/v1/groups/${id}/users`, {
      token: h.tokens.admin,
      body: { userIds: [h.users.billing.id, unknown] },
    });
    expect(res.status).toBe(422);
    expect(ProblemSchema.parse(res.json).errors).toEqual([
      { field: 'userIds.1', message: `No user ${unknown}` },
    ]);
    const members = UserPagedListSchema.parse(
      (await h.request('GET', `/v1/groups/${id}/users`, { token: h.tokens.admin })).json,
    );
    expect(members.total).toBe(0);
    const del = await h.request('DELETE', `/v1/groups/${id}/users`, {
      token: h.tokens.admin,
      body: { userIds: [unknown] },
    });
    expect(del.status).toBe(422);
    const malformed = await h.request('POST', `/v1/groups/${id}/users`, {
      token: h.tokens.admin,
      body: { userIds: ['nope'] },
    });
    expect(malformed.status).toBe(422);
    expect(ProblemSchema.parse(malformed.json).errors?.[0]?.field).toBe('userIds.0');
  });
});
