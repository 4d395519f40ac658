import type { QueryClient } from '@tanstack/react-query';

import type { Capabilities, RecordType } from '@wsc/api-client';

import type { RecordSearchParams } from '@/queries/records.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { holdsRelativeDate, recordSearchQueryOptions } from '@/queries/records.ts';
import { takeHandedFirstPage } from '@/routes/-components/first-page-handoff.ts';

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

/**
 * Keeps the first page the sign-in handed over, if any ({@link takeHandedFirstPage}), where the
 * query of the list the BFF read looks for it: the list entered right after signing in shows its
 * rows without a request of its own.
 *
 * @example
 * keepHandedFirstPage(context.queryClient, context.session.capabilities); // in beforeLoad
 */
export function keepHandedFirstPage(
  queryClient: QueryClient,
  capabilities: Pick<Capabilities, 'sort'>,
): void {
  const handed = takeHandedFirstPage(queryClient);
  if (!handed) return;
  const { recordType, alias, filter, sort, first } = handed.request;
  const options = recordSearchQueryOptions(
    recordType,
    alias,
    { filter, sort, cursor: undefined },
    capabilities.sort,
    [],
  );
  queryClient.setQueryData(options.queryKey, {
    pages: [handed.page],
    pageParams: [{ after: undefined, first }],
  });
}
