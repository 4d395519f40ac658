import { afterEach, describe, expect, it, vi } from 'vitest';

import { configureApi } from '@/lib/api.ts';
import { hostedTicketsDefinition, jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import {
  differences,
  otherChanges,
  saveRecord,
  StaleRecordError,
  wholeRecordBody,
} from './record-writes.ts';

afterEach(() => {
  vi.restoreAllMocks();
  configureApi('extended');
});

const base = { 'Ticket ID': 'SUP-1', Title: 'Printer', Status: 'New', Priority: '2' };

describe('differences', () => {
  it('reports a changed field that moved since it was read', () => {
    expect(differences(base, { ...base, Status: 'Open' }, { Status: 'Closed' })).toEqual([
      { field: 'Status', seen: 'New', now: 'Open', mine: 'Closed' },
    ]);
  });

  it('ignores other fields that moved, and the same value set by both', () => {
    expect(differences(base, { ...base, Title: 'Scanner' }, { Status: 'Closed' })).toEqual([]);
    expect(differences(base, { ...base, Status: 'Closed' }, { Status: 'Closed' })).toEqual([]);
  });
});

describe('otherChanges', () => {
  it('lists writable fields the user left alone that moved, never read-only ones', () => {
    const latest = { ...base, Title: 'Scanner', Status: 'Open', 'Updated on': 'later' };
    expect(
      otherChanges(
        { ...base, 'Updated on': 'before' },
        latest,
        { Status: 'Closed' },
        hostedTicketsDefinition,
      ),
    ).toEqual([{ field: 'Title', seen: 'Printer', now: 'Scanner', mine: null }]);
  });

  it('counts a field that appeared or vanished as moved', () => {
    expect(otherChanges(base, { ...base, Severity: 'High' }, {}, hostedTicketsDefinition)).toEqual([
      { field: 'Severity', seen: '', now: 'High', mine: null },
    ]);
  });
});

describe('wholeRecordBody', () => {
  it('sends every writable value with the changes on top, never read-only ones', () => {
    const latest = { ...base, 'Created on': '2024-01-01T00:00:00.000Z', Extra: 'kept' };
    expect(wholeRecordBody(latest, { Status: 'Open' }, hostedTicketsDefinition)).toEqual({
      Title: 'Printer',
      Status: 'Open',
      Priority: '2',
      Extra: 'kept',
    });
  });
});

describe('saveRecord without an ETag (hosted)', () => {
  function stub(stored: Record<string, string>) {
    const calls: { method: string; body?: unknown }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'GET') return new Response(JSON.stringify(stored), { status: 200 });
      return new Response(null, { status: 200 });
    });
    return calls;
  }
  const input = {
    recordType: 'apps' as const,
    alias: 'support-tickets',
    id: 'SUP-1',
    definition: hostedTicketsDefinition,
    base,
    changes: { Status: 'Open' },
    etag: undefined,
  };

  it('re-reads, then PUTs the whole record, and reads an empty reply as what was sent', async () => {
    configureApi('hosted');
    const calls = stub({ ...base, Title: 'Printer (edited elsewhere)' });
    const saved = await saveRecord(input);
    expect(calls.map((c) => c.method)).toEqual(['GET', 'PUT']);
    expect(calls[1]?.body).toEqual({
      Title: 'Printer (edited elsewhere)',
      Status: 'Open',
      Priority: '2',
    });
    expect(saved.record).toMatchObject({ Status: 'Open', Title: 'Printer (edited elsewhere)' });
  });

  it('writes nothing and names the field when it changed meanwhile', async () => {
    configureApi('hosted');
    const calls = stub({ ...base, Status: 'Pending' });
    const error = await saveRecord(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleRecordError);
    expect((error as StaleRecordError).differences).toEqual([
      { field: 'Status', seen: 'New', now: 'Pending', mine: 'Open' },
    ]);
    expect((error as StaleRecordError).status).toBe(412);
    expect(calls.map((c) => c.method)).toEqual(['GET']);
  });
});

describe('saveRecord with an ETag (extended)', () => {
  const mine = { id: 'SUP-1', Title: 'Printer', Status: 'New', 'Updated At': 't1' };
  const input = {
    recordType: 'apps' as const,
    alias: 'support-tickets',
    id: 'SUP-1',
    definition: ticketsDefinition,
    base: mine,
    changes: { Status: 'Closed' },
    etag: '"v1"',
  };

  function stub(put: () => Response, get: () => Response) {
    const calls: { method: string; ifMatch: string | null }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, ifMatch: new Headers(init?.headers).get('if-match') });
      return method === 'PUT' ? put() : get();
    });
    return calls;
  }
  const stale = () => jsonResponse({ status: 412, title: 'Precondition Failed' }, 412);

  it('sends only the changes with If-Match and no read when the version is current', async () => {
    const calls = stub(
      () => jsonResponse({ ...mine, Status: 'Closed' }, 200, { ETag: '"v2"' }),
      () => jsonResponse(mine),
    );
    const saved = await saveRecord(input);
    expect(calls).toEqual([{ method: 'PUT', ifMatch: '"v1"' }]);
    expect(saved.record.Status).toBe('Closed');
  });

  it('on 412 reads the record again and names each field: theirs, mine, and what else moved', async () => {
    const calls = stub(stale, () =>
      jsonResponse({ ...mine, Status: 'Pending', Title: 'Scanner', 'Updated At': 't2' }, 200, {
        ETag: '"v2"',
      }),
    );
    const error = await saveRecord(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleRecordError);
    const stale412 = error as StaleRecordError;
    expect(stale412.status).toBe(412);
    expect(stale412.differences).toEqual([
      { field: 'Status', seen: 'New', now: 'Pending', mine: 'Closed' },
    ]);
    expect(stale412.alsoChanged).toEqual([
      { field: 'Title', seen: 'Printer', now: 'Scanner', mine: null },
    ]);
    expect(stale412.latest.Status).toBe('Pending');
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'GET']);
  });

  it('keeps the plain 412 when the read after it fails', async () => {
    stub(stale, () => jsonResponse({ status: 503, title: 'Unavailable' }, 503));
    const error = await saveRecord(input).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(StaleRecordError);
    expect(error).toMatchObject({ status: 412 });
  });

  it('passes other failures through without a read', async () => {
    const calls = stub(
      () => jsonResponse({ status: 422, title: 'Invalid', errors: [] }, 422),
      () => jsonResponse(mine),
    );
    await expect(saveRecord(input)).rejects.toMatchObject({ status: 422 });
    expect(calls.map((c) => c.method)).toEqual(['PUT']);
  });
});
