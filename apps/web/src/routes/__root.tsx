import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, HeadContent, Link, Outlet } from '@tanstack/react-router';

export interface RouterContext {
  queryClient: QueryClient;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <>
      <HeadContent />
      <Outlet />
    </>
  );
}

function NotFound() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-10 text-center">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="text-muted-foreground text-sm">
        This page does not exist. The link may be wrong or outdated.
      </p>
      <Link to="/" className="text-primary text-sm font-medium underline-offset-4 hover:underline">
        Go to the overview
      </Link>
    </div>
  );
}
