import { afterEach, describe, expect, it, vi } from 'vitest';

import { configureApi } from '@/lib/api.ts';
import { hostedTicketsDefinition } from '@/testing/render.tsx';

import { differences, saveRecord, StaleRecordError, wholeRecordBody } from './record-writes.ts';

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
