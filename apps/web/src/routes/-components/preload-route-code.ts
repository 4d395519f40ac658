import type { AnyRoute, AnyRouter } from '@tanstack/react-router';

/**
 * Loads the code of every route that `href` (a path on this origin) matches, without running
 * their loaders: what signing in leads to can arrive while the user types, so that after the
 * click only the data is waited for. Best effort: a failure here is met again, and shown, by the
 * navigation itself.
 *
 * @example
 * useEffect(() => whenIdle(() => void preloadRouteCode(router, '/records/apps/support-tickets')), [router]);
 */
export async function preloadRouteCode(router: AnyRouter, href: string): Promise<void> {
  try {
    const { pathname } = new URL(href, window.location.origin);
    const routes = router
      .matchRoutes(pathname)
      .map((match) => (router.routesById as Record<string, AnyRoute | undefined>)[match.routeId]);
    await Promise.all(routes.map((route) => (route ? router.loadRouteChunk(route) : undefined)));
  } catch {
    // Left to the navigation.
  }
}
