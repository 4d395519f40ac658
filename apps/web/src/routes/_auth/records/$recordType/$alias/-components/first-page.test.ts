import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { capabilitiesFor } from '@wsc/api-client';

import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { jsonResponse, ticketsDefinition } from '@/testing/render.tsx';

import { startFirstPageEarly } from './first-page.ts';

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
