import { useMutation, useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, redirect, useRouter } from '@tanstack/react-router';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { AppShell } from '@/components/layouts/app-shell.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Toaster } from '@/components/ui/toast.tsx';
import { UploadTrayHost } from '@/features/attachments/components/upload-tray-host.tsx';
import { isAdministrator, logout, sessionQueryOptions } from '@/features/auth/api/session.ts';
import { PaletteLauncher } from '@/features/command-palette/components/palette-launcher.tsx';
import { DefinitionNav } from '@/features/definitions/components/definition-nav.tsx';
import { SavedViewsNav } from '@/features/saved-views/components/saved-views-nav.tsx';
import { CapabilitiesContext } from '@/lib/capabilities.ts';
import { savedViewsQueryOptions } from '@/lib/saved-views.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

import { RouteError } from './-components/route-error.tsx';
import { afterSignOut, forgetSessionData } from './-components/session-end.ts';

// Pathless layout: everything inside needs a session; without one, go to sign-in and come back.
export const Route = createFileRoute('/_auth')({
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQueryOptions());
    if (!session) {
      // The BFF answered 401 (expired, signed out elsewhere): nothing typed under it may stay.
      forgetSessionData();
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
    // Warm, don't await: a failing definitions call (429, 5xx) must not take the whole shell down;
    // the sidebar and the page each show it where it happens. Started here rather than in a
    // loader so that, on a page load, they travel alongside what the page's own beforeLoad asks
    // (the records list looks for a default saved view) instead of after it.
    void context.queryClient.prefetchQuery(definitionsQueryOptions());
    void context.queryClient.prefetchQuery(savedViewsQueryOptions());
    return { session };
  },
  errorComponent: RouteError,
  component: AuthLayout,
});

function AuthLayout() {
  const { session, queryClient } = Route.useRouteContext();
  const router = useRouter();
  const definitions = useQuery(definitionsQueryOptions());
  const signOut = useMutation({
    mutationFn: logout,
    onSettled: () => afterSignOut(queryClient, router),
  });
  return (
    <CapabilitiesContext value={session.capabilities}>
      <AppShell
        user={session.user}
        region={session.region}
        workspaceSetup={session.capabilities.definitions === 'workspace'}
        history={isAdministrator(session.user)}
        sidebar={
          definitions.isPending ? (
            <div className="grid gap-2 px-2" aria-busy="true">
              {Array.from({ length: 4 }, (_, i) => (
                <Skeleton key={i} className="h-7 w-full" />
              ))}
            </div>
          ) : definitions.isError ? (
            <ErrorPanel
              compact
              error={definitions.error}
              onRetry={() => void definitions.refetch()}
            />
          ) : (
            <>
              <DefinitionNav definitions={definitions.data.items} />
              <SavedViewsNav definitions={definitions.data.items} />
            </>
          )
        }
        search={<PaletteLauncher definitions={definitions.data?.items ?? []} />}
        onSignOut={() => signOut.mutate()}
        signingOut={signOut.isPending}
      >
        <Outlet />
        {/* Outside the pages, so uploads and undo toasts survive navigation within the console. */}
        <UploadTrayHost />
        <Toaster />
      </AppShell>
    </CapabilitiesContext>
  );
}
