import { describe, expect, it } from 'vitest';

import type { Profile } from '@wsc/api-client';
import { createApiClient } from '@wsc/api-client';

import { StaleRecordError } from '@/lib/record-writes.ts';
import { hostedTicketsDefinition, jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { readLatest, writeRecord } from './bulk-api.ts';

type Sent = { method: string; url: string; headers: Headers; body: unknown };

/** A client over a fake fetch that records what it sends and answers with `reply`. */
function client(profile: Profile, reply: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const api = createApiClient({
    baseUrl: '/api/v1',
    profile,
    retry: false,
    fetch: async (input, init) => {
      const entry = {
        method: init?.method ?? 'GET',
        url: String(input),
        headers: new Headers(init?.headers),
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      };
      sent.push(entry);
      return reply(entry);
    },
  });
  return { api, sent };
}

const page = (records: Record<string, string>[]) =>
  jsonResponse({
    paging: { has_previous_page: false, has_next_page: false },
    items: records.map((data, i) => ({ cursor: String(i), data })),
  });

describe('readLatest', () => {
  it('reads a batch in one search by its handle field, first = its size, mapped by handle', async () => {
    const stored = [
      { 'Ticket ID': 'SUP-2', Title: 'B', Status: 'Open' },
      { 'Ticket ID': 'SUP-1', Title: 'A', Status: 'New' },
    ];
    const { api, sent } = client('hosted', () => page(stored));
    const latest = await readLatest(api, hostedTicketsDefinition, [
      { id: 'SUP-1' },
      { id: 'SUP-2' },
      { id: 'SUP-3' },
    ]);
    expect(sent).toHaveLength(1);
    const url = new URL(sent[0]?.url ?? '', 'http://console');
    expect(url.pathname).toBe('/api/v1/apps/support-tickets');
    expect(url.searchParams.get('first')).toBe('3');
    // The published dialect's list form (hosted): the client rewrites `(a,b)` lists.
    expect(url.searchParams.get('filter')).toMatch(/^Ticket ID=in=/);
    expect(url.searchParams.get('filter')).toContain('SUP-3');
    expect([...latest.keys()]).toEqual(['SUP-2', 'SUP-1']);
  });

  it('uses `id` on our API', async () => {
    const { api, sent } = client('extended', () => page([{ id: 'SUP-1', Title: 'A' }]));
    const latest = await readLatest(api, ticketsDefinition, [{ id: 'SUP-1' }]);
    expect(new URL(sent[0]?.url ?? '', 'http://console').searchParams.get('filter')).toBe(
      'id=in=(SUP-1)',
    );
    expect(latest.get('SUP-1')?.Title).toBe('A');
  });
});

describe('writeRecord', () => {
  const changes = { Status: 'Closed' };
  const seen = { 'Ticket ID': 'SUP-1', Title: 'A', Status: 'New', 'Updated on': 'then' };

  it('extended: a PUT of the changed fields only', async () => {
    const { api, sent } = client('extended', () => jsonResponse({ id: 'SUP-1', Status: 'Closed' }));
    await writeRecord(api, ticketsDefinition, { id: 'SUP-1', record: seen }, undefined, changes, {
      serverChecks: true,
      source: 'bulk-run:r1',
    });
    expect(sent.map((s) => [s.method, s.body])).toEqual([['PUT', changes]]);
    expect(sent[0]?.headers.get('X-Change-Source')).toBe('bulk-run:r1');
  });

  it('hosted: the whole record as just read, the change on top, without X-Base-Values', async () => {
    const { api, sent } = client('hosted', () => new Response(null, { status: 200 }));
    const latest = { ...seen, Title: 'A (edited elsewhere)', 'Updated on': 'now' };
    await writeRecord(
      api,
      hostedTicketsDefinition,
      { id: 'SUP-1', record: seen },
      latest,
      changes,
      {
        serverChecks: false,
      },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.body).toEqual({ Title: 'A (edited elsewhere)', Status: 'Closed' });
    expect(sent[0]?.headers.has('X-Base-Values')).toBe(false);
    expect(sent[0]?.headers.has('If-Match')).toBe(false);
  });

  it('hosted: a field being set that moved since the preview fails the record, nothing sent', async () => {
    const { api, sent } = client('hosted', () => new Response(null, { status: 200 }));
    const latest = { ...seen, Status: 'Open' };
    const write = writeRecord(
      api,
      hostedTicketsDefinition,
      { id: 'SUP-1', record: seen },
      latest,
      changes,
      {
        serverChecks: false,
      },
    );
    await expect(write).rejects.toBeInstanceOf(StaleRecordError);
    await expect(write).rejects.toMatchObject({
      differences: [{ field: 'Status', seen: 'New', now: 'Open', mine: 'Closed' }],
    });
    expect(sent).toHaveLength(0);
  });

  it('hosted: a record the batch read did not return fails with 404, nothing sent', async () => {
    const { api, sent } = client('hosted', () => new Response(null, { status: 200 }));
    await expect(
      writeRecord(api, hostedTicketsDefinition, { id: 'SUP-1', record: seen }, undefined, changes, {
        serverChecks: false,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(sent).toHaveLength(0);
  });

  it('hosted retry: without the preview copy, the fresh read is the baseline', async () => {
    const { api, sent } = client('hosted', () => new Response(null, { status: 200 }));
    await writeRecord(
      api,
      hostedTicketsDefinition,
      { id: 'SUP-1' },
      { ...seen, Status: 'Open' },
      changes,
      {
        serverChecks: false,
      },
    );
    expect(sent[0]?.body).toEqual({ Title: 'A', Status: 'Closed' });
  });
});
