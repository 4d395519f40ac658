import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { RecordType } from '@wsc/api-client';
import type { HistoryQuery } from '@wsc/api-client/bff-history';
import { createBffHistoryClient } from '@wsc/api-client/bff-history';

import type { RecordRef } from '@/queries/records.ts';

const PAGE = 50;

/** Created here, not in lib/bff.ts: the history's client stays out of the first load. */
const history = createBffHistoryClient();

/** Query keys of the record history: one record's, and the administrators' filtered log. */
export const historyKeys = {
  all: ['history'] as const,
  record: (record: RecordRef) =>
    ['history', 'record', record.recordType, record.alias, record.id] as const,
  log: (filters: HistoryFilters) => ['history', 'log', filters] as const,
  actors: ['history', 'actors'] as const,
};

/**
 * The people the region's log names (administrators): id, latest name, identity kind. The log's
 * user filter offers them: people are matched by id, never by a name anyone could type.
 *
 * @example
 * const people = useQuery(historyActorsQueryOptions());
 */
export function historyActorsQueryOptions() {
  return queryOptions({
    queryKey: historyKeys.actors,
    queryFn: ({ signal }) => history.actors({ signal }),
    staleTime: 30_000,
  });
}

/**
 * Erases one record's history (administrators).
 *
 * @example
 * await eraseRecordHistory({ recordType: 'apps', alias: 'tickets', id: 'SUP-1' });
 */
export function eraseRecordHistory(record: { recordType: RecordType; alias: string; id: string }) {
  return history.eraseRecord(record.recordType, record.alias, record.id);
}

/**
 * Erases everything the BFF keeps about one person (administrators).
 *
 * @example
 * await erasePerson('0b9d4c1e-…');
 */
export function erasePerson(ownerId: string) {
  return history.erasePerson(ownerId);
}

/**
 * One record's changes made through the console, newest first; "Load older" follows `next`.
 *
 * @example
 * const query = useInfiniteQuery(recordHistoryQueryOptions({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }));
 */
export function recordHistoryQueryOptions(record: RecordRef) {
  return infiniteQueryOptions({
    queryKey: historyKeys.record(record),
    queryFn: ({ pageParam, signal }) =>
      history.record(
        record.recordType,
        record.alias,
        record.id,
        { first: PAGE, ...(pageParam ? { after: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });
}

/** The administrators' filters as the page holds them (empty text: no filter). */
export type HistoryFilters = Pick<HistoryQuery, 'user' | 'recordType' | 'alias' | 'from' | 'to'>;

/**
 * The region's whole log (administrators), filtered, newest first.
 *
 * @example
 * const query = useInfiniteQuery(historyLogQueryOptions({ user: 'u-1' }));
 */
export function historyLogQueryOptions(filters: HistoryFilters) {
  return infiniteQueryOptions({
    queryKey: historyKeys.log(filters),
    queryFn: ({ pageParam, signal }) =>
      history.list(
        { ...filters, first: PAGE, ...(pageParam ? { after: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: 0,
  });
}

/**
 * The CSV export's URL for the filters (a plain download: the BFF streams it).
 *
 * @example
 * historyExportUrl({ user: 'u-1' }); // '/bff/history/export.csv?user=u-1'
 */
export function historyExportUrl(filters: HistoryFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  const query = params.toString();
  return `/bff/history/export.csv${query ? `?${query}` : ''}`;
}
