// The first page a sign-in brought along (issue 27 item 4), handed over: the BFF read the records
// list the sign-in leads to beside the person's identity; the sign-in page puts that page here,
// and the list's route takes it (`keepHandedFirstPage`) and keeps it where the list's query looks.
import type { QueryClient } from '@tanstack/react-query';

import type { SignInFirstPage } from '@wsc/api-client';

/** Where the handed-over page waits in the query cache (cleared with it at the next sign-in). */
const HANDED_KEY = ['sign-in', 'first-page'] as const;

/**
 * Hands the page the sign-in brought over to the list's route.
 *
 * @example
 * if (result.firstPage) handOverFirstPage(queryClient, result.firstPage);
 */
export function handOverFirstPage(queryClient: QueryClient, firstPage: SignInFirstPage): void {
  queryClient.setQueryData(HANDED_KEY, firstPage);
}

/**
 * The handed-over page, once: taking it removes it.
 *
 * @example
 * const handed = takeHandedFirstPage(queryClient);
 */
export function takeHandedFirstPage(queryClient: QueryClient): SignInFirstPage | undefined {
  const handed = queryClient.getQueryData<SignInFirstPage>(HANDED_KEY);
  if (handed) queryClient.removeQueries({ queryKey: HANDED_KEY, exact: true });
  return handed;
}
