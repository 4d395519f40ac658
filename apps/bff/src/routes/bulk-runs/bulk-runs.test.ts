// Bulk runs through HTTP on the BFF test harness: create, list, get, the undo result, per-user
// isolation (two people on the fake upstream), the caps (records, bytes, runs per user), expiry
// after 7 days, CSRF and bad input. Replies are checked against the schemas the OpenAPI document
// is built from.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BulkRun, BulkRunSummary } from '@wsc/api-client';
import {
  BulkRunListSchema,
  BulkRunSchema,
  BulkRunSummarySchema,
  createBffClient,
  MAX_BULK_RUN_RECORDS,
} from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import { OTHER_CLIENT_ID, OTHER_CLIENT_SECRET } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { BULK_RUN_TTL_MS, MAX_RUNS_PER_USER } from './bulk-runs.store.ts';

let h: Harness;
let ada: string;
let bob: string;

/** Unique per test, so each test's list holds only its own runs. */
let seq = 0;
const RUN = Date.now().toString(36);
const alias = () => `support-tickets-bulk-${RUN}-${++seq}`;

/**
 * `/v1/definitions` of the fake upstream: the aliases the tests use (a run is of a definition the
 * session may see).
 */
function definitionsRoute(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  if (req.url !== '/v1/definitions') {
    res.writeHead(404).end();
    return;
  }
  const items = Array.from({ length: 200 }, (_, i) => ({
    recordType: 'apps',
    alias: `support-tickets-bulk-${RUN}-${i + 1}`,
    name: 'Tickets',
    handle: 'SUP',
    fields: [],
  }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ items }));
}

const run = (a: string, extra: Record<string, unknown> = {}) => ({
  recordType: 'apps',
  alias: a,
  changes: { Status: 'Closed', Severity: 'Low' },
  records: [
    { id: 'SUP-1', before: { Status: 'New', Severity: 'High' } },
    { id: 'SUP-2', before: { Status: 'Open', Severity: '' } },
  ],
  ...extra,
});

function create(cookie: string, body: unknown) {
  return h.api('/bff/bulk-runs', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function created(cookie: string, body: unknown): Promise<BulkRunSummary> {
  const res = await create(cookie, body);
  expect(res.status).toBe(201);
  return BulkRunSummarySchema.parse(await res.json());
}

function putUndo(cookie: string, id: string, body: unknown) {
  return h.api(`/bff/bulk-runs/${id}/undo`, {
    method: 'PUT',
    cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const list = async (cookie: string, query = '') => {
  const res = await h.api(`/bff/bulk-runs${query}`, { cookie });
  expect(res.status).toBe(200);
  return BulkRunListSchema.parse(await res.json()).items;
};

async function signIn(clientId?: string, clientSecret?: string): Promise<string> {
  const { res, cookie } = await h.login(clientId ? { clientId, clientSecret } : {});
  expect(res.status).toBe(200);
  return cookie;
}

beforeAll(async () => {
  h = await createHarness();
  h.upstream.route = definitionsRoute;
  ada = await signIn();
  bob = await signIn(OTHER_CLIENT_ID, OTHER_CLIENT_SECRET);
});
afterAll(async () => {
  await h.close();
});

describe('POST /bff/bulk-runs', () => {
  it('keeps a run, lists it without records, and answers it whole by id', async () => {
    const a = alias();
    const res = await create(ada, run(a));
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const summary = BulkRunSummarySchema.parse(await res.json());
    expect(res.headers.get('location')).toBe(`/bff/bulk-runs/${summary.id}`);
    expect(summary).toMatchObject({
      recordType: 'apps',
      alias: a,
      changes: { Status: 'Closed', Severity: 'Low' },
      count: 2,
      createdAt: '2025-03-01T09:00:00.000Z',
      expiresAt: '2025-03-08T09:00:00.000Z',
      undo: null,
    });
    expect(summary).not.toHaveProperty('records');

    expect(await list(ada, `?recordType=apps&alias=${a}`)).toEqual([summary]);
    expect((await list(ada)).map((r) => r.id)).toContain(summary.id);

    const one = await h.api(`/bff/bulk-runs/${summary.id}`, { cookie: ada });
    expect(one.status).toBe(200);
    const full: BulkRun = BulkRunSchema.parse(await one.json());
    expect(full).toEqual({ ...summary, records: run(a).records });
  });

  it('answers 400 naming each bad field, never a 500', async () => {
    const res = await create(ada, {
      recordType: 'rockets',
      alias: 'a/b',
      changes: {},
      records: [],
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { errors: { field: string }[] };
    expect(body.errors.map((e) => e.field).sort()).toEqual([
      'alias',
      'changes',
      'recordType',
      'records',
    ]);

    const a = alias();
    const cases: [unknown, string][] = [
      [run(a, { records: [{ id: 'SUP-1', before: { Title: 'x' } }] }), 'records.0.before.Title'],
      [
        run(a, {
          records: [
            { id: 'SUP-1', before: {} },
            { id: 'SUP-1', before: {} },
          ],
        }),
        'records.1.id',
      ],
      [run(a, { records: [{ id: '', before: {} }] }), 'records.0.id'],
      [run(a, { changes: { Status: 'a\u0000b' } }), 'changes.Status'],
      [
        run(a, { records: [{ id: 'SUP-1', before: { Status: '\ud800' } }] }),
        'records.0.before.Status',
      ],
      [run(a, { changes: { Status: 5 } }), 'changes.Status'],
      [run(a, { extra: true }), '(body)'],
    ];
    for (const [input, field] of cases) {
      const bad = await create(ada, input);
      expect(bad.status, field).toBe(400);
      expect(
        ((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field),
      ).toContain(field);
    }
    expect((await create(ada, '{nope')).status).toBe(400);
    expect((await create(ada, '[]')).status).toBe(400);
    expect(await list(ada, `?recordType=apps&alias=${a}`)).toEqual([]);
  });

  it(`refuses more than ${MAX_BULK_RUN_RECORDS} records (400) and over 1 MiB (413)`, async () => {
    const a = alias();
    const many = Array.from({ length: MAX_BULK_RUN_RECORDS + 1 }, (_, i) => ({
      id: `SUP-${i}`,
      before: {},
    }));
    const tooMany = await create(ada, run(a, { records: many }));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ errors: [{ field: 'records' }] });

    const big = Array.from({ length: 20 }, (_, i) => ({
      id: `SUP-${i}`,
      before: { Status: 'x'.repeat(60_000) },
    }));
    const tooBig = await create(ada, run(a, { records: big }));
    expect(tooBig.status).toBe(413);
    expect(await list(ada, `?recordType=apps&alias=${a}`)).toEqual([]);
  });

  it('needs a session and X-CSRF', async () => {
    expect((await h.request('/bff/bulk-runs')).status).toBe(401);
    const noCsrf = await h.api('/bff/bulk-runs', {
      method: 'POST',
      cookie: ada,
      csrf: false,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(run(alias())),
    });
    expect(noCsrf.status).toBe(403);
  });

  it(`keeps the newest ${MAX_RUNS_PER_USER} runs of a user, pushing out the oldest`, async () => {
    const a = alias();
    const ids: string[] = [];
    for (let i = 0; i <= MAX_RUNS_PER_USER; i += 1) {
      h.clock.advance(1);
      ids.push((await created(ada, run(a))).id);
    }
    const all = await list(ada);
    expect(all).toHaveLength(MAX_RUNS_PER_USER);
    expect(all.map((r) => r.id)).toEqual(ids.slice(1).reverse());
    expect((await h.api(`/bff/bulk-runs/${ids[0]}`, { cookie: ada })).status).toBe(404);
    // The cap is per user: Bob's runs are his own.
    const bobs = await created(bob, run(a));
    expect((await list(ada)).map((r) => r.id)).not.toContain(bobs.id);
    expect((await list(ada)).map((r) => r.id)).toContain(ids.at(-1));
  });
});

describe('GET and PUT /bff/bulk-runs/{id}', () => {
  it("is a 404 for another user's run, for reading and for recording an undo", async () => {
    const mine = await created(ada, run(alias()));
    const get = await h.api(`/bff/bulk-runs/${mine.id}`, { cookie: bob });
    expect(get.status).toBe(404);
    expect(get.headers.get('content-type')).toBe('application/problem+json');
    const undo = { restored: 1, conflicts: 0, skipped: 0, failed: 0 };
    expect((await putUndo(bob, mine.id, undo)).status).toBe(404);
    expect((await list(bob)).map((r) => r.id)).not.toContain(mine.id);
    expect((await h.api('/bff/bulk-runs/not-a-uuid', { cookie: ada })).status).toBe(404);
    // Still Ada's, untouched.
    const again = BulkRunSchema.parse(
      await (await h.api(`/bff/bulk-runs/${mine.id}`, { cookie: ada })).json(),
    );
    expect(again.undo).toBeNull();
  });

  it('records how an undo went, and refuses counts the run cannot have', async () => {
    const mine = await created(ada, run(alias()));
    h.clock.advance(60_000);
    const res = await putUndo(ada, mine.id, { restored: 1, conflicts: 1, skipped: 0, failed: 0 });
    expect(res.status).toBe(200);
    const summary = BulkRunSummarySchema.parse(await res.json());
    expect(summary.undo).toEqual({
      restored: 1,
      conflicts: 1,
      skipped: 0,
      failed: 0,
      at: new Date(h.clock.now()).toISOString(),
    });
    expect(
      BulkRunSchema.parse(await (await h.api(`/bff/bulk-runs/${mine.id}`, { cookie: ada })).json())
        .undo,
    ).toEqual(summary.undo);

    const tooMany = await putUndo(ada, mine.id, {
      restored: 3,
      conflicts: 0,
      skipped: 0,
      failed: 0,
    });
    expect(tooMany.status).toBe(422);
    const bad = await putUndo(ada, mine.id, { restored: -1, conflicts: 'x', skipped: 0 });
    expect(bad.status).toBe(400);
    expect(
      ((await bad.json()) as { errors: { field: string }[] }).errors.map((e) => e.field).sort(),
    ).toEqual(['conflicts', 'failed', 'restored']);
  });

  it('forgets a run after 7 days, and the next run purges it from the store', async () => {
    const a = alias();
    const mine = await created(ada, run(a));
    h.clock.advance(BULK_RUN_TTL_MS - 1_000);
    // Sessions do not last a week: sign in again, as the user would.
    const later = await signIn();
    expect((await h.api(`/bff/bulk-runs/${mine.id}`, { cookie: later })).status).toBe(200);
    h.clock.advance(1_000);
    expect((await h.api(`/bff/bulk-runs/${mine.id}`, { cookie: later })).status).toBe(404);
    expect(await list(later, `?recordType=apps&alias=${a}`)).toEqual([]);
    const stored = () =>
      h.store.db.selectFrom('bulk_runs').select('id').where('id', '=', mine.id).execute();
    expect(await stored()).toHaveLength(1);
    await created(later, run(alias()));
    expect(await stored()).toHaveLength(0);
  });
});

describe('createBffClient().bulkRuns', () => {
  it('creates, lists, reads and records an undo through the console client', async () => {
    // A fresh session: the expiry test above moved the clock a week on.
    const cookie = await signIn();
    const bff = createBffClient({
      baseUrl: 'http://bff.test',
      fetch: (input, init) => {
        const url = new URL(String(input));
        const headers = new Headers(init?.headers);
        headers.set('cookie', `${SESSION_COOKIE}=${cookie}`);
        return h.request(url.pathname + url.search, { ...init, headers });
      },
    });
    const a = alias();
    const stored = await bff.bulkRuns.create({
      recordType: 'apps',
      alias: a,
      changes: { Status: 'Closed' },
      records: [{ id: 'SUP-9', before: { Status: 'New' } }],
    });
    expect((await bff.bulkRuns.list({ recordType: 'apps', alias: a })).items).toEqual([stored]);
    expect((await bff.bulkRuns.get(stored.id)).records).toEqual([
      { id: 'SUP-9', before: { Status: 'New' } },
    ]);
    const undone = await bff.bulkRuns.recordUndo(stored.id, {
      restored: 1,
      conflicts: 0,
      skipped: 0,
      failed: 0,
    });
    expect(undone.undo?.restored).toBe(1);
    await expect(bff.bulkRuns.get('6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f99')).rejects.toMatchObject({
      status: 404,
    });
  });
});
