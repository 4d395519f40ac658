import type { QueryClient } from '@tanstack/react-query';

import type { Session } from '@/features/auth/api/session.ts';
import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

/**
 * Right after sign-in, the signed-in shell's first requests at once. The sign-in's reply is the
 * session, so it goes into the cache as it is (asking `GET /bff/session` again would put one more
 * round trip before the first list); the definitions and the saved views need nothing of each
 * other, so both start now and land in the cache for the shell and the first list (whose own
 * request starts as soon as its route loads).
 *
 * @example
 * startShell(queryClient, await login(input));
 * router.history.push(target);
 */
export function startShell(queryClient: QueryClient, session: Session): void {
  queryClient.setQueryData(sessionQueryOptions().queryKey, session);
  // Failures are the shell's to show where they happen, as when it starts them itself.
  void queryClient.prefetchQuery(definitionsQueryOptions());
  void queryClient.prefetchQuery(savedViewsQueryOptions());
}
