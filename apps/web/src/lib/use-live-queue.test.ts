import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { recordSearchQueryOptions } from '@/queries/records.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { firstPageOf } from './use-live-queue.ts';

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
