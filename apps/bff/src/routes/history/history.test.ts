// The record history through HTTP: writes made through the BFF's proxy to the REAL workspace API
// (its `workspace-api/testing` harness on a loopback port) are kept per field with who, when,
// before and after and the console's source; the per-record read is limited to people who may read
// the record, the whole log to administrators (filters, paging, CSV). Failed writes keep nothing;
// the source header, tokens and cookies never reach the API or the table.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HistoryEntry, HistoryPage } from '@wsc/api-client/bff-history';
import { HISTORY_CSV_HEADER, HistoryPageSchema, NOT_KEPT_FIELD } from '@wsc/api-client/bff-history';

import type { Harness } from '../../../test/harness.ts';
import type { ApiHarness } from '../../../test/real-api.ts';
import type { BffConfig } from '../../lib/config.ts';
import { createHarness } from '../../../test/harness.ts';
import { parseCsv } from '../../../test/parse-csv.ts';
import { proxiedWrite, startRealApi } from '../../../test/real-api.ts';
import { regionFor } from '../../lib/config.ts';
import { MAX_HISTORY_VALUE_CHARS, TRUNCATED_MARKER } from './history.store.ts';

let real: Awaited<ReturnType<typeof startRealApi>>;
let api: ApiHarness;
let bff: Harness;
/** Every request the API received: method, path and headers. */
let received: Awaited<ReturnType<typeof startRealApi>>['received'];
let admin: string;
let member: string;
let billing: string;

const TICKETS = '/api/v1/apps/support-tickets';

beforeAll(async () => {
  real = await startRealApi();
  api = real.api;
  received = real.received;
  bff = await openBff();
  admin = await signIn(bff, 'admin');
  member = await signIn(bff, 'member');
  billing = await signIn(bff, 'billing');
});
afterAll(async () => {
  await bff?.close();
  await real?.close();
});

/** A BFF over the real API. */
function openBff(store?: Harness['store'], config: Partial<BffConfig> = {}): Promise<Harness> {
  return createHarness({
    upstream: real.upstream,
    config: { regions: [regionFor('default', real.apiUrl)], ...config },
    ...(store ? { store } : {}),
  });
}

async function signIn(h: Harness, who: 'admin' | 'member' | 'billing'): Promise<string> {
  const { res, cookie } = await h.login({
    clientId: api.credentials[who].clientId,
    clientSecret: api.credentials[who].clientSecret,
  });
  expect(res.status).toBe(200);
  return cookie;
}

/** A proxied write with a body, as the console sends it (Content-Length, optional source). */
function write(
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  options: { source?: string; type?: string; h?: Harness } = {},
) {
  return proxiedWrite(options.h ?? bff, cookie, method, path, body, options);
}

async function createTicket(fields: Record<string, string> = {}): Promise<string> {
  const res = await write(
    admin,
    'POST',
    TICKETS,
    { Title: 'Printer on fire', Status: 'New', ...fields },
    { source: 'create' },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function recordHistory(cookie: string, id: string, query = '', h = bff) {
  return h.api(`/bff/history/apps/support-tickets/${id}${query}`, { cookie });
}

async function historyOf(id: string, query = '', h = bff): Promise<HistoryPage> {
  const res = await recordHistory(admin, id, query, h);
  expect(res.status).toBe(200);
  return HistoryPageSchema.parse(await res.json());
}

const brief = (e: HistoryEntry) => ({
  kind: e.kind,
  field: e.field,
  before: e.before,
  after: e.after,
  source: e.source,
});

describe('capture in the proxy', () => {
  it('keeps an update per changed field with before, after, who and source; newest first', async () => {
    const id = await createTicket({ Severity: 'Low' });
    const res = await write(
      admin,
      'PUT',
      `${TICKETS}/${id}`,
      { Status: 'Open', Severity: 'Low', Customer: 'Acme' },
      { source: 'editor' },
    );
    expect(res.status).toBe(200);
    // The user's answer is the API's, unchanged.
    expect(((await res.json()) as Record<string, string>)['Status']).toBe('Open');

    const page = await historyOf(id);
    // Severity was sent unchanged: not a change. The create comes after the update (older).
    expect(page.items.map(brief)).toEqual([
      { kind: 'updated', field: 'Customer', before: null, after: 'Acme', source: 'editor' },
      { kind: 'updated', field: 'Status', before: 'New', after: 'Open', source: 'editor' },
      { kind: 'created', field: 'Severity', before: null, after: 'Low', source: 'create' },
      { kind: 'created', field: 'Status', before: null, after: 'New', source: 'create' },
      { kind: 'created', field: 'Title', before: null, after: 'Printer on fire', source: 'create' },
    ]);
    const [first] = page.items;
    expect(first?.actor).toEqual({ id: api.users.admin.id, name: 'Ada Admin' });
    expect(first?.at).toBe('2025-03-01T09:00:00.000Z');
    expect(first?.recordId).toBe(id);
    expect(page.items[0]?.changeId).toBe(page.items[1]?.changeId);
    expect(page.items[1]?.changeId).not.toBe(page.items[2]?.changeId);
    expect(page.next).toBeNull();
  });

  it('keeps related items, links, uploads, attachment removals, watchers and comments', async () => {
    const id = await createTicket();
    const other = await createTicket({ Title: 'Related one' });
    const base = `${TICKETS}/${id}`;
    const sent = received.length;
    expect(
      (
        await write(
          admin,
          'POST',
          `${base}/related-items`,
          { alias: 'support-tickets', id: other },
          { source: 'related-items' },
        )
      ).status,
    ).toBe(201);
    expect((await write(admin, 'DELETE', `${base}/related-items/${other}`)).status).toBe(200);
    const link = await write(admin, 'POST', `${base}/attachments/url-links`, {
      url: 'https://example.com/spec',
      description: 'Spec',
    });
    expect(link.status).toBe(201);

    const form = new FormData();
    form.append('file', new Blob(['hello, attachment']), 'note.txt');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const upload = await bff.api(`${base}/attachments`, {
      cookie: admin,
      method: 'POST',
      headers: {
        'content-type': encoded.headers.get('content-type') ?? '',
        'content-length': String(bytes.byteLength),
        'x-change-source': 'attachments',
      },
      body: bytes,
    });
    expect(upload.status).toBe(202);
    const attachment = (await upload.json()) as { id: string; name: string };
    expect(attachment.name).toBe('note.txt');
    expect((await write(admin, 'DELETE', `${base}/attachments/${attachment.id}`)).status).toBe(200);

    const watchers = { users: [api.users.member.email] };
    expect(
      (await write(admin, 'POST', `${base}/watchers`, watchers, { source: 'watchers' })).status,
    ).toBe(201);
    expect((await write(admin, 'DELETE', `${base}/watchers`, watchers)).status).toBe(200);
    const comment = await write(admin, 'POST', `${base}/comment`, 'Called the customer', {
      type: 'text/plain',
      source: 'comments',
    });
    expect(comment.status).toBe(201);

    const items = (await historyOf(id)).items.filter((e) => e.kind !== 'created');
    expect(items.map(brief).reverse()).toEqual([
      {
        kind: 'related-item-added',
        field: 'Related item',
        before: null,
        after: `support-tickets/${other}`,
        source: 'related-items',
      },
      {
        kind: 'related-item-removed',
        field: 'Related item',
        before: other,
        after: null,
        source: 'console',
      },
      {
        kind: 'attachment-added',
        field: 'Attachment',
        before: null,
        after: 'https://example.com/spec',
        source: 'console',
      },
      {
        kind: 'attachment-added',
        field: 'Attachment',
        before: null,
        after: 'note.txt',
        source: 'attachments',
      },
      {
        kind: 'attachment-removed',
        field: 'Attachment',
        before: attachment.id,
        after: null,
        source: 'console',
      },
      {
        kind: 'watchers-changed',
        field: 'Watchers added',
        before: null,
        after: api.users.member.email,
        source: 'watchers',
      },
      {
        kind: 'watchers-changed',
        field: 'Watchers removed',
        before: api.users.member.email,
        after: null,
        source: 'console',
      },
      {
        kind: 'comment-added',
        field: 'Comment',
        before: null,
        after: 'Called the customer',
        source: 'comments',
      },
    ]);
    // The source header never reached the API; only contract paths did.
    const calls = received.slice(sent);
    expect(calls.length).toBeGreaterThan(8);
    for (const call of calls) expect(call.headers.has('x-change-source')).toBe(false);
  });

  it('keeps nothing for a refused write, and names an unknown source `console`', async () => {
    const id = await createTicket();
    const before = (await historyOf(id)).items.length;
    const refused = await write(
      admin,
      'PUT',
      `${TICKETS}/${id}`,
      { Status: 'Nope' },
      { source: 'editor' },
    );
    expect(refused.status).toBe(422);
    const missing = await write(admin, 'PUT', `${TICKETS}/SUP-999999`, { Status: 'Open' });
    expect(missing.status).toBe(404);
    const unknownWatcher = await write(admin, 'POST', `${TICKETS}/${id}/watchers`, {
      users: ['nobody-at-all@example.com'],
    });
    expect(unknownWatcher.status).toBe(422);
    const missingComment = await write(admin, 'POST', `${TICKETS}/SUP-999999/comment`, 'Hello', {
      type: 'text/plain',
    });
    expect(missingComment.status).toBe(404);
    expect((await historyOf(id)).items).toHaveLength(before);
    const stray = await sql<{
      n: number;
    }>`select count(*)::int as n from record_history where record_id = 'SUP-999999'`.execute(
      bff.store.db,
    );
    expect(stray.rows[0]?.n).toBe(0);

    expect(
      (
        await write(
          admin,
          'PUT',
          `${TICKETS}/${id}`,
          { Status: 'Open' },
          { source: 'bulk-run:not-a-uuid' },
        )
      ).status,
    ).toBe(200);
    const runId = '0b9d4c1e-5f7a-4a8e-9c3d-2e1f0a9b8c7d';
    expect(
      (
        await write(
          admin,
          'PUT',
          `${TICKETS}/${id}`,
          { Status: 'Pending' },
          { source: `bulk-run:${runId}` },
        )
      ).status,
    ).toBe(200);
    const [latest, previous] = (await historyOf(id)).items;
    expect(latest?.source).toBe(`bulk-run:${runId}`);
    expect(previous?.source).toBe('console');
  });

  it('keeps text that reads as JSON as the text it is', async () => {
    const id = await createTicket({ Customer: '42' });
    expect((await write(admin, 'PUT', `${TICKETS}/${id}`, { Customer: 'null' })).status).toBe(200);
    expect((await write(admin, 'PUT', `${TICKETS}/${id}`, { Customer: '{"a":1}' })).status).toBe(
      200,
    );
    const customer = (await historyOf(id)).items.filter((e) => e.field === 'Customer');
    expect(customer.map((e) => [e.before, e.after])).toEqual([
      ['null', '{"a":1}'],
      ['42', 'null'],
      [null, '42'],
    ]);
  });

  it('keeps a long value cut with a marker', async () => {
    const id = await createTicket();
    const long = 'x'.repeat(MAX_HISTORY_VALUE_CHARS * 3);
    expect((await write(admin, 'PUT', `${TICKETS}/${id}`, { Description: long })).status).toBe(200);
    const [entry] = (await historyOf(id)).items;
    expect(entry?.field).toBe('Description');
    expect(entry?.after).toBe(`${'x'.repeat(MAX_HISTORY_VALUE_CHARS)}${TRUNCATED_MARKER}`);
  });

  it('never writes a token, a cookie or a header to the table', async () => {
    const id = await createTicket();
    const sent = received.length;
    expect(
      (await write(admin, 'PUT', `${TICKETS}/${id}`, { Status: 'Open' }, { source: 'editor' }))
        .status,
    ).toBe(200);
    const tokens = received
      .slice(sent)
      .map((call) => call.headers.get('authorization')?.replace(/^Bearer /, ''))
      .filter((t): t is string => Boolean(t));
    expect(tokens.length).toBeGreaterThan(0);
    const rows = await sql<{
      row: string;
    }>`select row_to_json(h)::text as row from record_history h`.execute(bff.store.db);
    const dump = rows.rows.map((r) => r.row).join('\n');
    expect(dump).toContain(id);
    for (const secret of [...tokens, admin, member, api.credentials.admin.clientSecret]) {
      expect(dump).not.toContain(secret);
    }
    expect(dump.toLowerCase()).not.toContain('bearer');
  });
});

describe('GET /bff/history/{recordType}/{alias}/{id}', () => {
  it('answers whoever may read the record, and 404 to someone who may not', async () => {
    const id = await createTicket();
    const mine = await recordHistory(member, id);
    expect(mine.status).toBe(200);
    expect(HistoryPageSchema.parse(await mine.json()).items.length).toBeGreaterThan(0);
    // Billing cannot read support tickets upstream: no history either, and no hint it exists.
    const theirs = await recordHistory(billing, id);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('content-type')).toBe('application/problem+json');
    expect((await recordHistory(admin, 'SUP-999999')).status).toBe(404);
    expect((await bff.api(`/bff/history/apps/support-tickets/${id}`)).status).toBe(401);
  });

  it('pages newest first with a cursor, and names a bad parameter', async () => {
    const id = await createTicket();
    for (const status of ['Open', 'Pending', 'Resolved']) {
      expect((await write(admin, 'PUT', `${TICKETS}/${id}`, { Status: status })).status).toBe(200);
    }
    const all = (await historyOf(id)).items.map((e) => e.id);
    expect(all).toHaveLength(5);
    const first = await historyOf(id, '?first=2');
    expect(first.items.map((e) => e.id)).toEqual(all.slice(0, 2));
    const second = await historyOf(id, `?first=2&after=${first.next}`);
    expect(second.items.map((e) => e.id)).toEqual(all.slice(2, 4));
    const third = await historyOf(id, `?first=2&after=${second.next}`);
    expect(third.items.map((e) => e.id)).toEqual(all.slice(4));
    expect(third.next).toBeNull();

    for (const [query, field] of [
      ['?first=0', 'first'],
      ['?first=500', 'first'],
      ['?after=abc', 'after'],
      ['?sort=up', '(body)'],
    ] as const) {
      const res = await recordHistory(admin, id, query);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { errors: { field: string }[] };
      expect(body.errors.map((e) => e.field)).toContain(field);
    }
    const badType = await bff.api(`/bff/history/rockets/support-tickets/${id}`, { cookie: admin });
    expect(badType.status).toBe(400);
    expect(((await badType.json()) as { errors: { field: string }[] }).errors[0]?.field).toBe(
      'recordType',
    );
  });
});

describe('the log survives', () => {
  it('a restart of the store (PGlite on disk), and a failing store never fails the write', async () => {
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openStore } = await import('../../db/store.ts');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bff-history-'));
    try {
      const store = await openStore({ kind: 'pglite', dataDir });
      const first = await openBff(store);
      const cookie = await signIn(first, 'admin');
      const id = await createTicket();
      expect(
        (await write(cookie, 'PUT', `${TICKETS}/${id}`, { Status: 'Open' }, { h: first })).status,
      ).toBe(200);
      await first.close();
      await store.close();

      const reopened = await openStore({ kind: 'pglite', dataDir });
      const second = await openBff(reopened);
      const again = await signIn(second, 'admin');
      const res = await second.api(`/bff/history/apps/support-tickets/${id}`, { cookie: again });
      expect(HistoryPageSchema.parse(await res.json()).items.map(brief)).toEqual([
        { kind: 'updated', field: 'Status', before: 'New', after: 'Open', source: 'console' },
      ]);

      // The table gone: the write still succeeds; the failure is logged and counted.
      await sql`alter table record_history rename to record_history_away`.execute(reopened.db);
      const ok = await write(
        again,
        'PUT',
        `${TICKETS}/${id}`,
        { Status: 'Pending' },
        { h: second },
      );
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as Record<string, string>)['Status']).toBe('Pending');
      expect(second.logs.some((l) => l.includes('record history write failed'))).toBe(true);
      expect(await second.metrics.registry.metrics()).toMatch(
        /wsc_bff_history_write_failures_total 1\b/,
      );
      await sql`alter table record_history_away rename to record_history`.execute(reopened.db);
      await second.close();
      await reopened.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the administrators’ log', () => {
  const list = async (query: string, cookie = admin) => {
    const res = await bff.api(`/bff/history${query}`, { cookie });
    expect(res.status, query).toBe(200);
    return HistoryPageSchema.parse(await res.json());
  };

  it('is refused to everyone else with 403', async () => {
    for (const path of ['/bff/history', '/bff/history/export.csv']) {
      const res = await bff.api(path, { cookie: member });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('filters by user, record type and time, and pages', async () => {
    const id = await createTicket();
    bff.clock.advance(10 * 60_000);
    const at = new Date(bff.clock.now()).toISOString();
    expect(
      (
        await write(
          member,
          'PUT',
          `${TICKETS}/${id}`,
          { Status: 'Open', Customer: 'Zed' },
          { source: 'triage' },
        )
      ).status,
    ).toBe(200);

    const byMember = await list(`?user=${api.users.member.id}`);
    expect(byMember.items.map((e) => e.actor.name)).toEqual(['Sam Agent', 'Sam Agent']);
    expect(byMember.items.map((e) => [e.field, e.after, e.source])).toEqual([
      ['Customer', 'Zed', 'triage'],
      ['Status', 'Open', 'triage'],
    ]);
    expect(byMember.items.map((e) => e.identity)).toEqual(['api', 'api']);
    // People are matched by their stable id only (issue 26): a name, which a typed email at
    // sign-in could imitate, matches nothing.
    const byName = await list('?user=sam%20AGENT');
    expect(byName.items).toEqual([]);
    const fromNow = await list(`?from=${encodeURIComponent(at)}`);
    expect(new Set(fromNow.items.map((e) => e.recordId))).toEqual(new Set([id]));
    const beforeNow = await list(`?to=${encodeURIComponent(at)}&first=200`);
    expect(beforeNow.items.length).toBeGreaterThan(0);
    expect(beforeNow.items.every((e) => Date.parse(e.at) < Date.parse(at))).toBe(true);
    // The store is shared by a worker's test files, so other files' changes may match these
    // filters: this test's record is what must not, and everything answered must match. A filter
    // ignored would answer the newest entries first, this record's among them.
    for (const [query, match] of [
      ['?recordType=tasks&first=200', (e: HistoryEntry) => e.recordType === 'tasks'],
      ['?alias=customers&first=200', (e: HistoryEntry) => e.alias === 'customers'],
    ] as const) {
      const { items } = await list(query);
      expect(
        items.some((e) => e.recordId === id),
        query,
      ).toBe(false);
      expect(items.every(match), query).toBe(true);
    }
    expect((await list('?first=200')).items.some((e) => e.recordId === id)).toBe(true);
    const tickets = await list('?recordType=apps&alias=support-tickets&first=3');
    expect(tickets.items).toHaveLength(3);
    const next = await list(`?recordType=apps&alias=support-tickets&first=3&after=${tickets.next}`);
    expect(Number(next.items[0]?.id)).toBeLessThan(Number(tickets.items[2]?.id));

    for (const [query, field] of [
      ['?from=yesterday', 'from'],
      [`?from=${encodeURIComponent(at)}&to=2020-01-01T00:00:00Z`, 'to'],
      ['?recordType=rockets', 'recordType'],
      ['?first=201', 'first'],
      ['?who=me', '(body)'],
    ] as const) {
      const res = await bff.api(`/bff/history${query}`, { cookie: admin });
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { errors: { field: string }[] };
      expect(
        body.errors.map((e) => e.field),
        query,
      ).toContain(field);
    }
  });

  it('exports CSV: ISO times, formulas neutralized, every matching row across batches', async () => {
    const id = await createTicket({ Title: '=HYPERLINK("http://evil")' });
    const res = await bff.api(`/bff/history/export.csv?user=${api.users.admin.id}`, {
      cookie: admin,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const bytes = new Uint8Array(await res.arrayBuffer());
    // A byte order mark, so a spreadsheet reads UTF-8 (text() would drop it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(new TextDecoder().decode(bytes));
    expect(header).toEqual([...HISTORY_CSV_HEADER]);
    const title = rows.find((r) => r[5] === id && r[7] === 'Title');
    expect(title).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      api.users.admin.id,
      'Ada Admin',
      'apps',
      'support-tickets',
      id,
      'created',
      'Title',
      '',
      `'=HYPERLINK("http://evil")`,
      'create',
      'api',
    ]);
    expect(rows.every((r) => r[1] === api.users.admin.id)).toBe(true);

    // More rows than one batch reads (500): all of them, newest first, none twice.
    const { historyStore } = await import('./history.store.ts');
    const store = historyStore(bff.store.db, { retentionMs: bff.config.historyRetentionMs });
    const actor = { id: `bulk-actor-${Date.now()}`, name: 'Bulk Actor', identity: 'api' as const };
    for (let n = 0; n < 12; n++) {
      await store.append(
        {
          region: 'default',
          recordType: 'apps',
          alias: 'support-tickets',
          recordId: `SUP-B${n}`,
          kind: 'updated',
          actor,
          source: 'console',
          at: bff.clock.now(),
          fields: Array.from({ length: 100 }, (_, i) => ({
            field: `F${i}`,
            before: null,
            after: `${n}.${i}`,
          })),
        },
        crypto.randomUUID(),
      );
    }
    const big = await bff.api(`/bff/history/export.csv?user=${actor.id}`, { cookie: admin });
    const bigRows = parseCsv(await big.text()).slice(1);
    expect(bigRows).toHaveLength(1200);
    expect(new Set(bigRows.map((r) => `${r[5]}/${r[7]}`)).size).toBe(1200);
    expect(bigRows[0]?.slice(5, 10)).toEqual(['SUP-B11', 'updated', 'F99', '', '11.99']);
  });
});

describe('the CSV where the list separator is `;` (issue 26 L3)', () => {
  it('quotes the value and neutralizes the formula after the `;`', async () => {
    const payload = "Acme;=cmd|' /C calc'!A0";
    const id = await createTicket({ Customer: payload });
    const res = await bff.api(`/bff/history/export.csv?user=${api.users.admin.id}`, {
      cookie: admin,
    });
    const line = (await res.text()).split('\r\n').find((l) => l.includes(`,${id},`));
    expect(line).toContain(`,"Acme;'=cmd|' /C calc'!A0",`);
    // A reader that splits on `;` sees no cell starting a formula.
    for (const cell of line?.split(';') ?? []) expect(cell).not.toMatch(/^"?[=+\-@]/);
  });
});

describe('the history is bounded (issue 26 M3)', () => {
  const DAY = 24 * 60 * 60_000;
  const read = async (h: Harness, cookie: string, id: string, query = '') => {
    const res = await recordHistory(cookie, id, query, h);
    expect(res.status).toBe(200);
    return HistoryPageSchema.parse(await res.json());
  };

  it("keeps one 'not kept' entry per change past the author's daily budget; the write still succeeds", async () => {
    const small = await openBff(bff.store, {
      historyBudget: { rowsPerDay: 4, bytesPerDay: 1_000_000, markersPerDay: 2 },
    });
    try {
      // A day of its own: nothing of this person counted on it yet.
      small.clock.advance(40 * DAY);
      const cookie = await signIn(small, 'admin');
      const h = { h: small };
      const created = await write(cookie, 'POST', TICKETS, { Title: 'Budget', Status: 'New' }, h);
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: string }).id;
      const path = `${TICKETS}/${id}`;
      // Two entries (create) + two (this update) = the budget of four.
      expect((await write(cookie, 'PUT', path, { Status: 'Open', Customer: 'A' }, h)).status).toBe(
        200,
      );
      // Past it: the writes succeed upstream, each change leaves one marker, two at most.
      for (const status of ['Pending', 'Resolved', 'Closed']) {
        const res = await write(cookie, 'PUT', path, { Status: status }, h);
        expect(res.status).toBe(200);
        expect(((await res.json()) as Record<string, string>)['Status']).toBe(status);
      }
      const page = await read(small, cookie, id);
      expect(page.items.map((e) => [e.field, e.after, e.notKept ?? false])).toEqual([
        [NOT_KEPT_FIELD, null, true],
        [NOT_KEPT_FIELD, null, true],
        ['Customer', 'A', false],
        ['Status', 'Open', false],
        ['Status', 'New', false],
        ['Title', 'Budget', false],
      ]);
      const [marker] = page.items;
      expect(marker).toMatchObject({ kind: 'updated', identity: 'api', before: null });
      expect(marker?.actor.id).toBe(api.users.admin.id);
      const text = await small.metrics.registry.metrics();
      expect(text).toMatch(/wsc_bff_history_not_kept_total\{kept="marker"\} 2\b/);
      expect(text).toMatch(/wsc_bff_history_not_kept_total\{kept="nothing"\} 1\b/);

      // The next UTC day has a budget again.
      small.clock.advance(DAY);
      const later = await signIn(small, 'admin');
      expect((await write(later, 'PUT', path, { Status: 'Open' }, h)).status).toBe(200);
      expect((await read(small, later, id, '?first=1')).items[0]).toMatchObject({
        field: 'Status',
        after: 'Open',
      });
    } finally {
      await small.close();
    }
  });

  it('counts bytes too: a change too large for the day keeps its marker only', async () => {
    const small = await openBff(bff.store, {
      historyBudget: { rowsPerDay: 1_000, bytesPerDay: 2_000, markersPerDay: 10 },
    });
    try {
      small.clock.advance(50 * DAY);
      const cookie = await signIn(small, 'admin');
      const id = await createTicket();
      const long = 'y'.repeat(3 * MAX_HISTORY_VALUE_CHARS);
      const res = await write(
        cookie,
        'PUT',
        `${TICKETS}/${id}`,
        { Description: long, Customer: long, Title: long, Status: 'Open' },
        { h: small },
      );
      expect(res.status).toBe(200);
      const [entry, ...older] = (await read(small, cookie, id)).items;
      expect(entry).toMatchObject({ field: NOT_KEPT_FIELD, notKept: true, after: null });
      expect(older.every((e) => e.kind === 'created')).toBe(true);
      const usage = await sql<{
        bytes: number | string;
      }>`select bytes from history_budget where actor_id = ${api.users.admin.id} and day = ${Math.floor(small.clock.now() / DAY)}`.execute(
        bff.store.db,
      );
      expect(Number(usage.rows[0]?.bytes ?? 0)).toBeLessThanOrEqual(2_000);
    } finally {
      await small.close();
    }
  });

  it('keeps at most 500 characters of a value', () => {
    expect(MAX_HISTORY_VALUE_CHARS).toBe(500);
  });
});
