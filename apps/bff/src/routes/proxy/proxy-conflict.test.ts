// The hosted save's conflict check in the BFF (ADR 0029), through HTTP against a counting stub
// of the hosted service (no ETag, no `id`, the handle in `Ticket ID`): at most two upstream
// requests per save (one with a copy at most 2 s old), a 412 with `latest` and no PUT when
// someone else changed a changed field, the whole record sent otherwise, the header never
// forwarded, and a malformed header refused with 400 before anything goes upstream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import type { Harness } from '../../../test/harness.ts';
import type { RecordStore } from '../../../test/record-store-route.ts';
import type { RecordChange } from '../../lib/record-changes.ts';
import { startFakeUpstream } from '../../../test/fake-upstream.ts';
import { createHarness } from '../../../test/harness.ts';
import { sendJson } from '../../../test/json-request.ts';
import { recordStore } from '../../../test/record-store-route.ts';
import { regionFor } from '../../lib/config.ts';
import { createRecordChangeBus } from '../../lib/record-changes.ts';
import {
  conflictingFields,
  MAX_BASE_VALUES_CHARS,
  parseBaseValues,
  wholeRecordBody,
} from './proxy-conflict.ts';
import { COPY_FRESH_MS } from './record-copies.ts';

const tickets: Definition = {
  recordType: 'apps',
  alias: 'support-tickets',
  name: 'Support Tickets',
  handle: 'SUP',
  handleField: 'Ticket ID',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Status', type: 'TEXT', required: false },
    { name: 'Owner', type: 'TEXT', required: false },
    { name: 'Created At', type: 'DATETIME', required: false, readOnly: true },
  ],
};

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('X-Base-Values and the check', () => {
  it('reads base64url (no padding) of a UTF-8 JSON object of strings', () => {
    expect(parseBaseValues(null)).toBeUndefined();
    expect(parseBaseValues(encode({ Status: 'New', Título: 'Ünïcode ✓' }))).toEqual({
      Status: 'New',
      Título: 'Ünïcode ✓',
    });
    for (const bad of [
      '!!!',
      `${encode({ Status: 'New' })}=`,
      'a',
      encode([1]),
      encode('text'),
      encode({ Status: 1 }),
      encode({ Status: null }),
      Buffer.from('{"Status":"New"').toString('base64url'),
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x22, 0x22, 0x7d]).toString('base64url'),
      'A'.repeat(MAX_BASE_VALUES_CHARS + 4),
    ]) {
      expect(() => parseBaseValues(bad), bad.slice(0, 40)).toThrow();
    }
  });

  it('finds the fields moved away from both what the user saw and what the user wants', () => {
    const stored = { Status: 'Closed', Owner: 'bob', Title: 'A' };
    expect(conflictingFields(stored, { Status: 'New' }, { Status: 'Open' })).toEqual(['Status']);
    expect(conflictingFields(stored, { Status: 'New' }, { Status: 'Closed' })).toEqual([]);
    expect(conflictingFields(stored, { Owner: 'bob' }, { Owner: 'amy' })).toEqual([]);
    expect(conflictingFields({}, { Owner: '' }, { Owner: 'amy' })).toEqual([]);
  });

  it('sends every writable field of the stored record with the changes on top', () => {
    const stored = { 'Ticket ID': 'SUP-1', Title: 'A', Status: 'New', 'Created At': 'x' };
    expect(wholeRecordBody(stored, { Status: 'Open' }, tickets)).toEqual({
      Title: 'A',
      Status: 'Open',
    });
  });
});

describe('a hosted save with X-Base-Values (through HTTP)', () => {
  let h: Harness;
  let store: RecordStore;
  let cookie: string;
  const changes: RecordChange[] = [];
  const bus = createRecordChangeBus();
  bus.subscribe((change) => changes.push(change));

  beforeAll(async () => {
    const upstream = await startFakeUpstream({ mode: 'hosted' });
    h = await createHarness({
      upstream,
      config: {
        regions: [
          regionFor('default', upstream.apiUrl, { profile: 'hosted', workspace: [tickets] }),
        ],
      },
      deps: { recordChanges: bus },
    });
    ({ cookie } = await h.login());
  });
  afterAll(async () => {
    await h.close();
    await h.upstream.close();
  });
  beforeEach(() => {
    // Every copy of the tests before is past its freshness.
    h.clock.advance(COPY_FRESH_MS + 1);
    store = recordStore({ hosted: true });
    store.records.set('SUP-1', {
      'Ticket ID': 'SUP-1',
      Title: 'Printer',
      Status: 'New',
      Owner: 'amy',
      'Created At': '2025-01-01T00:00:00.000Z',
    });
    h.upstream.route = store.route;
    changes.length = 0;
  });

  const save = (body: unknown, base: string = encode(body)) =>
    sendJson(h, '/api/v1/apps/support-tickets/SUP-1', {
      cookie,
      method: 'PUT',
      body,
      headers: { 'x-base-values': base },
    });
  const saveFrom = (seen: Record<string, string>, wanted: Record<string, string>) =>
    save(wanted, encode(seen));
  const counter = () => {
    const from = h.upstream.apiRequests().length;
    return () => h.upstream.apiRequests().slice(from);
  };
  const read = async () => {
    const res = await h.api('/api/v1/apps/support-tickets/SUP-1', { cookie });
    expect(res.status).toBe(200);
    await res.text();
  };

  it('without a copy: one read and one whole-record PUT; the header never goes upstream', async () => {
    const sent = counter();
    const res = await saveFrom({ Status: 'New' }, { Status: 'Open' });
    expect(res.status).toBe(200);
    expect(sent().map((r) => r.method)).toEqual(['GET', 'PUT']);
    expect(sent().every((r) => r.headers['x-base-values'] === undefined)).toBe(true);
    // Read-only fields (the handle, Created At) stay out; every other field goes with it.
    expect(store.records.get('SUP-1')).toMatchObject({ Status: 'Open', Title: 'Printer' });
    const put = sent()[1];
    expect(Number(put?.headers['content-length'])).toBe(
      Buffer.byteLength(JSON.stringify({ Title: 'Printer', Status: 'Open', Owner: 'amy' })),
    );
    expect(changes.at(-1)?.fields).toEqual([{ field: 'Status', before: 'New', after: 'Open' }]);
  });

  it('reads the record even with a fresh copy: a change made meanwhile to another field is kept', async () => {
    await read();
    // Someone else (another client, not through this BFF) changes a field this save leaves alone.
    store.records.set('SUP-1', { ...store.records.get('SUP-1'), Owner: 'cy' });
    const sent = counter();
    expect((await saveFrom({ Status: 'New' }, { Status: 'Open' })).status).toBe(200);
    expect(sent().map((r) => r.method)).toEqual(['GET', 'PUT']);
    expect(store.records.get('SUP-1')).toMatchObject({ Status: 'Open', Owner: 'cy' });
    expect(changes.at(-1)?.fields).toEqual([{ field: 'Status', before: 'New', after: 'Open' }]);
  });

  it('a changed field moved since the session’s copy is noticed: 412, no PUT', async () => {
    await read();
    store.records.set('SUP-1', { ...store.records.get('SUP-1'), Status: 'Closed' });
    const sent = counter();
    const res = await saveFrom({ Status: 'New' }, { Status: 'Open' });
    expect(res.status).toBe(412);
    expect(sent().map((r) => r.method)).toEqual(['GET']);
  });

  it('someone else changed a changed field: 412 with the stored record, and no PUT', async () => {
    store.records.set('SUP-1', { ...store.records.get('SUP-1'), Status: 'Closed' });
    const sent = counter();
    const res = await saveFrom({ Status: 'New', Owner: 'amy' }, { Status: 'Open', Owner: 'bob' });
    expect(res.status).toBe(412);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({
      title: 'Changed by someone else',
      status: 412,
      code: 'stale_record',
      detail: 'Status changed since you opened the record',
      latest: { 'Ticket ID': 'SUP-1', Status: 'Closed', Owner: 'amy' },
    });
    expect(sent().map((r) => r.method)).toEqual(['GET']);
    expect(store.records.get('SUP-1')?.['Owner']).toBe('amy');
    expect(changes).toEqual([]);
  });

  it('someone set the very value wanted, or changed another field: no conflict', async () => {
    store.records.set('SUP-1', { ...store.records.get('SUP-1'), Status: 'Open', Owner: 'cy' });
    const res = await saveFrom({ Status: 'New' }, { Status: 'Open' });
    expect(res.status).toBe(200);
    // The whole record went out with the other change kept.
    expect(store.records.get('SUP-1')).toMatchObject({ Status: 'Open', Owner: 'cy' });
  });

  it('an empty reply: 200 JSON with the record as now stored', async () => {
    store.emptyPutReply = true;
    const res = await saveFrom({ Status: 'New' }, { Status: 'Open' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      'Ticket ID': 'SUP-1',
      Title: 'Printer',
      Status: 'Open',
      Owner: 'amy',
      'Created At': '2025-01-01T00:00:00.000Z',
    });
    const sent = counter();
    expect((await saveFrom({ Owner: 'amy' }, { Owner: 'bob' })).status).toBe(200);
    expect(sent().map((r) => r.method)).toEqual(['GET', 'PUT']);
    expect(changes.at(-1)?.fields).toEqual([{ field: 'Owner', before: 'amy', after: 'bob' }]);
  });

  it('a read the upstream refuses is the answer', async () => {
    store.records.clear();
    const sent = counter();
    expect((await saveFrom({ Status: 'New' }, { Status: 'Open' })).status).toBe(404);
    expect(sent().map((r) => r.method)).toEqual(['GET']);
  });

  it('refuses a malformed header with 400 naming it, and sends nothing upstream', async () => {
    const sent = counter();
    for (const base of [
      '%%%',
      `${encode({ Status: 'New' })}==`,
      encode({ Status: 1 }),
      encode(['Status']),
      encode({ Owner: 'amy' }),
      encode({ Status: 'New', Owner: 'amy' }),
      'A'.repeat(MAX_BASE_VALUES_CHARS + 4),
    ]) {
      const res = await save({ Status: 'Open' }, base);
      expect(res.status, base.slice(0, 30)).toBe(400);
      const problem = (await res.json()) as { errors?: { field: string }[] };
      expect(problem.errors?.[0]?.field).toBe('X-Base-Values');
    }
    const notJson = await h.api('/api/v1/apps/support-tickets/SUP-1', {
      cookie,
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        'content-length': '3',
        'x-base-values': encode({}),
      },
      body: 'abc',
    });
    expect(notJson.status).toBe(400);
    expect(sent()).toEqual([]);
  });
});
