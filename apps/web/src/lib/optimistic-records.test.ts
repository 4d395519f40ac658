import type { InfiniteData } from '@tanstack/react-query';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordData, RecordPagedList, RecordReply } from '@wsc/api-client';

import { configureApi } from '@/lib/api.ts';
import { recordKeys } from '@/queries/records.ts';
import { heldFetch } from '@/testing/held-fetch.ts';
import {
  hostedTicketsDefinition,
  jsonResponse,
  ONLY_PAGE,
  ticketsDefinition,
} from '@/testing/render.tsx';

import { optimisticStore } from './optimistic-records.ts';

const RT = 'apps' as const;
const ALIAS = 'support-tickets';
const listKey = recordKeys.list(RT, ALIAS, {});
const ref = (id: string) => ({ recordType: RT, alias: ALIAS, id });

function ticket(n: number, extra: RecordData = {}): RecordData {
  return { id: `SUP-${n}`, Title: `Ticket ${n}`, Status: 'New', Severity: 'Low', ...extra };
}

function page(records: RecordData[]): RecordPagedList {
  return {
    paging: ONLY_PAGE,
    total: records.length,
    skipped: 0,
    items: records.map((data, i) => ({ cursor: `c${i}`, data })),
  };
}

/** A query client holding the queue (one page) and the records read with their ETags. */
function cached(records: RecordData[], read: string[] = []) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData<InfiniteData<RecordPagedList, unknown>>(listKey, {
    pages: [page(records)],
    pageParams: [undefined],
  });
  for (const record of records) {
    if (read.includes(record.id ?? '')) {
      queryClient.setQueryData<RecordReply>(recordKeys.detail(RT, ALIAS, record.id ?? ''), {
        record,
        etag: '"v1"',
      });
    }
  }
  const row = (id: string) =>
    queryClient
      .getQueryData<InfiniteData<RecordPagedList, unknown>>(listKey)
      ?.pages[0]?.items.find((item) => item.data.id === id)?.data;
  const detail = (id: string) =>
    queryClient.getQueryData<RecordReply>(recordKeys.detail(RT, ALIAS, id))?.record;
  return { queryClient, store: optimisticStore(queryClient), row, detail };
}

const refusal = (status: number, title: string) =>
  jsonResponse({ type: 'about:blank', title, status, detail: `${title} (test)` }, status);

afterEach(() => {
  vi.restoreAllMocks();
  configureApi('extended');
});

describe('the optimistic store (records)', () => {
  it('rolls back one record among several in flight; the others keep going', async () => {
    const wire = heldFetch();
    const { store, row, detail } = cached([ticket(1), ticket(2), ticket(3)], ['SUP-1', 'SUP-2']);
    const one = store.changeRecord({
      record: ref('SUP-1'),
      definition: ticketsDefinition,
      changes: { Status: 'Open' },
      source: 'triage',
    });
    const two = store.changeRecord({
      record: ref('SUP-2'),
      definition: ticketsDefinition,
      changes: { Status: 'Closed' },
      source: 'triage',
    });
    // Painted before anything was answered, in the record and in the queue.
    expect(detail('SUP-1')?.Status).toBe('Open');
    expect(row('SUP-1')?.Status).toBe('Open');
    expect(row('SUP-2')?.Status).toBe('Closed');
    expect(store.pendingIds(RT, ALIAS)).toEqual(new Set(['SUP-1', 'SUP-2']));
    await vi.waitFor(() => expect(wire.requests).toHaveLength(2));

    wire.requests[0]?.respond(refusal(422, 'Unprocessable Content'));
    expect(await one.settled).toMatchObject({ status: 'refused', error: { status: 422 } });
    expect(detail('SUP-1')?.Status).toBe('New');
    expect(row('SUP-1')?.Status).toBe('New');
    // The other record's write is still pending and still shown.
    expect(row('SUP-2')?.Status).toBe('Closed');
    expect(store.pendingIds(RT, ALIAS)).toEqual(new Set(['SUP-2']));

    wire.requests[1]?.respond(jsonResponse(ticket(2, { Status: 'Closed' }), 200, { ETag: '"v2"' }));
    expect(await two.settled).toMatchObject({ status: 'confirmed' });
    expect(row('SUP-2')?.Status).toBe('Closed');
    expect(store.pendingIds(RT, ALIAS).size).toBe(0);
  });

  it('sends two writes to one record in order, the second on the first one’s ETag', async () => {
    const wire = heldFetch();
    const { store, row } = cached([ticket(1)], ['SUP-1']);
    const change = (changes: RecordData) =>
      store.changeRecord({
        record: ref('SUP-1'),
        definition: ticketsDefinition,
        changes,
        source: 'triage',
      });
    const first = change({ Status: 'Open' });
    const second = change({ Severity: 'High' });
    expect(row('SUP-1')).toMatchObject({ Status: 'Open', Severity: 'High' });
    expect(store.pendingWrites(ref('SUP-1'))).toEqual([
      { fields: ['Status'] },
      { fields: ['Severity'] },
    ]);
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1));
    expect(wire.requests[0]).toMatchObject({ method: 'PUT', body: { Status: 'Open' } });
    expect(wire.requests[0]?.headers.get('if-match')).toBe('"v1"');

    wire.requests[0]?.respond(jsonResponse(ticket(1, { Status: 'Open' }), 200, { ETag: '"v2"' }));
    await first.settled;
    await vi.waitFor(() => expect(wire.requests).toHaveLength(2));
    expect(wire.requests[1]).toMatchObject({ body: { Severity: 'High' } });
    expect(wire.requests[1]?.headers.get('if-match')).toBe('"v2"');
    // Still both on screen while the second is on the wire.
    expect(row('SUP-1')).toMatchObject({ Status: 'Open', Severity: 'High' });
    wire.requests[1]?.respond(
      jsonResponse(ticket(1, { Status: 'Open', Severity: 'High' }), 200, { ETag: '"v3"' }),
    );
    expect(await second.settled).toMatchObject({ status: 'confirmed' });
  });

  it('paints over a list or a record read again while a write is pending', async () => {
    const wire = heldFetch();
    const { queryClient, store, row, detail } = cached([ticket(1)], ['SUP-1']);
    const pending = store.changeRecord({
      record: ref('SUP-1'),
      definition: ticketsDefinition,
      changes: { Status: 'Open' },
      source: 'triage',
    });
    // The queue and the record are read again (a poll, a refetch) and answer the old status.
    await queryClient.fetchQuery({
      queryKey: listKey,
      queryFn: () => ({
        pages: [page([ticket(1, { Title: 'Renamed' })])],
        pageParams: [undefined],
      }),
    });
    expect(row('SUP-1')).toMatchObject({ Status: 'Open', Title: 'Renamed' });
    await queryClient.fetchQuery({
      queryKey: recordKeys.detail(RT, ALIAS, 'SUP-1'),
      queryFn: () => ({ record: ticket(1, { Title: 'Renamed' }), etag: '"v2"' }),
    });
    expect(detail('SUP-1')).toMatchObject({ Status: 'Open', Title: 'Renamed' });
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1));
    wire.requests[0]?.respond(jsonResponse(ticket(1, { Status: 'Open' }), 200, { ETag: '"v3"' }));
    await pending.settled;
    expect(row('SUP-1')?.Status).toBe('Open');
  });

  it('hosted: a record known from its row is saved in one PUT with the values seen', async () => {
    configureApi('hosted');
    const wire = heldFetch(() => new Response(null, { status: 200 }));
    const { id: _id, ...rest } = ticket(1);
    const handle = { ...rest, 'Ticket ID': 'SUP-1' };
    const { queryClient, store } = cached([]);
    queryClient.setQueryData(listKey, { pages: [page([handle])], pageParams: [undefined] });
    const saved = await store.changeRecord({
      record: ref('SUP-1'),
      definition: hostedTicketsDefinition,
      changes: { Status: 'Open' },
      source: 'triage',
    }).settled;
    expect(wire.all.map((r) => r.method)).toEqual(['PUT']);
    expect(wire.all[0]?.body).toEqual({ Status: 'Open' });
    const base = Buffer.from(wire.all[0]?.headers.get('x-base-values') ?? '', 'base64url');
    expect(JSON.parse(base.toString('utf8'))).toEqual({ Status: 'New' });
    expect(saved).toMatchObject({ status: 'confirmed', value: { record: { Status: 'Open' } } });
  });

  it('a 412 shows their version at once and the write after it goes out on it', async () => {
    configureApi('hosted');
    const wire = heldFetch();
    const handle = { 'Ticket ID': 'SUP-1', Title: 'Ticket 1', Status: 'New' };
    const { queryClient, store } = cached([]);
    queryClient.setQueryData(listKey, { pages: [page([handle])], pageParams: [undefined] });
    const rowOf = () =>
      queryClient.getQueryData<InfiniteData<RecordPagedList, unknown>>(listKey)?.pages[0]?.items[0]
        ?.data;
    const change = (changes: RecordData) =>
      store.changeRecord({
        record: ref('SUP-1'),
        definition: hostedTicketsDefinition,
        changes,
        source: 'triage',
      });
    const first = change({ Status: 'Open' });
    const second = change({ Title: 'Mine' });
    await vi.waitFor(() => expect(wire.requests).toHaveLength(1));
    wire.requests[0]?.respond(
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Changed by someone else',
          status: 412,
          code: 'stale_record',
          latest: { ...handle, Status: 'Pending' },
        },
        412,
      ),
    );
    expect(await first.settled).toMatchObject({ status: 'refused' });
    expect(rowOf()).toMatchObject({ Status: 'Pending', Title: 'Mine' });
    await vi.waitFor(() => expect(wire.requests).toHaveLength(2));
    const base = Buffer.from(wire.requests[1]?.headers.get('x-base-values') ?? '', 'base64url');
    expect(JSON.parse(base.toString('utf8'))).toEqual({ Title: 'Ticket 1' });
    wire.requests[1]?.respond(new Response(null, { status: 200 }));
    expect(await second.settled).toMatchObject({ status: 'confirmed' });
    expect(rowOf()).toMatchObject({ Status: 'Pending', Title: 'Mine' });
    // Nothing was read in the browser.
    expect(wire.all.map((r) => r.method)).toEqual(['PUT', 'PUT']);
  });
});

describe('the optimistic store (lists)', () => {
  it('shows a list change at once and takes it back when refused', async () => {
    const queryClient = new QueryClient();
    const key = ['watchers', 'apps', ALIAS, 'SUP-1'];
    queryClient.setQueryData(key, ['grace']);
    const store = optimisticStore(queryClient);
    let refuse: (error: Error) => void = () => undefined;
    const settled = store.changeList<string[], string>({
      queryKey: key,
      apply: (names) => [...names, 'ada'],
      send: () => new Promise((_resolve, reject) => (refuse = reject)),
      meta: 'ada',
    });
    expect(queryClient.getQueryData(key)).toEqual(['grace', 'ada']);
    expect(store.lists.pending(JSON.stringify(key))).toEqual(['ada']);
    await vi.waitFor(() => expect(store.lists.has(JSON.stringify(key))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    refuse(new Error('422'));
    expect(await settled).toMatchObject({ status: 'refused' });
    expect(queryClient.getQueryData(key)).toEqual(['grace']);
  });
});

describe('leaving the page with writes on their way', () => {
  /** Whether the browser would ask before leaving now. */
  const asksBeforeLeaving = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it('asks first while a write is pending, and not once it settled', async () => {
    const queryClient = new QueryClient();
    const key = ['watchers', 'apps', ALIAS, 'SUP-2'];
    queryClient.setQueryData(key, ['grace']);
    const store = optimisticStore(queryClient);
    expect(asksBeforeLeaving()).toBe(false);
    let confirm: (() => void) | undefined;
    const settled = store.changeList<string[], string>({
      queryKey: key,
      apply: (names) => [...names, 'ada'],
      send: () => new Promise<void>((resolve) => (confirm = resolve)),
      meta: 'ada',
    });
    expect(asksBeforeLeaving()).toBe(true);
    await vi.waitFor(() => expect(confirm).toBeDefined());
    expect(asksBeforeLeaving()).toBe(true);
    confirm?.();
    expect(await settled).toMatchObject({ status: 'confirmed' });
    expect(asksBeforeLeaving()).toBe(false);
  });
});
