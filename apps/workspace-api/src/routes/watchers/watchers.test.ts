import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Watcher } from '@wsc/api-client/strict';
import { ProblemSchema } from '@wsc/api-client';
import { WatcherPagedListSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { insertRecords } from '../../records/records.ts';
import { DEMO_GROUPS } from '../../workspace/demo-workspace.ts';

let h: Harness;
let ticket: string;
let url: string;

beforeAll(async () => {
  h = await createHarness();
  const definition = h.deps.workspace.find('apps', 'support-tickets');
  if (!definition) throw new Error('no tickets');
  const [row] = await insertRecords(
    h.db,
    definition,
    [{ Title: 'Watch me', Status: 'New' }],
    h.users.admin.email,
  );
  ticket = row?.id ?? '';
  url = `/v1/apps/support-tickets/${ticket}/watchers`;
});
afterAll(() => h.close());

async function list(query = '') {
  const res = await h.request('GET', `${url}${query}`, { token: h.tokens.member });
  expect(res.status).toBe(200);
  return WatcherPagedListSchema.parse(res.json);
}

/** A watcher's email, or its group's name for a Group target. */
function targetOf(item: Watcher): string {
  return item.target.type === 'User' ? item.target.email : `group:${item.target.name}`;
}

describe('watchers', () => {
  it('adds watchers by email (case-insensitive), lists them as User targets, and re-adding is a no-op', async () => {
    const added = await h.request('POST', url, {
      token: h.tokens.member,
      body: { users: ['ADMIN@example.com', 'agent@example.com'] },
    });
    expect(added.status).toBe(201);
    expect(
      (
        await h.request('POST', url, {
          token: h.tokens.member,
          body: { users: ['admin@example.com'] },
        })
      ).status,
    ).toBe(201);
    const page = await list();
    expect(page.total).toBe(2);
    expect(page.items.map((item) => item.target)).toEqual([
      {
        id: h.users.admin.id,
        type: 'User',
        firstName: 'Ada',
        lastName: 'Admin',
        email: 'admin@example.com',
      },
      {
        id: h.users.member.id,
        type: 'User',
        firstName: 'Sam',
        lastName: 'Agent',
        email: 'agent@example.com',
      },
    ]);
  });

  it('pages', async () => {
    const first = await list('?first=1');
    expect(first.items).toHaveLength(1);
    expect(first.paging.has_next_page).toBe(true);
    const next = await list(`?first=1&after=${first.paging.end_cursor ?? ''}`);
    expect(next.items.map(targetOf)).toEqual(['agent@example.com']);
    const back = await list(`?last=1&before=${next.paging.start_cursor ?? ''}`);
    expect(back.items.map(targetOf)).toEqual(['admin@example.com']);
  });

  it('rejects unknown or inactive emails with 422 naming users[i], changing nothing', async () => {
    const res = await h.request('POST', url, {
      token: h.tokens.member,
      body: { users: ['billing@example.com', 'nobody@example.com', 'gone@example.com'] },
    });
    expect(res.status).toBe(422);
    expect(ProblemSchema.parse(res.json).errors?.map((e) => e.field)).toEqual([
      'users[1]',
      'users[2]',
    ]);
    expect((await list()).items.map(targetOf)).not.toContain('billing@example.com');
    for (const body of [{ users: [] }, { users: 'a@b.c' }, {}]) {
      expect((await h.request('POST', url, { token: h.tokens.member, body })).status).toBe(422);
    }
  });

  it('removes with a JSON DELETE body (200); unknown emails -> 422 and nothing removed', async () => {
    const bad = await h.request('DELETE', url, {
      token: h.tokens.member,
      body: { users: ['admin@example.com', 'nobody@example.com'] },
    });
    expect(bad.status).toBe(422);
    expect(ProblemSchema.parse(bad.json).errors?.[0]?.field).toBe('users[1]');
    expect((await list()).total).toBe(2);
    expect(
      (
        await h.request('DELETE', url, {
          token: h.tokens.member,
          body: { users: ['admin@example.com'] },
        })
      ).status,
    ).toBe(200);
    expect((await list()).items.map(targetOf)).toEqual(['agent@example.com']);
    // Removing someone who does not watch is fine.
    expect(
      (
        await h.request('DELETE', url, {
          token: h.tokens.member,
          body: { users: ['admin@example.com'] },
        })
      ).status,
    ).toBe(200);
  });

  it('lets a deactivated user’s stale watch be removed', async () => {
    await h.db
      .insertInto('watchers')
      .values({
        id: crypto.randomUUID(),
        record_id: ticket,
        user_id: h.users.inactive.id,
        created_at: new Date(),
      })
      .execute();
    expect(
      (
        await h.request('DELETE', url, {
          token: h.tokens.member,
          body: { users: ['gone@example.com'] },
        })
      ).status,
    ).toBe(200);
    expect((await list()).items.map(targetOf)).toEqual(['agent@example.com']);
  });

  it('lists a group among the watchers (the published Group target); user changes leave it', async () => {
    const group = await h.db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where('name', '=', DEMO_GROUPS.tier2)
      .executeTakeFirstOrThrow();
    const watcherId = crypto.randomUUID();
    await h.db
      .insertInto('watchers')
      .values({ id: watcherId, record_id: ticket, group_id: group.id, created_at: new Date() })
      .execute();
    const page = await list();
    expect(page.total).toBe(2);
    expect(page.items.at(-1)).toEqual({
      id: watcherId,
      target: { id: group.id, type: 'Group', name: DEMO_GROUPS.tier2 },
    });
    const removed = await h.request('DELETE', url, {
      token: h.tokens.member,
      body: { users: ['agent@example.com'] },
    });
    expect(removed.status).toBe(200);
    expect((await list()).items.map(targetOf)).toEqual([`group:${DEMO_GROUPS.tier2}`]);
    await h.request('POST', url, {
      token: h.tokens.member,
      body: { users: ['agent@example.com'] },
    });
    expect((await list()).items.map(targetOf)).toEqual([
      `group:${DEMO_GROUPS.tier2}`,
      'agent@example.com',
    ]);
  });

  it('stores exactly one target per watcher, and a group once per record', async () => {
    const group = await h.db
      .selectFrom('groups')
      .select('id')
      .where('name', '=', DEMO_GROUPS.billing)
      .executeTakeFirstOrThrow();
    const row = (target: { user_id?: string; group_id?: string }) => ({
      id: crypto.randomUUID(),
      record_id: ticket,
      created_at: new Date(),
      ...target,
    });
    const insert = (values: ReturnType<typeof row>) =>
      h.db.insertInto('watchers').values(values).execute();
    await expect(insert(row({}))).rejects.toThrow(/watchers_one_target/);
    await expect(insert(row({ user_id: h.users.billing.id, group_id: group.id }))).rejects.toThrow(
      /watchers_one_target/,
    );
    await insert(row({ group_id: group.id }));
    await expect(insert(row({ group_id: group.id }))).rejects.toThrow(/watchers_record_group/);
    await h.db.deleteFrom('watchers').where('group_id', '=', group.id).execute();
  });

  it('guards access: 403 for a closed definition, 404 for an unknown record', async () => {
    expect((await h.request('GET', url, { token: h.tokens.billing })).status).toBe(403);
    expect(
      (
        await h.request('POST', url, {
          token: h.tokens.billing,
          body: { users: ['billing@example.com'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await h.request('GET', '/v1/apps/support-tickets/SUP-9999/watchers', {
          token: h.tokens.member,
        })
      ).status,
    ).toBe(404);
  });
});
