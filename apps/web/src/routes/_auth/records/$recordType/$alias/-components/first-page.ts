import type { QueryClient } from '@tanstack/react-query';

import type { Capabilities, RecordType } from '@wsc/api-client';

import type { RecordSearchParams } from '@/queries/records.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { holdsRelativeDate, recordSearchQueryOptions } from '@/queries/records.ts';

/**
 * Starts a list's first page before the definitions are loaded (a page load, a sign-in), when it
 * cannot depend on them: no relative date to resolve against the fields, and a record type the
 * service lists. Returns whether it did; asking again while it is in flight or fresh sends
 * nothing more, so the route's `beforeLoad` and its loader can both call it.
 *
 * @example
 * if (!startFirstPageEarly(queryClient, session.capabilities, params, deps)) prefetchLater();
 */
export function startFirstPageEarly(
  queryClient: QueryClient,
  capabilities: Pick<Capabilities, 'sort' | 'elementLists'>,
  params: { recordType: RecordType; alias: string },
  deps: RecordSearchParams,
): boolean {
  const early =
    queryClient.getQueryData(definitionsQueryOptions().queryKey) === undefined &&
    !holdsRelativeDate(deps.filter) &&
    (params.recordType !== 'elements' || capabilities.elementLists);
  if (early) {
    void queryClient.prefetchInfiniteQuery(
      recordSearchQueryOptions(params.recordType, params.alias, deps, capabilities.sort, []),
    );
  }
  return early;
}
