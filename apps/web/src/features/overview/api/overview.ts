import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { withCountSlot } from '@/queries/record-counts.ts';

import type { Day } from '../lib/overview-model.ts';
import { countByDay, createdBetween } from '../lib/overview-model.ts';

/**
 * The most records the created-per-day line reads in one page to count them by day itself (one
 * request of about 400 KB for the demo's tickets); past it, it asks one count per day instead
 * (30 requests of 1 KB). Measured in ADR 0021.
 */
export const CREATED_ROWS_LIMIT = 500;

/**
 * The most open records read to find the oldest where the server cannot sort (the published
 * contract has no `sort`): one page at the contract's maximum.
 */
export const OPEN_ROWS_LIMIT = 1000;

/** How many oldest open records the Overview lists. */
export const OLDEST_OPEN_COUNT = 5;

const OVERVIEW_STALE_MS = 60_000;

/** The created-per-day line, or why there is none. */
export type CreatedPerDay =
  | { kind: 'counts'; counts: number[]; total: number; method: 'rows' | 'day-counts' }
  | { kind: 'unavailable'; reason: string };

/**
 * The query keys of the Overview's own reads (the counts behind its bars are
 * `filteredCountQueryOptions`).
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: overviewKeys.all });
 */
export const overviewKeys = {
  all: ['overview'] as const,
  createdPerDay: (recordType: RecordType, alias: string, field: string, from: string) =>
    ['overview', 'created-per-day', recordType, alias, field, from] as const,
  oldestOpen: (recordType: RecordType, alias: string, filter: string, serverSort: boolean) =>
    ['overview', 'oldest-open', recordType, alias, filter, serverSort] as const,
};

const search = (
  definition: Definition,
  options: { filter: string; first: number; sort?: string; signal: AbortSignal },
) =>
  withCountSlot(() =>
    api.searchRecords(definition.recordType as RecordType, definition.alias, options),
  );

/**
 * Records created per local day over `days` (the viewer's last 30 days). One count of the whole
 * window first; up to {@link CREATED_ROWS_LIMIT} records are then read in one page and counted
 * here, more are counted day by day on the server. A server that sends no `total` gets the page
 * read, and no line when the window holds more than one page.
 *
 * @example
 * const { data } = useQuery(createdPerDayQueryOptions(tickets, 'Created At', lastDays(new Date())));
 */
export function createdPerDayQueryOptions(definition: Definition, field: string, days: Day[]) {
  const from = days[0]?.start ?? '';
  const to = days.at(-1)?.end ?? '';
  const recordType = definition.recordType as RecordType;
  return queryOptions({
    queryKey: overviewKeys.createdPerDay(recordType, definition.alias, field, from),
    queryFn: async ({ signal }): Promise<CreatedPerDay> => {
      const filter = createdBetween(field, from, to);
      const window = await search(definition, { filter, first: 1, signal });
      const total = window.total;
      if (total !== undefined && total <= 0) {
        return { kind: 'counts', counts: days.map(() => 0), total: 0, method: 'rows' };
      }
      if (total === undefined || total <= CREATED_ROWS_LIMIT) {
        const page = await search(definition, {
          filter,
          first: total ?? CREATED_ROWS_LIMIT,
          signal,
        });
        if (total === undefined && page.paging.has_next_page) {
          return {
            kind: 'unavailable',
            reason: `More than ${CREATED_ROWS_LIMIT.toLocaleString()} records were created in these ${days.length} days, and this service sends no totals to count them by day.`,
          };
        }
        const counts = countByDay(
          page.items.map((item) => item.data[field] ?? ''),
          days,
        );
        return { kind: 'counts', counts, total: total ?? page.items.length, method: 'rows' };
      }
      const counts = await Promise.all(
        days.map(async (day) => {
          const reply = await search(definition, {
            filter: createdBetween(field, day.start, day.end),
            first: 1,
            signal,
          });
          return reply.total ?? 0;
        }),
      );
      return { kind: 'counts', counts, total, method: 'day-counts' };
    },
    staleTime: OVERVIEW_STALE_MS,
  });
}

/** The oldest open records, or why they cannot be told. */
export type OldestOpen =
  | { kind: 'records'; records: RecordData[]; sortedHere: boolean }
  | { kind: 'unavailable'; reason: string };

/**
 * The {@link OLDEST_OPEN_COUNT} open records created first. With `sort` (our API) one request
 * sorted by the created field; without (the published contract) up to {@link OPEN_ROWS_LIMIT}
 * open records are read and sorted here, and past that the Overview says it cannot tell.
 *
 * @example
 * const { data } = useQuery(oldestOpenQueryOptions(tickets, 'Created At', openFilter(status), true));
 */
export function oldestOpenQueryOptions(
  definition: Definition,
  field: string,
  filter: string,
  serverSort: boolean,
) {
  const recordType = definition.recordType as RecordType;
  return queryOptions({
    queryKey: overviewKeys.oldestOpen(recordType, definition.alias, filter, serverSort),
    queryFn: async ({ signal }): Promise<OldestOpen> => {
      if (serverSort) {
        const page = await search(definition, {
          filter,
          sort: field,
          first: OLDEST_OPEN_COUNT,
          signal,
        });
        return { kind: 'records', records: page.items.map((item) => item.data), sortedHere: false };
      }
      const page = await search(definition, { filter, first: OPEN_ROWS_LIMIT, signal });
      if (page.paging.has_next_page) {
        return {
          kind: 'unavailable',
          reason: `This service cannot sort records, and there are more than ${OPEN_ROWS_LIMIT.toLocaleString()} open ones to sort here.`,
        };
      }
      const created = (record: RecordData) => {
        const time = Date.parse(record[field] ?? '');
        return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
      };
      const records = page.items
        .map((item) => item.data)
        .sort((a, b) => created(a) - created(b))
        .slice(0, OLDEST_OPEN_COUNT);
      return { kind: 'records', records, sortedHere: true };
    },
    staleTime: OVERVIEW_STALE_MS,
  });
}
