import type { QueryClient } from '@tanstack/react-query';

import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

/**
 * Right after sign-in, the signed-in shell's first requests at once: the session, the
 * definitions and the saved views need nothing of one another, so none waits for another's
 * answer (the definitions are a round trip to the service). Resolves with the session, which
 * the shell's route needs before it renders; the other two land in the cache for the shell and
 * the first list (whose own request starts as soon as its route loads).
 *
 * @example
 * await startShell(queryClient);
 * router.history.push(target);
 */
export async function startShell(queryClient: QueryClient) {
  const session = queryClient.fetchQuery(sessionQueryOptions());
  // Failures are the shell's to show where they happen, as when it starts them itself.
  void queryClient.prefetchQuery(definitionsQueryOptions());
  void queryClient.prefetchQuery(savedViewsQueryOptions());
  return session;
}
