import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { displayName } from '@/features/auth/api/session.ts';
import { DefinitionCards } from '@/features/definitions/components/definition-nav.tsx';
import { OverviewCharts } from '@/features/overview/components/overview-charts.tsx';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

export const Route = createFileRoute('/_auth/')({
  head: () => ({ meta: [{ title: 'Overview · Workspace Console' }] }),
  component: Overview,
});

// Not suspending on the definitions: a page that needs none of them (the greeting, the links to
// users and groups) must not fail with them.
function Overview() {
  const { session } = Route.useRouteContext();
  const definitions = useQuery(definitionsQueryOptions());
  const described = session.capabilities.definitions === 'workspace';
  return (
    <div className="mx-auto w-full max-w-5xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold tracking-tight">
        Welcome, {session.user.firstName || displayName(session.user)}
      </h1>
      <p className="text-muted-foreground mt-1 mb-6 text-sm">
        Pick a record type to browse, filter and edit.
      </p>
      {definitions.isPending ? (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-20" />
          ))}
        </div>
      ) : definitions.isError ? (
        <ErrorPanel error={definitions.error} onRetry={() => void definitions.refetch()} />
      ) : definitions.data.items.length === 0 ? (
        <p className="text-muted-foreground rounded-lg border border-dashed p-8 text-center text-sm">
          {described ? (
            <>
              No record types are described for this region yet.{' '}
              <Link
                to="/workspace"
                className="text-primary font-medium underline-offset-4 hover:underline"
              >
                Add one on the Workspace setup page
              </Link>
              .
            </>
          ) : (
            'No record types are shared with you yet. Ask an administrator to add you to a group.'
          )}
        </p>
      ) : (
        <div className="grid gap-6">
          <DefinitionCards definitions={definitions.data.items} />
          <OverviewCharts definitions={definitions.data.items} />
        </div>
      )}
    </div>
  );
}
