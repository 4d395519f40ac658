import type { InfiniteData } from '@tanstack/react-query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { RecordData } from '@wsc/api-client';

import { checkLiveQueueNow } from '@/queries/live-queue.ts';
import { recordSearchQueryOptions } from '@/queries/records.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import type { LivePage } from './live-queue.ts';
import { firstPageOf, useLiveQueue } from './use-live-queue.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const empty = {
  paging: { has_previous_page: false, start_cursor: null, end_cursor: null, has_next_page: false },
  total: 0,
  items: [],
};

describe('firstPageOf', () => {
  it('sends exactly the request of the list’s first page', async () => {
    const urls: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      urls.push(String(input));
      return jsonResponse(empty);
    });
    const search = { filter: 'Status==Open', sort: '-Created At', cursor: 'abc' };
    const options = recordSearchQueryOptions(
      'apps',
      'support-tickets',
      search,
      true,
      ticketsDefinition.fields,
    );
    const client = new QueryClient();
    await client.fetchInfiniteQuery(options);
    await firstPageOf(options, client, new AbortController().signal);
    expect(urls).toHaveLength(2);
    expect(urls[1]).toBe(urls[0]);
    const sent = new URL(urls[1] ?? '', 'http://localhost').searchParams;
    expect(Object.fromEntries(sent)).toEqual({
      filter: 'Status==Open',
      sort: '-Created At',
      first: '100',
      after: 'abc',
    });
  });
});

describe('useLiveQueue', () => {
  const key = ['records', 'apps', 'live-test', {}];
  const rec = (id: string, extra: RecordData = {}): RecordData => ({ id, Title: id, ...extra });
  const page = (...records: RecordData[]): LivePage => ({
    items: records.map((data) => ({ cursor: `c-${data.id}`, data })),
    total: records.length,
  });
  const ids = (client: QueryClient) =>
    client
      .getQueryData<InfiniteData<LivePage>>(key)
      ?.pages.flatMap((p) => p.items.map((i) => i.data.id));

  function mount(loaded: LivePage, polled: LivePage) {
    const client = new QueryClient();
    client.setQueryData<InfiniteData<LivePage>>(key, { pages: [loaded], pageParams: [undefined] });
    const fetchFirstPage = vi.fn(() => Promise.resolve(polled));
    const onBeforeChange = vi.fn();
    const hook = renderHook(
      () =>
        useLiveQueue({
          queryKey: key,
          fetchFirstPage,
          idOf: (r) => r.id,
          recordType: 'apps',
          alias: 'live-test',
          hasNextPage: true,
          enabled: true,
          onBeforeChange,
        }),
      {
        wrapper: ({ children }) => (
          <QueryClientProvider client={client}>{children}</QueryClientProvider>
        ),
      },
    );
    return { client, fetchFirstPage, onBeforeChange, ...hook };
  }

  it('on checkLiveQueueNow: updates held rows at once, holds new ones until merge()', async () => {
    const { client, fetchFirstPage, onBeforeChange, result, unmount } = mount(
      page(rec('A'), rec('B'), rec('C')),
      page(rec('N'), rec('A'), rec('B', { Status: 'Open' }), rec('C')),
    );
    expect(fetchFirstPage).not.toHaveBeenCalled();
    act(() => {
      expect(checkLiveQueueNow('apps', 'live-test')).toBe(1);
    });
    await waitFor(() => expect(result.current.freshCount).toBe(1));
    expect(fetchFirstPage).toHaveBeenCalledTimes(1);
    // The change is in place at once; the new record waits.
    expect(ids(client)).toEqual(['A', 'B', 'C']);
    expect(client.getQueryData<InfiniteData<LivePage>>(key)?.pages[0]?.items[1]?.data.Status).toBe(
      'Open',
    );
    expect(onBeforeChange).toHaveBeenCalledTimes(1);
    act(() => result.current.merge());
    expect(ids(client)).toEqual(['N', 'A', 'B', 'C']);
    expect(result.current.freshCount).toBe(0);
    expect(onBeforeChange).toHaveBeenCalledTimes(2);
    // Unmounted, the list is no longer asked.
    unmount();
    expect(checkLiveQueueNow('apps', 'live-test')).toBe(0);
  });

  it('puts new records straight into an empty list', async () => {
    const { client } = mount(page(), page(rec('N')));
    act(() => {
      checkLiveQueueNow('apps', 'live-test');
    });
    await waitFor(() => expect(ids(client)).toEqual(['N']));
  });
});
