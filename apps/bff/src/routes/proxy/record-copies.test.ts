// The per-session record copies (ADR 0029): their bounds, and through HTTP what they buy: a
// write the BFF has a fresh copy for costs exactly one upstream request and still records the
// right values before; a stale copy, an ETag that does not match, another session's copy or a
// refused write's do not count. The upstream is a counting stub of the API's records.
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import type { RecordStore } from '../../../test/record-store-route.ts';
import type { SessionRecord } from '../../db/store.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { createHarness } from '../../../test/harness.ts';
import { sendJson } from '../../../test/json-request.ts';
import { recordStore } from '../../../test/record-store-route.ts';
import { createFakeClock } from '../../lib/clock.ts';
import { defaultConfig } from '../../lib/config.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { COPY_FRESH_MS, RecordCopies } from './record-copies.ts';
import { RecordCopyFiller } from './record-copy-fill.ts';

const key = (handle: string) => ({ recordType: 'apps', alias: 'support', handle });

describe('RecordCopies bounds', () => {
  const limits = { entriesPerSession: 3, bytesPerSession: 1_000, bytesTotal: 2_500, ttlMs: 60_000 };

  it('keeps at most N entries and B bytes per session, least recently used out first', () => {
    const copies = new RecordCopies(limits, createFakeClock(0));
    for (const handle of ['A', 'B', 'C']) copies.put('s1', key(handle), { id: handle }, '"1"', 100);
    expect(copies.get('s1', key('A'))).toBeDefined(); // A is now the most recent
    copies.put('s1', key('D'), { id: 'D' }, '"1"', 100);
    expect(copies.get('s1', key('B'))).toBeUndefined();
    expect(copies.size()).toEqual({ sessions: 1, entries: 3, bytes: 300 });
    copies.put('s1', key('E'), { id: 'E' }, '"1"', 900);
    // 900 + 300 would pass 1,000 bytes: the two least recent go.
    expect(copies.size()).toEqual({ sessions: 1, entries: 2, bytes: 1_000 });
    expect(copies.get('s1', key('E'))).toBeDefined();
    copies.put('s1', key('F'), { id: 'F' }, '"1"', 1_001);
    expect(copies.get('s1', key('F'))).toBeUndefined();
  });

  it('keeps at most the total bytes, taking from the idlest session first', () => {
    const copies = new RecordCopies(limits, createFakeClock(0));
    copies.put('s1', key('A'), { id: 'A' }, '"1"', 900);
    copies.put('s2', key('A'), { id: 'A' }, '"1"', 900);
    copies.put('s3', key('A'), { id: 'A' }, '"1"', 900);
    expect(copies.size().bytes).toBeLessThanOrEqual(2_500);
    expect(copies.get('s1', key('A'))).toBeUndefined();
    expect(copies.get('s3', key('A'))).toBeDefined();
  });

  it('never serves one session’s copy to another', () => {
    const copies = new RecordCopies(limits, createFakeClock(0));
    copies.put('s1', key('A'), { id: 'A' }, '"1"', 10);
    expect(copies.get('s2', key('A'))).toBeUndefined();
    expect(copies.beforeValues('s2', key('A'), '"1"')).toBeUndefined();
  });

  it('expires: without an ETag after the fresh window, with one after the TTL', () => {
    const clock = createFakeClock(0);
    const copies = new RecordCopies(limits, clock);
    copies.put('s1', key('A'), { id: 'A' }, undefined, 10);
    copies.put('s1', key('B'), { id: 'B' }, '"7"', 10);
    clock.advance(COPY_FRESH_MS + 1);
    expect(copies.get('s1', key('A'))).toBeUndefined();
    // Older than the fresh window: only an exact If-Match makes it the values before.
    expect(copies.beforeValues('s1', key('B'), null)).toBeUndefined();
    expect(copies.beforeValues('s1', key('B'), '"8"')).toBeUndefined();
    expect(copies.beforeValues('s1', key('B'), '"7"')?.record).toEqual({ id: 'B' });
    clock.advance(limits.ttlMs);
    expect(copies.get('s1', key('B'))).toBeUndefined();
    expect(copies.size()).toEqual({ sessions: 0, entries: 0, bytes: 0 });
  });
});

describe('RecordCopyFiller', () => {
  const limits = { ...defaultConfig().recordCopies };
  const session = { idHash: 's1', region: 'default', profile: 'hosted' } as SessionRecord;
  const answer = (path: string, search = '') =>
    ({ session, method: 'GET', path, search, status: 200 }) as const;
  const reply = (headers: Record<string, string>, body: string) => {
    const stream = Object.assign(new PassThrough(), { headers });
    setImmediate(() => stream.end(body));
    stream.resume();
    return stream as unknown as IncomingMessage;
  };

  it('keeps a hosted page’s records by their definition’s handle field, looked up once', async () => {
    const copies = new RecordCopies(limits, createFakeClock(0));
    let lookups = 0;
    const filler = new RecordCopyFiller(
      copies,
      limits,
      async () => {
        lookups++;
        return 'Ticket ID';
      },
      () => 0,
    );
    const page = JSON.stringify({
      items: [
        { cursor: 'a', data: { 'Ticket ID': 'SUP-1', Status: 'New' } },
        { cursor: 'b', data: { 'Ticket ID': 'SUP-2', Status: 'Open' } },
        { cursor: 'c', data: { Status: 'no handle' } },
      ],
    });
    const json = { 'content-type': 'application/json' };
    await filler.observe(reply(json, page), answer('/api/v1/apps/support-tickets', '?first=2'));
    await filler.observe(reply(json, page), answer('/api/v1/apps/support-tickets'));
    const keyOf = (handle: string) => ({ recordType: 'apps', alias: 'support-tickets', handle });
    expect(copies.get('s1', keyOf('SUP-2'))?.record).toEqual({
      'Ticket ID': 'SUP-2',
      Status: 'Open',
    });
    expect(copies.size().entries).toBe(2);
    expect(lookups).toBe(1);
  });

  it('keeps nothing of a reply that is not JSON, is encoded, is an error or is too large', async () => {
    const copies = new RecordCopies(limits, createFakeClock(0));
    const filler = new RecordCopyFiller(
      copies,
      { ...limits, maxRecordBytes: 64 },
      async () => undefined,
      () => 0,
    );
    const record = JSON.stringify({ id: 'SUP-1', Notes: 'n' });
    const path = '/api/v1/apps/support/SUP-1';
    await filler.observe(reply({ 'content-type': 'text/plain' }, record), answer(path));
    await filler.observe(
      reply({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, record),
      answer(path),
    );
    await filler.observe(reply({ 'content-type': 'application/json' }, record), {
      ...answer(path),
      status: 404,
    });
    await filler.observe(
      reply({ 'content-type': 'application/json' }, record),
      answer(path, '?x=1'),
    );
    const large = JSON.stringify({ id: 'SUP-1', Notes: 'n'.repeat(100) });
    await filler.observe(reply({ 'content-type': 'application/json' }, large), answer(path));
    expect(copies.size().entries).toBe(0);
    await filler.observe(reply({ 'content-type': 'application/json' }, record), answer(path));
    expect(copies.size().entries).toBe(1);
  });
});

describe('a write with a copy of the record (through HTTP)', () => {
  let h: Harness;
  let store: RecordStore;
  let cookie: string;
  const changes: RecordChange[] = [];
  const bus = createRecordChangeBus();
  bus.subscribe((change) => changes.push(change));

  beforeAll(async () => {
    h = await createHarness({
      deps: { recordChanges: bus },
      config: {
        recordCopies: { ...defaultConfig().recordCopies, entriesPerSession: 3 },
      },
    });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    ({ cookie } = await h.login());
    store = recordStore();
    store.records.set('SUP-1', { id: 'SUP-1', Title: 'Printer', Status: 'New' });
    store.versions.set('SUP-1', 1);
    h.upstream.route = store.route;
    changes.length = 0;
  });

  const get = (path: string, who = cookie) => h.api(`/api/v1/apps/support${path}`, { cookie: who });
  const put = (body: unknown, headers: Record<string, string> = {}, who = cookie) =>
    sendJson(h, '/api/v1/apps/support/SUP-1', { cookie: who, method: 'PUT', body, headers });
  /** What the upstream received from now on, as `METHOD path`. */
  const counter = () => {
    const from = h.upstream.apiRequests().length;
    return () =>
      h.upstream
        .apiRequests()
        .slice(from)
        .map((r) => `${r.method} ${r.url}`);
  };
  const before = () => changes.at(-1)?.fields.map((f) => [f.field, f.before, f.after]);

  it('with a fresh copy from a record read: one upstream request, the right values before', async () => {
    await (await get('/SUP-1')).text();
    const sent = counter();
    const res = await put({ Status: 'Open' });
    expect(res.status).toBe(200);
    expect(sent()).toEqual(['PUT /v1/apps/support/SUP-1']);
    expect(before()).toEqual([['Status', 'New', 'Open']]);
  });

  it('with a fresh copy from a search page: one upstream request', async () => {
    expect((await get('?filter=Status%3D%3DNew&first=100')).status).toBe(200);
    const sent = counter();
    expect((await put({ Status: 'Closed', Title: 'Printer' })).status).toBe(200);
    expect(sent()).toEqual(['PUT /v1/apps/support/SUP-1']);
    // Title was sent with its value: not a change.
    expect(before()).toEqual([['Status', 'New', 'Closed']]);
  });

  it('the reply of a write is the next write’s copy', async () => {
    await (await get('/SUP-1')).text();
    await put({ Status: 'Open' });
    const sent = counter();
    await put({ Status: 'Pending' });
    expect(sent()).toEqual(['PUT /v1/apps/support/SUP-1']);
    expect(before()).toEqual([['Status', 'Open', 'Pending']]);
  });

  it('a copy older than 10 s is not used: one read first', async () => {
    await (await get('/SUP-1')).text();
    // Someone else changes it meanwhile; the copy would say New.
    store.records.set('SUP-1', { id: 'SUP-1', Title: 'Printer', Status: 'Pending' });
    h.clock.advance(COPY_FRESH_MS + 1);
    const sent = counter();
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
    expect(before()).toEqual([['Status', 'Pending', 'Open']]);
  });

  it('an old copy whose ETag equals If-Match is exact; a different If-Match is not', async () => {
    const read = await get('/SUP-1');
    const etag = read.headers.get('etag') ?? '';
    await read.text();
    h.clock.advance(60_000);
    let sent = counter();
    expect((await put({ Status: 'Open' }, { 'if-match': etag })).status).toBe(200);
    expect(sent()).toEqual(['PUT /v1/apps/support/SUP-1']);
    expect(before()).toEqual([['Status', 'New', 'Open']]);

    h.clock.advance(60_000);
    sent = counter();
    // The copy (the last reply) has ETag "v2"; "v1" is stale: the API answers 412, after a read.
    expect((await put({ Status: 'Closed' }, { 'if-match': '"v1"' })).status).toBe(412);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
  });

  it('never uses another session’s copy', async () => {
    const other = (await h.login()).cookie;
    await (await get('/SUP-1', other)).text();
    const sent = counter();
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
  });

  it('drops the copy when a write to the record is refused', async () => {
    await (await get('/SUP-1')).text();
    expect((await put({ Status: 'Open' }, { 'if-match': '"v0"' })).status).toBe(412);
    const sent = counter();
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
  });

  it('holds at most the session’s entries: an evicted record is read again', async () => {
    for (const n of [1, 2, 3, 4]) {
      store.records.set(`SUP-${n}`, { id: `SUP-${n}`, Title: 'T', Status: 'New' });
    }
    for (const n of [1, 2, 3, 4]) await (await get(`/SUP-${n}`)).text();
    const sent = counter();
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
  });

  it('a record reply over the record size streams untouched and is not kept', async () => {
    store.records.set('SUP-1', { id: 'SUP-1', Status: 'New', Notes: 'x'.repeat(1_100_000) });
    const read = await get('/SUP-1');
    expect((await read.text()).length).toBeGreaterThan(1_100_000);
    const sent = counter();
    expect((await put({ Status: 'Open' })).status).toBe(200);
    expect(sent()).toEqual(['GET /v1/apps/support/SUP-1', 'PUT /v1/apps/support/SUP-1']);
  });
});

describe('teeing a read into the copies keeps its encoding', () => {
  let h: Harness;
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    h = await createHarness();
    base = await h.listen();
  });
  afterAll(async () => {
    await h.close();
  });

  it('a compressed answer fills the copy from the same bytes', async () => {
    ({ cookie } = await h.login());
    const store = recordStore();
    store.records.set('SUP-1', { id: 'SUP-1', Status: 'New', Notes: 'n'.repeat(4_096) });
    h.upstream.route = store.route;
    const res = await fetch(`${base}/api/v1/apps/support/SUP-1`, {
      headers: { 'x-csrf': '1', cookie: `${SESSION_COOKIE}=${cookie}`, 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { Status: string }).Status).toBe('New');
    await new Promise((resolve) => setImmediate(resolve));
    const from = h.upstream.apiRequests().length;
    const write = sendJson(h, '/api/v1/apps/support/SUP-1', {
      cookie,
      method: 'PUT',
      body: { Status: 'Open' },
    });
    expect((await write).status).toBe(200);
    expect(
      h.upstream
        .apiRequests()
        .slice(from)
        .map((r) => r.method),
    ).toEqual(['PUT']);
  });
});
