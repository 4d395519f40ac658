import { queryOptions } from '@tanstack/react-query';

import type { WatcherPagedList } from '@wsc/api-client';

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

/** Who is added: the person as the picker found them. */
export interface NewWatcher {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * The watchers list with a person added, as it shows at once (the server's row replaces it when
 * the list is read again).
 *
 * @example
 * withWatcher(list, { email: 'ada@helpdesk.example', firstName: 'Ada', lastName: 'Lovelace' });
 */
export function withWatcher(list: WatcherPagedList, person: NewWatcher): WatcherPagedList {
  const { email, firstName, lastName } = person;
  const name = `${firstName} ${lastName}`.trim() || email;
  const target = { id: undefined, type: 'User', firstName, lastName, email, name };
  return {
    ...list,
    total: list.total === undefined ? undefined : list.total + 1,
    items: [...list.items, { id: undefined, target }],
  };
}

/**
 * The watchers list without the person of `email`.
 *
 * @example
 * withoutWatcher(list, 'grace@helpdesk.example');
 */
export function withoutWatcher(list: WatcherPagedList, email: string): WatcherPagedList {
  const items = list.items.filter((w) => w.target.email !== email);
  const gone = list.items.length - items.length;
  return { ...list, total: list.total === undefined ? undefined : list.total - gone, items };
}
