import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import { RelatedPagedListSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { insertRecords } from '../../records/records.ts';

let h: Harness;
let ticket: string;
let other: string;
let task: string;
let customer: string;
let refund: string;

function def(recordType: string, alias: string) {
  const definition = h.deps.workspace.find(recordType, alias);
  if (!definition) throw new Error(`no ${alias}`);
  return definition;
}

beforeAll(async () => {
  h = await createHarness();
  const by = h.users.admin.email;
  [ticket, other] = (
    await insertRecords(
      h.db,
      def('apps', 'support-tickets'),
      [
        { Title: 'A', Status: 'New' },
        { Title: 'B', Status: 'New' },
      ],
      by,
    )
  ).map((r) => r.id) as [string, string];
  [task] = (
    await insertRecords(h.db, def('tasks', 'tasks'), [{ Title: 'T', Status: 'To Do' }], by)
  ).map((r) => r.id) as [string];
  [customer] = (
    await insertRecords(h.db, def('elements', 'customers'), [{ Name: 'Acme', Plan: 'Free' }], by)
  ).map((r) => r.id) as [string];
  [refund] = (
    await insertRecords(
      h.db,
      def('transactions', 'refunds'),
      [{ Reason: 'R', Amount: '5', Currency: 'EUR', Status: 'Requested' }],
      by,
    )
  ).map((r) => r.id) as [string];
});
afterAll(() => h.close());

const url = (id: string) => `/v1/apps/support-tickets/${id}/related-items`;

describe('related items', () => {
  it('relates symmetrically, lists with inline cursors and types, and relating twice is a no-op', async () => {
    expect(
      (await h.request('POST', url(ticket), { token: h.tokens.member, body: { id: task } })).status,
    ).toBe(201);
    expect(
      (
        await h.request('POST', url(ticket), {
          token: h.tokens.member,
          body: { id: customer, alias: 'customers' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await h.request('POST', url(ticket), { token: h.tokens.member, body: { id: task } })).status,
    ).toBe(201);

    const list = RelatedPagedListSchema.parse(
      (await h.request('GET', url(ticket), { token: h.tokens.member })).json,
    );
    expect(list.total).toBe(2);
    expect(list.items.map(({ id, type, alias }) => ({ id, type, alias }))).toEqual([
      { id: task, type: 'TASK', alias: 'tasks' },
      { id: customer, type: 'ELEMENT', alias: 'customers' },
    ]);
    expect(list.items[0]?.cursor).toBeTruthy();

    const back = RelatedPagedListSchema.parse(
      (await h.request('GET', `/v1/tasks/tasks/${task}/related-items`, { token: h.tokens.member }))
        .json,
    );
    expect(back.items.map((item) => [item.id, item.type])).toEqual([[ticket, 'APP']]);
  });

  it('pages with first/after using the inline cursors', async () => {
    const first = RelatedPagedListSchema.parse(
      (await h.request('GET', `${url(ticket)}?first=1`, { token: h.tokens.member })).json,
    );
    expect(first.items).toHaveLength(1);
    expect(first.paging.has_next_page).toBe(true);
    const cursor = first.items[0]?.cursor ?? '';
    const second = RelatedPagedListSchema.parse(
      (await h.request('GET', `${url(ticket)}?first=1&after=${cursor}`, { token: h.tokens.member }))
        .json,
    );
    expect(second.items.map((item) => item.id)).toEqual([customer]);
    expect(second.paging).toMatchObject({ has_previous_page: true, has_next_page: false });
    expect(
      (await h.request('GET', `${url(ticket)}?after=${cursor}x`, { token: h.tokens.member }))
        .status,
    ).toBe(400);
  });

  it('rejects relating to itself, to an unknown record, or with the wrong alias (422 naming the field)', async () => {
    for (const [body, field] of [
      [{ id: ticket }, 'id'],
      [{ id: 'SUP-99999' }, 'id'],
      [{ id: 'NOPE-1' }, 'id'],
      [{ id: task, alias: 'customers' }, 'alias'],
      [{}, 'id'],
    ] as const) {
      const res = await h.request('POST', url(ticket), { token: h.tokens.member, body });
      expect(res.status).toBe(422);
      expect(ProblemSchema.parse(res.json).errors?.[0]?.field).toBe(field);
    }
    expect(
      (await h.request('POST', url(ticket), { token: h.tokens.member, body: '{' })).status,
    ).toBe(400);
  });

  it('answers 403 for a target in a definition closed to the caller, whether or not it exists', async () => {
    const existing = await h.request('POST', url(ticket), {
      token: h.tokens.member,
      body: { id: refund },
    });
    const missing = await h.request('POST', url(ticket), {
      token: h.tokens.member,
      body: { id: 'REF-424242' },
    });
    expect([existing.status, missing.status]).toEqual([403, 403]);
    // An admin may, and the member does not see the hidden relation in the list or the total.
    expect(
      (await h.request('POST', url(ticket), { token: h.tokens.admin, body: { id: refund } }))
        .status,
    ).toBe(201);
    const seen = RelatedPagedListSchema.parse(
      (await h.request('GET', url(ticket), { token: h.tokens.member })).json,
    );
    expect(seen.items.map((item) => item.id)).not.toContain(refund);
    expect(seen.total).toBe(2);
    const all = RelatedPagedListSchema.parse(
      (await h.request('GET', url(ticket), { token: h.tokens.admin })).json,
    );
    expect(all.items.find((item) => item.id === refund)?.type).toBe('TRANSACTION');
  });

  it('deletes both directions (200) and answers 404 for an unknown relation', async () => {
    expect(
      (await h.request('POST', url(ticket), { token: h.tokens.member, body: { id: other } }))
        .status,
    ).toBe(201);
    expect(
      (await h.request('DELETE', `${url(other)}/${ticket}`, { token: h.tokens.member })).status,
    ).toBe(200);
    const mine = RelatedPagedListSchema.parse(
      (await h.request('GET', url(ticket), { token: h.tokens.admin })).json,
    );
    expect(mine.items.map((item) => item.id)).not.toContain(other);
    const rows = await h.db
      .selectFrom('record_relations')
      .selectAll()
      .where('record_id', 'in', [ticket, other])
      .where('related_id', 'in', [ticket, other])
      .execute();
    expect(rows).toHaveLength(0);
    const again = await h.request('DELETE', `${url(other)}/${ticket}`, { token: h.tokens.member });
    expect(again.status).toBe(404);
    ProblemSchema.parse(again.json);
  });

  it('guards the record itself: 404 unknown record, 403 closed definition, 401 without token', async () => {
    expect((await h.request('GET', url('SUP-77777'), { token: h.tokens.member })).status).toBe(404);
    expect(
      (
        await h.request('GET', `/v1/transactions/refunds/${refund}/related-items`, {
          token: h.tokens.member,
        })
      ).status,
    ).toBe(403);
    expect((await h.request('GET', url(ticket))).status).toBe(401);
    expect(
      (await h.request('GET', `/v1/apps/nope/${ticket}/related-items`, { token: h.tokens.member }))
        .status,
    ).toBe(404);
  });
});
