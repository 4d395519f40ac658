import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ProblemSchema } from '@wsc/api-client';
import { RecordPagedListSchema, StoredRecordSchema } from '@wsc/api-client/strict';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const TICKETS = '/v1/apps/support-tickets';

async function create(body: Record<string, unknown>, token = h.tokens.member) {
  return h.request('POST', TICKETS, { token, body });
}

describe('create', () => {
  it('creates a record with a handle id, typed values and attribution to the credential owner', async () => {
    const res = await create({
      Title: 'Printer on fire',
      Status: 'New',
      Severity: 'High',
      Priority: '2',
      Assignee: 'ADMIN@example.com',
      'Due Date': '2024-06-30',
      'Resolved At': '2024-06-01T10:00:00.000Z',
      Tags: 'vip,urgent',
      Billable: 'TRUE',
      id: 'SUP-999',
      'Created By': 'someone@else.com',
    });
    expect(res.status).toBe(201);
    const record = StoredRecordSchema.parse(res.json);
    expect(record.id).toMatch(/^SUP-\d+$/);
    expect(record.id).not.toBe('SUP-999');
    expect(record['Created By']).toBe('agent@example.com');
    expect(record['Updated By']).toBe('agent@example.com');
    expect(record['Created At']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(record.Assignee).toBe('admin@example.com');
    expect(record.Tags).toBe('vip, urgent');
    expect(record.Billable).toBe('true');
    expect(res.headers.get('ETag')).toBe(`"${record.id}.1"`);
    expect(res.headers.get('Location')).toBe(`${TICKETS}/${record.id}`);
  });

  it('numbers handles consecutively per definition', async () => {
    const a = StoredRecordSchema.parse((await create({ Title: 'a', Status: 'New' })).json);
    const b = StoredRecordSchema.parse((await create({ Title: 'b', Status: 'New' })).json);
    expect(Number(b.id.split('-')[1])).toBe(Number(a.id.split('-')[1]) + 1);
    const task = await h.request('POST', '/v1/tasks/tasks', {
      token: h.tokens.member,
      body: { Title: 't', Status: 'To Do' },
    });
    expect(StoredRecordSchema.parse(task.json).id).toBe('TSK-1');
  });

  it('answers 422 listing every problem', async () => {
    const res = await create({
      Status: 'Bogus',
      Severity: 'low',
      Priority: 'high',
      Assignee: 'nobody@example.com',
      'Due Date': '2024-02-30',
      'Resolved At': '2024-06-01 10:00',
      Tags: 'vip,unknown',
      Billable: 'yes',
      Customer: 42,
      Unknown: 'x',
    });
    expect(res.status).toBe(422);
    const problem = ProblemSchema.parse(res.json);
    const fields = new Map((problem.errors ?? []).map((error) => [error.field, error.message]));
    expect([...fields.keys()].sort()).toEqual(
      [
        'Assignee',
        'Billable',
        'Customer',
        'Due Date',
        'Priority',
        'Resolved At',
        'Severity',
        'Status',
        'Tags',
        'Title',
        'Unknown',
      ].sort(),
    );
    expect(fields.get('Title')).toBe('Required');
    expect(fields.get('Customer')).toMatch(/string/);
    expect(fields.get('Unknown')).toMatch(/Unknown field/);
  });

  it('rejects an inactive user in a user field', async () => {
    const res = await create({ Title: 't', Status: 'New', Assignee: 'gone@example.com' });
    expect(res.status).toBe(422);
    expect(ProblemSchema.parse(res.json).errors?.[0]?.field).toBe('Assignee');
  });

  it('answers 400 for malformed JSON and 422 for a non-object body', async () => {
    const bad = await h.request('POST', TICKETS, {
      token: h.tokens.member,
      body: '{"Title":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    ProblemSchema.parse(bad.json);
    const array = await create(['x'] as unknown as Record<string, unknown>);
    expect(array.status).toBe(422);
  });
});

describe('get and update', () => {
  it('gets a record with an ETag and honours If-None-Match', async () => {
    const created = StoredRecordSchema.parse(
      (await create({ Title: 'Get me', Status: 'Open' })).json,
    );
    const res = await h.request('GET', `${TICKETS}/${created.id}`, { token: h.tokens.member });
    expect(res.status).toBe(200);
    expect(StoredRecordSchema.parse(res.json)).toEqual(created);
    const etag = res.headers.get('ETag') ?? '';
    const again = await h.request('GET', `${TICKETS}/${created.id}`, {
      token: h.tokens.member,
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('merges a PUT, ignores system fields, clears with "", attributes the writer', async () => {
    const created = StoredRecordSchema.parse(
      (await create({ Title: 'Merge', Status: 'New', Customer: 'Acme', Priority: '1' })).json,
    );
    const res = await h.request('PUT', `${TICKETS}/${created.id}`, {
      token: h.tokens.admin,
      body: { Status: 'Pending', Priority: '', 'Created By': 'x@y.z', id: 'SUP-1' },
    });
    expect(res.status).toBe(200);
    const updated = StoredRecordSchema.parse(res.json);
    expect(updated).toMatchObject({
      id: created.id,
      Title: 'Merge',
      Status: 'Pending',
      Customer: 'Acme',
    });
    expect(updated.Priority).toBeUndefined();
    expect(updated['Created By']).toBe('agent@example.com');
    expect(updated['Updated By']).toBe('admin@example.com');
    expect(res.headers.get('ETag')).toBe(`"${created.id}.2"`);
  });

  it('answers 412 for a stale If-Match and applies a current one', async () => {
    const createdRes = await create({ Title: 'Race', Status: 'New' });
    const created = StoredRecordSchema.parse(createdRes.json);
    const etag = createdRes.headers.get('ETag') ?? '';
    const first = await h.request('PUT', `${TICKETS}/${created.id}`, {
      token: h.tokens.member,
      body: { Status: 'Open' },
      headers: { 'If-Match': etag },
    });
    expect(first.status).toBe(200);
    const stale = await h.request('PUT', `${TICKETS}/${created.id}`, {
      token: h.tokens.member,
      body: { Status: 'Closed' },
      headers: { 'If-Match': etag },
    });
    expect(stale.status).toBe(412);
    expect(ProblemSchema.parse(stale.json).status).toBe(412);
    const current = await h.request('GET', `${TICKETS}/${created.id}`, { token: h.tokens.member });
    expect(StoredRecordSchema.parse(current.json).Status).toBe('Open');
  });

  it('validates updates: required fields cannot be cleared, values are checked', async () => {
    const created = StoredRecordSchema.parse(
      (await create({ Title: 'Strict', Status: 'New' })).json,
    );
    const res = await h.request('PUT', `${TICKETS}/${created.id}`, {
      token: h.tokens.member,
      body: { Title: '', Severity: 'Huge' },
    });
    expect(res.status).toBe(422);
    expect(
      ProblemSchema.parse(res.json)
        .errors?.map((e) => e.field)
        .sort(),
    ).toEqual(['Severity', 'Title']);
  });
});

describe('not found and permissions', () => {
  it('answers 404 for unknown record types, aliases and ids', async () => {
    for (const path of [
      '/v1/widgets/support-tickets',
      '/v1/apps/nope',
      `${TICKETS}/SUP-99999`,
      `${TICKETS}/CUS-1`,
      '/v1/elements/support-tickets',
    ]) {
      const res = await h.request('GET', path, { token: h.tokens.admin });
      expect(res.status, path).toBe(404);
      ProblemSchema.parse(res.json);
    }
  });

  it('gives a member 403 on a definition closed to their groups, and an admin access', async () => {
    const denied = await h.request('GET', '/v1/transactions/refunds', { token: h.tokens.member });
    expect(denied.status).toBe(403);
    ProblemSchema.parse(denied.json);
    const write = await h.request('POST', '/v1/transactions/refunds', {
      token: h.tokens.member,
      body: { Reason: 'x' },
    });
    expect(write.status).toBe(403);
    const billing = await h.request('POST', '/v1/transactions/refunds', {
      token: h.tokens.billing,
      body: { Reason: 'Double charge', Amount: '19.99', Currency: 'EUR', Status: 'Requested' },
    });
    expect(billing.status).toBe(201);
    const admin = await h.request('GET', '/v1/transactions/refunds', { token: h.tokens.admin });
    expect(RecordPagedListSchema.parse(admin.json).total).toBe(1);
    const billingTickets = await h.request('GET', TICKETS, { token: h.tokens.billing });
    expect(billingTickets.status).toBe(403);
  });
});

describe('reading a batch by handle', () => {
  it('answers `id=in=(...)` with exactly those records, first = the batch size (ADR 0030)', async () => {
    const ids: string[] = [];
    for (const title of ['Batch 1', 'Batch 2', 'Batch 3']) {
      ids.push(StoredRecordSchema.parse((await create({ Title: title, Status: 'Open' })).json).id);
    }
    const wanted = [ids[2] ?? '', ids[0] ?? ''];
    const res = await h.request(
      'GET',
      `${TICKETS}?first=${wanted.length}&filter=${encodeURIComponent(`id=in=(${wanted.join(',')})`)}`,
      { token: h.tokens.member },
    );
    expect(res.status, res.text).toBe(200);
    const page = RecordPagedListSchema.parse(res.json);
    expect(page.items.map((item) => item.data.id).sort()).toEqual([...wanted].sort());
    expect(page.paging.has_next_page).toBe(false);
  });
});

describe('search paging', () => {
  it('pages forwards and backwards with cursors, stable by creation, with total', async () => {
    for (let i = 0; i < 7; i += 1)
      await h.request('POST', '/v1/elements/customers', {
        token: h.tokens.admin,
        body: { Name: `Customer ${i}`, Plan: 'Free' },
      });
    const first = RecordPagedListSchema.parse(
      (await h.request('GET', '/v1/elements/customers?first=3', { token: h.tokens.admin })).json,
    );
    expect(first.total).toBe(7);
    expect(first.items.map((item) => item.data.Name)).toEqual([
      'Customer 0',
      'Customer 1',
      'Customer 2',
    ]);
    expect(first.paging).toMatchObject({ has_next_page: true, has_previous_page: false });
    const after = encodeURIComponent(first.paging.end_cursor ?? '');
    const second = RecordPagedListSchema.parse(
      (
        await h.request('GET', `/v1/elements/customers?first=3&after=${after}`, {
          token: h.tokens.admin,
        })
      ).json,
    );
    expect(second.items.map((item) => item.data.Name)).toEqual([
      'Customer 3',
      'Customer 4',
      'Customer 5',
    ]);
    expect(second.paging.has_previous_page).toBe(true);
    const third = RecordPagedListSchema.parse(
      (
        await h.request(
          'GET',
          `/v1/elements/customers?first=3&after=${encodeURIComponent(second.paging.end_cursor ?? '')}`,
          { token: h.tokens.admin },
        )
      ).json,
    );
    expect(third.items.map((item) => item.data.Name)).toEqual(['Customer 6']);
    expect(third.paging.has_next_page).toBe(false);
    const back = RecordPagedListSchema.parse(
      (
        await h.request(
          'GET',
          `/v1/elements/customers?last=2&before=${encodeURIComponent(third.paging.start_cursor ?? '')}`,
          { token: h.tokens.admin },
        )
      ).json,
    );
    expect(back.items.map((item) => item.data.Name)).toEqual(['Customer 4', 'Customer 5']);
    expect(back.paging).toMatchObject({ has_previous_page: true, has_next_page: true });
    const last = RecordPagedListSchema.parse(
      (await h.request('GET', '/v1/elements/customers?last=2', { token: h.tokens.admin })).json,
    );
    expect(last.items.map((item) => item.data.Name)).toEqual(['Customer 5', 'Customer 6']);
    // An item's own cursor continues after it.
    const fromItem = RecordPagedListSchema.parse(
      (
        await h.request(
          'GET',
          `/v1/elements/customers?first=1&after=${encodeURIComponent(first.items[0]?.cursor ?? '')}`,
          { token: h.tokens.admin },
        )
      ).json,
    );
    expect(fromItem.items[0]?.data.Name).toBe('Customer 1');
  });

  it('pages with a sort, including ties and empty values, without gaps or repeats', async () => {
    const plans = ['Business', 'Free', 'Enterprise', 'Starter'];
    for (let i = 0; i < 9; i += 1) {
      await h.request('POST', '/v1/elements/customers', {
        token: h.tokens.admin,
        body: {
          Name: `Sorted ${i}`,
          Plan: plans[i % 4] ?? 'Free',
          ...(i % 3 === 0 ? {} : { Seats: String(i % 4) }),
        },
      });
    }
    const filter = encodeURIComponent('Name=lk=Sorted');
    const all = RecordPagedListSchema.parse(
      (
        await h.request(
          'GET',
          `/v1/elements/customers?filter=${filter}&sort=-Seats,Name&first=100`,
          { token: h.tokens.admin },
        )
      ).json,
    );
    const expected = all.items.map((item) => item.data.Name);
    expect(expected).toHaveLength(9);
    const seats = all.items.map((item) => item.data.Seats ?? null);
    const nonNull = seats.filter((s) => s !== null).map(Number);
    expect(nonNull).toEqual([...nonNull].sort((a, b) => b - a));
    expect(seats.slice(nonNull.length).every((s) => s === null)).toBe(true);
    const collected: string[] = [];
    let after = '';
    for (let guard = 0; guard < 10; guard += 1) {
      const res = await h.request(
        'GET',
        `/v1/elements/customers?filter=${filter}&sort=-Seats,Name&first=2${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        { token: h.tokens.admin },
      );
      const page = RecordPagedListSchema.parse(res.json);
      collected.push(...page.items.map((item) => String(item.data.Name)));
      if (!page.paging.has_next_page) break;
      after = page.paging.end_cursor ?? '';
    }
    expect(collected).toEqual(expected);
    // Backwards from the end gives the same sequence.
    const backwards: string[] = [];
    let before = '';
    for (let guard = 0; guard < 10; guard += 1) {
      const res = await h.request(
        'GET',
        `/v1/elements/customers?filter=${filter}&sort=-Seats,Name&last=2${before ? `&before=${encodeURIComponent(before)}` : ''}`,
        { token: h.tokens.admin },
      );
      const page = RecordPagedListSchema.parse(res.json);
      backwards.unshift(...page.items.map((item) => String(item.data.Name)));
      if (!page.paging.has_previous_page) break;
      before = page.paging.start_cursor ?? '';
    }
    expect(backwards).toEqual(expected);
  });

  it('answers a NUMBER range AND-ed with other conditions by value, across pages', async () => {
    // The search enumerates such a range's stored values (statements.ts resolveFilter): 1.0 and
    // 1 are one value, 10 sorts after 2, and an empty Seats is never in a range.
    const seats = ['1.0', '1', '2', '10', '-3', '', '2.5'];
    for (const [i, value] of seats.entries()) {
      await h.request('POST', '/v1/elements/customers', {
        token: h.tokens.admin,
        body: { Name: `Ranged ${i}`, Plan: 'Free', ...(value ? { Seats: value } : {}) },
      });
    }
    const names = async (filter: string) => {
      const collected: string[] = [];
      const totals = new Set<number>();
      let after = '';
      for (let guard = 0; guard < 10; guard += 1) {
        const res = await h.request(
          'GET',
          `/v1/elements/customers?filter=${encodeURIComponent(filter)}&sort=Name&first=2${after ? `&after=${encodeURIComponent(after)}` : ''}`,
          { token: h.tokens.admin },
        );
        const page = RecordPagedListSchema.parse(res.json);
        totals.add(page.total);
        collected.push(...page.items.map((item) => String(item.data.Name).replace('Ranged ', '')));
        if (!page.paging.has_next_page) break;
        after = page.paging.end_cursor ?? '';
      }
      expect([...totals]).toEqual([collected.length]);
      return collected;
    };
    expect(await names('Name=lk=Ranged;Seats=le=2')).toEqual(['0', '1', '2', '4']);
    expect(await names('Name=lk=Ranged;Seats=gt=1')).toEqual(['2', '3', '6']);
    expect(await names('Name=lk=Ranged;Seats=bt=(1,2)')).toEqual(['0', '1', '2']);
    expect(await names('Name=lk=Ranged;Seats=lt=-3')).toEqual([]);
    expect(await names('(Name=="Ranged 3",Name=lk=Ranged);(Seats=ge=2.5,Seats=lt=0)')).toEqual([
      '3',
      '4',
      '6',
    ]);
  });

  it('sorts by Created At descending and by text', async () => {
    const res = await h.request(
      'GET',
      `/v1/elements/customers?sort=${encodeURIComponent('-Created At')}&first=1000`,
      { token: h.tokens.admin },
    );
    const list = RecordPagedListSchema.parse(res.json);
    const stamps = list.items.map((item) => String(item.data['Created At']));
    expect(stamps).toEqual([...stamps].sort().reverse());
  });

  it('rejects tampered, foreign and malformed paging parameters with 400', async () => {
    const page = RecordPagedListSchema.parse(
      (await h.request('GET', '/v1/elements/customers?first=1', { token: h.tokens.admin })).json,
    );
    const cursor = page.paging.end_cursor ?? '';
    const [body = '', signature = ''] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ k: [], s: 0 })).toString('base64url')}.${signature}`;
    const cases = [
      `after=${encodeURIComponent(forged)}`,
      `after=${encodeURIComponent(`${body}.${signature.slice(0, -2)}AA`)}`,
      'after=garbage',
      `after=${encodeURIComponent(cursor)}&sort=Name`,
      'first=0',
      'first=1001',
      'first=abc',
      'first=2&last=2',
      `sort=${encodeURIComponent('Nope')}`,
    ];
    for (const query of cases) {
      const res = await h.request('GET', `/v1/elements/customers?${query}`, {
        token: h.tokens.admin,
      });
      expect(res.status, query).toBe(400);
      ProblemSchema.parse(res.json);
    }
    // A cursor from another list is refused too.
    const foreign = await h.request('GET', `/v1/tasks/tasks?after=${encodeURIComponent(cursor)}`, {
      token: h.tokens.admin,
    });
    expect(foreign.status).toBe(400);
  });
});
