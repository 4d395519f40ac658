// The record history's administrators' side and its readers' bounds, through HTTP over the REAL
// workspace API (issue 26): the erase of one record's history and of everything kept about one
// person (nothing of them left in any table afterwards), the people the log names, NUL in the
// log's filters (a 400 naming the parameter, never a 500: L6), and related items whose target the
// reader cannot see masked in the per-record history (L2: the agent and a refund).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HistoryPage } from '@wsc/api-client/bff-history';
import {
  HIDDEN_RELATED_ITEM,
  HistoryActorListSchema,
  HistoryPageSchema,
  PersonErasedSchema,
  RecordHistoryErasedSchema,
} from '@wsc/api-client/bff-history';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';
import { proxiedWrite, startRealApi } from '../../../test/real-api.ts';
import { regionFor } from '../../lib/config.ts';
import { presenceStore } from '../events/events.store.ts';

let real: Awaited<ReturnType<typeof startRealApi>>;
let bff: Harness;
let admin: string;
let member: string;

const TICKETS = '/api/v1/apps/support-tickets';

beforeAll(async () => {
  real = await startRealApi();
  bff = await createHarness({
    upstream: real.upstream,
    config: { regions: [regionFor('default', real.apiUrl)] },
  });
  admin = await signIn('admin');
  member = await signIn('member');
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await real?.close();
});

async function signIn(who: 'admin' | 'member' | 'billing'): Promise<string> {
  const { res, cookie } = await bff.login(real.api.credentials[who]);
  expect(res.status).toBe(200);
  return cookie;
}

async function created(res: Response): Promise<string> {
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A refund (billing and administrators may create them; the agent cannot see them). */
const createRefund = async (cookie: string, reason: string) =>
  created(
    await proxiedWrite(bff, cookie, 'POST', '/api/v1/transactions/refunds', {
      Reason: reason,
      Amount: '120',
      Currency: 'USD',
      Status: 'Requested',
    }),
  );

const createTicket = async (cookie = admin) =>
  created(await proxiedWrite(bff, cookie, 'POST', TICKETS, { Title: 'Erase me', Status: 'New' }));

async function historyOf(cookie: string, path: string): Promise<HistoryPage> {
  const res = await bff.api(`/bff/history/${path}`, { cookie });
  expect(res.status).toBe(200);
  return HistoryPageSchema.parse(await res.json());
}

/** Every table of the store whose rows, as JSON text, mention `text` (with their counts). */
async function tablesMentioning(text: string): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(bff.store.db);
  const found: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(name)} t
      where row_to_json(t)::text like ${`%${text}%`}`.execute(bff.store.db);
    if ((rows[0]?.n ?? 0) > 0) found[name] = rows[0]?.n ?? 0;
  }
  return found;
}

describe("the administrators' filters refuse text the store cannot hold (L6)", () => {
  it('answers 400 naming the parameter for a NUL, never a 500', async () => {
    for (const [query, field] of [
      ['?user=%00', 'user'],
      ['?alias=a%00b', 'alias'],
      ['?user=ok&alias=%00', 'alias'],
    ] as const) {
      for (const path of ['/bff/history', '/bff/history/export.csv']) {
        const res = await bff.api(`${path}${query}`, { cookie: admin });
        expect(res.status, `${path}${query}`).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const body = (await res.json()) as { errors: { field: string }[] };
        expect(body.errors.map((e) => e.field)).toContain(field);
      }
    }
  });
});

describe('related items the reader cannot see (L2)', () => {
  it("are masked in the record's history for the agent, shown to the administrator", async () => {
    const refund = await createRefund(admin, 'Refund for Acme');
    const customer = await created(
      await proxiedWrite(bff, admin, 'POST', '/api/v1/elements/customers', {
        Name: 'Acme Corp',
        Plan: 'Business',
      }),
    );
    const id = await createTicket();
    const related = `${TICKETS}/${id}/related-items`;
    for (const target of [refund, customer]) {
      const res = await proxiedWrite(bff, admin, 'POST', related, { id: target });
      expect(res.status).toBe(201);
    }
    expect((await proxiedWrite(bff, admin, 'DELETE', `${related}/${refund}`)).status).toBe(200);
    // The agent's related-items list does not show the refund.
    const listed = await bff.api(related, { cookie: member });
    expect(JSON.stringify(await listed.json())).not.toContain(refund);

    const path = `apps/support-tickets/${id}`;
    const values = (page: HistoryPage) =>
      page.items
        .filter((e) => e.kind.startsWith('related-item'))
        .map((e) => [e.kind, e.before, e.after]);
    expect(values(await historyOf(member, path))).toEqual([
      ['related-item-removed', HIDDEN_RELATED_ITEM, null],
      ['related-item-added', null, customer],
      ['related-item-added', null, HIDDEN_RELATED_ITEM],
    ]);
    expect(JSON.stringify(await historyOf(member, path))).not.toContain(refund);
    expect(values(await historyOf(admin, path))).toEqual([
      ['related-item-removed', refund, null],
      ['related-item-added', null, customer],
      ['related-item-added', null, refund],
    ]);
  });
});

describe('GET /bff/history/actors', () => {
  it('lists the people the log names by id, with their name and identity kind; 403 to others', async () => {
    await createTicket(member);
    const res = await bff.api('/bff/history/actors', { cookie: admin });
    expect(res.status).toBe(200);
    const { items } = HistoryActorListSchema.parse(await res.json());
    expect(items).toEqual(
      expect.arrayContaining([
        { id: real.api.users.admin.id, name: 'Ada Admin', identity: 'api' },
        { id: real.api.users.member.id, name: 'Sam Agent', identity: 'api' },
      ]),
    );
    expect((await bff.api('/bff/history/actors', { cookie: member })).status).toBe(403);
  });
});

describe("DELETE /bff/history/{recordType}/{alias}/{id}: one record's history", () => {
  it('erases that record only, for administrators, with the CSRF header', async () => {
    const gone = await createTicket();
    const kept = await createTicket();
    const path = `/bff/history/apps/support-tickets/${gone}`;
    expect((await bff.api(path, { method: 'DELETE', cookie: member })).status).toBe(403);
    expect((await bff.api(path, { method: 'DELETE', cookie: admin, csrf: false })).status).toBe(
      403,
    );
    expect(
      (await bff.api('/bff/history/rockets/x/SUP-1', { method: 'DELETE', cookie: admin })).status,
    ).toBe(400);
    const nul = await bff.api('/bff/history/apps/support-tickets/SUP-1%00', {
      method: 'DELETE',
      cookie: admin,
    });
    // Refused before routing (the app's path rules), never stored or matched.
    expect(nul.status).toBe(400);
    expect((await historyOf(admin, `apps/support-tickets/${gone}`)).items.length).toBe(2);

    const res = await bff.api(path, { method: 'DELETE', cookie: admin });
    expect(res.status).toBe(200);
    expect(RecordHistoryErasedSchema.parse(await res.json())).toEqual({ history: 2 });
    expect((await historyOf(admin, `apps/support-tickets/${gone}`)).items).toEqual([]);
    expect((await historyOf(admin, `apps/support-tickets/${kept}`)).items.length).toBe(2);
    expect(await tablesMentioning(`"record_id":"${gone}"`)).toEqual({});
  });
});

describe('DELETE /bff/history/people/{ownerId}: everything kept about one person', () => {
  it('leaves nothing of them in any table, ends their sessions, and keeps everyone else', async () => {
    // Billing, from the extended API: their owner id is their user id.
    const person = real.api.users.billing.id;
    const billing = await signIn('billing');
    const second = await signIn('billing');
    const refund = await createRefund(billing, 'Mine');
    const view = await created(
      await bff.api('/bff/views', {
        method: 'POST',
        cookie: billing,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'My refunds', recordType: 'transactions', alias: 'refunds' }),
      }),
    );
    const shared = await bff.api(`/bff/views/${view}/shares`, {
      method: 'PUT',
      cookie: billing,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ everyone: true, groups: [] }),
    });
    expect(shared.status).toBe(200);
    await created(
      await bff.api('/bff/bulk-runs', {
        method: 'POST',
        cookie: billing,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          recordType: 'transactions',
          alias: 'refunds',
          changes: { Amount: '6' },
          records: [{ id: refund, before: { Amount: '120' } }],
        }),
      }),
    );
    await bff.store.db
      .insertInto('user_preferences')
      .values({ user_id: person, region: 'default', key: 'theme', value: '"dark"', updated_at: 1 })
      .execute();
    const hash = (
      await bff.store.db
        .selectFrom('sessions')
        .select('id_hash')
        .where('owner_id', '=', person)
        .executeTakeFirstOrThrow()
    ).id_hash;
    await presenceStore(bff.store.db).insert(
      {
        connectionId: crypto.randomUUID(),
        sessionHash: hash,
        instanceId: 'elsewhere',
        region: 'default',
        userId: person,
        userName: 'Bea Biller',
        userIdentity: 'api',
      },
      bff.clock.now(),
      bff.clock.now() + 60_000,
    );
    const mentioned = await tablesMentioning(person);
    expect(Object.keys(mentioned).sort()).toEqual(
      [
        'bulk_runs',
        'history_budget',
        'presence',
        'record_history',
        'saved_views',
        'sessions',
        'user_preferences',
      ].sort(),
    );
    const othersBefore = (await tablesMentioning(real.api.users.admin.id))['record_history'] ?? 0;
    expect(othersBefore).toBeGreaterThan(0);

    const path = `/bff/history/people/${person}`;
    expect((await bff.api(path, { method: 'DELETE', cookie: member })).status).toBe(403);
    expect((await bff.api(path, { method: 'DELETE', cookie: admin, csrf: false })).status).toBe(
      403,
    );
    const res = await bff.api(path, { method: 'DELETE', cookie: admin });
    expect(res.status).toBe(200);
    expect(PersonErasedSchema.parse(await res.json())).toEqual({
      history: 4,
      presence: 1,
      savedViews: 1,
      bulkRuns: 1,
      preferences: 1,
      sessions: 2,
      budget: 1,
    });

    expect(await tablesMentioning(person)).toEqual({});
    expect(await tablesMentioning('Bea Biller')).toEqual({});
    expect(await tablesMentioning('My refunds')).toEqual({});
    for (const cookie of [billing, second]) {
      expect((await bff.api('/bff/session', { cookie })).status).toBe(401);
    }
    // Everyone else's entries stay.
    expect((await tablesMentioning(real.api.users.admin.id))['record_history']).toBe(othersBefore);
    expect((await bff.api('/bff/session', { cookie: admin })).status).toBe(200);
    // Erasing again finds nothing; a NUL in the id is a 400.
    const again = await bff.api(path, { method: 'DELETE', cookie: admin });
    expect(PersonErasedSchema.parse(await again.json()).history).toBe(0);
    const bad = await bff.api('/bff/history/people/a%00b', { method: 'DELETE', cookie: admin });
    expect(bad.status).toBe(400);
  });
});
