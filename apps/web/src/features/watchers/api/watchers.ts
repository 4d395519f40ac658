import { queryOptions } from '@tanstack/react-query';

import type { RecordRef } from '@/queries/records.ts';
import { api } from '@/lib/api.ts';
import { recordKeys } from '@/queries/records.ts';

/**
 * A record's watchers (oldest first; one page covers any realistic list).
 *
 * @example
 * const { data } = useQuery(watchersQueryOptions({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }));
 */
export function watchersQueryOptions(record: RecordRef) {
  return queryOptions({
    queryKey: recordKeys.watchers(record),
    queryFn: ({ signal }) =>
      api.listWatchers(record.recordType, record.alias, record.id, { first: 500, signal }),
    staleTime: 0,
  });
}

/**
 * Adds watchers by email (inactive or unknown emails -> 422, nothing changed).
 *
 * @example
 * await addWatchers(record, ['ada@helpdesk.example']);
 */
export function addWatchers(record: RecordRef, emails: string[]) {
  return api.addWatchers(record.recordType, record.alias, record.id, emails, {
    source: 'watchers',
  });
}

/**
 * Removes watchers by email.
 *
 * @example
 * await removeWatchers(record, ['ada@helpdesk.example']);
 */
export function removeWatchers(record: RecordRef, emails: string[]) {
  return api.removeWatchers(record.recordType, record.alias, record.id, emails, {
    source: 'watchers',
  });
}
