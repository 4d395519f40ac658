// What the console forgets when a session ends, whichever way it ends: signed out here, or a 401
// from the BFF (expired, signed out in another tab, SESSION_SECRET rotated). Routes and the app
// entry call these; features stay unaware of each other.
import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';

import { sessionQueryOptions } from '@/features/auth/api/session.ts';
import { clearDrafts } from '@/features/comments/lib/drafts.ts';
import { onUnauthorized } from '@/lib/api.ts';

/**
 * Clears what this tab keeps for the signed-in person outside the query cache: comment drafts in
 * sessionStorage, which are keyed by record and would otherwise greet the next person to sign in.
 *
 * @example
 * forgetSessionData();
 */
export function forgetSessionData(): void {
  clearDrafts();
}

/**
 * After `POST /bff/logout` (answered or not): drop every cached answer and the tab's session
 * data, then go to sign-in.
 *
 * @example
 * useMutation({ mutationFn: logout, onSettled: () => afterSignOut(queryClient, router) });
 */
export async function afterSignOut(queryClient: QueryClient, router: AnyRouter): Promise<void> {
  queryClient.clear();
  forgetSessionData();
  await router.navigate({ to: '/sign-in', search: {} });
}

/**
 * Makes a 401 from `/api` end the session in this tab: forget its data, mark it signed out, and
 * go to sign-in, coming back to this exact URL afterwards. Installed once by the app entry.
 *
 * @example
 * installSessionEndHandling(router, queryClient);
 */
export function installSessionEndHandling(router: AnyRouter, queryClient: QueryClient): void {
  onUnauthorized(() => {
    if (router.state.location.pathname === '/sign-in') return;
    forgetSessionData();
    queryClient.setQueryData(sessionQueryOptions().queryKey, null);
    void router.navigate({
      to: '/sign-in',
      search: { redirect: router.state.location.href, expired: true },
    });
  });
}
