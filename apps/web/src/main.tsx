import { QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { INTENT_DELAY_MS } from '@/lib/intent-delay.ts';
import { createQueryClient } from '@/lib/query-client.ts';

import { RouteError } from './routes/-components/route-error.tsx';
import { installSessionEndHandling } from './routes/-components/session-end.ts';
import { routeTree } from './routeTree.gen.ts';

import './styles.css';

const queryClient = createQueryClient();

const router = createRouter({
  routeTree,
  context: { queryClient },
  // A link the pointer rests on for a moment starts its route's requests (a sidebar entry: its
  // first rows); passing over it starts nothing (INTENT_DELAY_MS; rows: lib/hover-intent.ts).
  defaultPreload: 'intent',
  defaultPreloadDelay: INTENT_DELAY_MS,
  // Query owns caching; the router should always ask it rather than keep its own stale copy.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  // Errors show in the nearest route's place, so the shell (navigation, sign-out) stays usable.
  defaultErrorComponent: RouteError,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// A 401 from /api means the session ended (expired, or signed out in another tab): forget the
// tab's session data, go to sign-in and come back to this exact URL afterwards.
installSessionEndHandling(router, queryClient);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
