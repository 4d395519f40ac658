import { queryOptions } from '@tanstack/react-query';

import type { RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/**
 * Count requests in flight at once, whoever asks: the Overview asks for dozens of counts when it
 * opens, and the BFF admits 16 requests in flight per session (429 past it) while the API's rate
 * limit allows bursts of 100. Four leave room for the page's other requests.
 */
export const COUNT_CONCURRENCY = 4;

/** How long a count is fresh: the Overview is a glance, not a live feed. */
const COUNT_STALE_MS = 60_000;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Runs `task` when fewer than {@link COUNT_CONCURRENCY} limited tasks are running, in call order.
 *
 * @example
 * const page = await withCountSlot(() => api.searchRecords('apps', 'tickets', { first: 1 }));
 */
export async function withCountSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= COUNT_CONCURRENCY) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await task();
  } finally {
    // The slot passes straight to the next in line, so `running` counts it still taken.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/**
 * The query keys of filtered counts: under `['record-count', type, alias]`, the key of the
 * definition's unfiltered count, so one invalidation of that prefix refreshes both.
 *
 * @example
 * recordCountKeys.filtered('apps', 'support-tickets', 'Status==Open');
 */
export const recordCountKeys = {
  filtered: (recordType: RecordType, alias: string, filter: string) =>
    ['record-count', recordType, alias, 'filtered', filter] as const,
  each: (recordType: RecordType, alias: string, filters: readonly string[]) =>
    ['record-count', recordType, alias, 'each', filters] as const,
};

/** One filter's count through the lanes: `null` when the server sends no `total`. */
const countOf = (recordType: RecordType, alias: string, filter: string, signal: AbortSignal) =>
  withCountSlot(
    async () =>
      (await api.searchRecords(recordType, alias, { filter, first: 1, signal })).total ?? null,
  );

/**
 * The number of records of a definition matching an RSQL filter: a one-item search's `total`
 * (`null` when the server sends none), through the shared count lanes and fresh for a minute.
 *
 * @example
 * const { data: open } = useQuery(filteredCountQueryOptions('apps', 'support-tickets', 'Status==Open'));
 */
export function filteredCountQueryOptions(recordType: RecordType, alias: string, filter: string) {
  return queryOptions({
    queryKey: recordCountKeys.filtered(recordType, alias, filter),
    queryFn: ({ signal }) => countOf(recordType, alias, filter, signal),
    staleTime: COUNT_STALE_MS,
  });
}

/**
 * The counts of several filters of one definition, in order, as one query (a chart's bars arrive
 * together); each is a one-item search's `total` through the shared lanes.
 *
 * @example
 * const { data } = useQuery(filteredCountsQueryOptions('apps', 'support-tickets', ['Severity==Low', 'Severity==High']));
 */
export function filteredCountsQueryOptions(
  recordType: RecordType,
  alias: string,
  filters: readonly string[],
) {
  return queryOptions({
    queryKey: recordCountKeys.each(recordType, alias, filters),
    queryFn: ({ signal }) =>
      Promise.all(filters.map((filter) => countOf(recordType, alias, filter, signal))),
    staleTime: COUNT_STALE_MS,
  });
}
