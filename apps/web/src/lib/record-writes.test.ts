import { afterEach, describe, expect, it, vi } from 'vitest';

import { configureApi } from '@/lib/api.ts';
import { hostedTicketsDefinition, jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import {
  baseValuesOf,
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
  function stub(stored: Record<string, string>, put: () => Response = () => new Response(null)) {
    const calls: { method: string; body?: unknown; baseValues: string | null }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const method = init?.method ?? 'GET';
      calls.push({
        method,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        baseValues: new Headers(init?.headers).get('x-base-values'),
      });
      if (method === 'GET') return new Response(JSON.stringify(stored), { status: 200 });
      return put();
    });
    return calls;
  }
  const decode = (header: string | null | undefined) =>
    JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')) as unknown;
  const input = {
    recordType: 'apps' as const,
    alias: 'support-tickets',
    id: 'SUP-1',
    definition: hostedTicketsDefinition,
    base,
    changes: { Status: 'Open' },
    etag: undefined,
  };
  const staleProblem = (latest?: Record<string, string>) => () =>
    jsonResponse(
      {
        type: 'about:blank',
        title: 'Changed by someone else',
        status: 412,
        code: 'stale_record',
        detail: 'Status changed since you opened the record',
        ...(latest ? { latest } : {}),
      },
      412,
    );

  it('PUTs only the changes with the values seen in X-Base-Values, and no read', async () => {
    configureApi('hosted');
    const calls = stub(base);
    const saved = await saveRecord(input);
    expect(calls.map((c) => c.method)).toEqual(['PUT']);
    expect(calls[0]?.body).toEqual({ Status: 'Open' });
    expect(decode(calls[0]?.baseValues)).toEqual({ Status: 'New' });
    // An empty reply reads as what was seen plus the changes.
    expect(saved.record).toEqual({ ...base, Status: 'Open' });
  });

  it('takes the record the BFF answers with', async () => {
    configureApi('hosted');
    stub(base, () => jsonResponse({ ...base, Title: 'Theirs', Status: 'Open' }));
    const saved = await saveRecord(input);
    expect(saved.record).toMatchObject({ Title: 'Theirs', Status: 'Open' });
  });

  it('builds the conflict from the 412 `latest` member, without reading again', async () => {
    configureApi('hosted');
    const calls = stub(base, staleProblem({ ...base, Status: 'Pending', Title: 'Scanner' }));
    const error = await saveRecord(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StaleRecordError);
    const stale = error as StaleRecordError;
    expect(stale.differences).toEqual([
      { field: 'Status', seen: 'New', now: 'Pending', mine: 'Open' },
    ]);
    expect(stale.alsoChanged).toEqual([
      { field: 'Title', seen: 'Printer', now: 'Scanner', mine: null },
    ]);
    expect(stale.latest.Status).toBe('Pending');
    expect(calls.map((c) => c.method)).toEqual(['PUT']);
  });

  it('reads the record again for a 412 that carries no `latest`', async () => {
    configureApi('hosted');
    const calls = stub({ ...base, Status: 'Pending' }, staleProblem());
    const error = await saveRecord(input).catch((e: unknown) => e);
    expect((error as StaleRecordError).differences[0]?.now).toBe('Pending');
    expect(calls.map((c) => c.method)).toEqual(['PUT', 'GET']);
  });

  describe("conflictCheck: 'browser' (bulk's way until it switches)", () => {
    const browser = { ...input, conflictCheck: 'browser' as const };

    it('re-reads, then PUTs the whole record, and reads an empty reply as what was sent', async () => {
      configureApi('hosted');
      const calls = stub({ ...base, Title: 'Printer (edited elsewhere)' });
      const saved = await saveRecord(browser);
      expect(calls.map((c) => c.method)).toEqual(['GET', 'PUT']);
      expect(calls[1]?.body).toEqual({
        Title: 'Printer (edited elsewhere)',
        Status: 'Open',
        Priority: '2',
      });
      expect(calls[1]?.baseValues).toBeNull();
      expect(saved.record).toMatchObject({ Status: 'Open', Title: 'Printer (edited elsewhere)' });
    });

    it('writes nothing and names the field when it changed meanwhile', async () => {
      configureApi('hosted');
      const calls = stub({ ...base, Status: 'Pending' });
      const error = await saveRecord(browser).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StaleRecordError);
      expect((error as StaleRecordError).differences).toEqual([
        { field: 'Status', seen: 'New', now: 'Pending', mine: 'Open' },
      ]);
      expect((error as StaleRecordError).status).toBe(412);
      expect(calls.map((c) => c.method)).toEqual(['GET']);
    });
  });
});

describe('baseValuesOf', () => {
  it('names exactly the changed fields, empty for one the record did not have', () => {
    expect(baseValuesOf(base, { Status: 'Open', Owner: 'x@y.z' })).toEqual({
      Status: 'New',
      Owner: '',
    });
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
