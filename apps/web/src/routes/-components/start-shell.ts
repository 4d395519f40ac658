import type { QueryClient } from '@tanstack/react-query';

import type { LoginResult } from '@wsc/api-client';

import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

/**
 * Right after sign-in, the signed-in shell's first data, in a cache emptied of the previous
 * session's. The sign-in's reply is the session, so it
 * goes into the cache as it is (asking `GET /bff/session` again would put one more round trip
 * before the first list); so do the definitions, which the BFF read beside the person's identity,
 * and the person's saved views, which a records list looks at for its default view before it
 * shows a row (the first page it read too is handed to the list's route: `handOverFirstPage`).
 * What the reply lacks is asked for at once: the definitions and the saved views need nothing of
 * each other, so both start now and land in the cache for the shell and the first list.
 *
 * @example
 * startShell(queryClient, await login(input));
 * router.history.push(target);
 */
export function startShell(queryClient: QueryClient, result: LoginResult): void {
  // A new identity: nothing cached under the previous session may leak into this one.
  queryClient.clear();
  const { definitions, views, firstPage: _page, ...session } = result;
  queryClient.setQueryData(sessionQueryOptions().queryKey, session);
  // Failures are the shell's to show where they happen, as when it starts them itself.
  if (definitions)
    queryClient.setQueryData(definitionsQueryOptions().queryKey, { items: definitions });
  else void queryClient.prefetchQuery(definitionsQueryOptions());
  if (views) queryClient.setQueryData(savedViewsQueryOptions().queryKey, views);
  else void queryClient.prefetchQuery(savedViewsQueryOptions());
}
