import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor, RecordPagedListSchema } from '@wsc/api-client';

import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { RECORDS_FIRST_PAGE_SIZE, recordSearchQueryOptions } from '@/queries/records.ts';
import { handOverFirstPage } from '@/routes/-components/first-page-handoff.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { keepHandedFirstPage, startFirstPageEarly } from './first-page.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const params = { recordType: 'apps' as const, alias: 'support-tickets' };
const plain = { filter: undefined, sort: undefined, cursor: undefined };
const emptyPage = {
  paging: { has_previous_page: false, has_next_page: false },
  total: 0,
  items: [],
};

function spyLists() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => jsonResponse(emptyPage));
}

describe('startFirstPageEarly', () => {
  it('asks for the first page at once while the definitions are not loaded, and only once', async () => {
    const fetch = spyLists();
    const queryClient = new QueryClient();
    const capabilities = capabilitiesFor('extended');
    expect(startFirstPageEarly(queryClient, capabilities, params, plain)).toBe(true);
    // The loader asks again: the request in flight serves both.
    expect(startFirstPageEarly(queryClient, capabilities, params, plain)).toBe(true);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/api/v1/apps/support-tickets');
  });

  it('leaves it to the loader once the definitions are known, or for a relative date', () => {
    const fetch = spyLists();
    const queryClient = new QueryClient();
    const capabilities = capabilitiesFor('extended');
    expect(
      startFirstPageEarly(queryClient, capabilities, params, {
        ...plain,
        filter: 'Due Date=ge={today}',
      }),
    ).toBe(false);
    queryClient.setQueryData(definitionsQueryOptions().queryKey, { items: [ticketsDefinition] });
    expect(startFirstPageEarly(queryClient, capabilities, params, plain)).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('never lists element records where the service cannot (hosted)', () => {
    const fetch = spyLists();
    const queryClient = new QueryClient();
    expect(
      startFirstPageEarly(
        queryClient,
        capabilitiesFor('hosted'),
        { recordType: 'elements', alias: 'customers' },
        plain,
      ),
    ).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('keepHandedFirstPage', () => {
  const page = RecordPagedListSchema.parse({
    paging: { has_previous_page: false, has_next_page: false },
    total: 1,
    items: [{ cursor: 'c1', data: { id: 'SUP-1', Title: 'Printer' } }],
  });
  const request = {
    recordType: 'apps' as const,
    alias: 'support-tickets',
    filter: 'Status==Open',
    sort: '-Title',
    first: RECORDS_FIRST_PAGE_SIZE,
  };
  const listOf = (queryClient: QueryClient, serverSort: boolean) =>
    queryClient.getQueryData(
      recordSearchQueryOptions(
        'apps',
        'support-tickets',
        { filter: 'Status==Open', sort: '-Title', cursor: undefined },
        serverSort,
        [],
      ).queryKey,
    );

  it('puts the page the sign-in handed over where the list’s query finds it, once', () => {
    const queryClient = new QueryClient();
    handOverFirstPage(queryClient, { request, page });
    keepHandedFirstPage(queryClient, capabilitiesFor('extended'));
    expect(listOf(queryClient, true)).toEqual({
      pages: [page],
      pageParams: [{ after: undefined, first: RECORDS_FIRST_PAGE_SIZE }],
    });
    // Taken: a list entered later reads its own page.
    queryClient.removeQueries();
    keepHandedFirstPage(queryClient, capabilitiesFor('extended'));
    expect(listOf(queryClient, true)).toBeUndefined();
  });

  it('keys it without the sort where the service cannot sort', () => {
    const queryClient = new QueryClient();
    handOverFirstPage(queryClient, { request: { ...request, sort: undefined }, page });
    keepHandedFirstPage(queryClient, capabilitiesFor('hosted'));
    expect(listOf(queryClient, false)).toEqual(expect.objectContaining({ pages: [page] }));
    expect(listOf(queryClient, true)).toBeUndefined();
  });
});
