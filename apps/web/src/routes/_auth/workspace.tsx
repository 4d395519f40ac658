import { createFileRoute } from '@tanstack/react-router';

import { workspaceQueryOptions } from '@/features/workspace-setup/api/get-workspace.ts';
import { WorkspaceSetup } from '@/features/workspace-setup/components/workspace-setup.tsx';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

import { RouteError } from '../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/workspace')({
  // Only the hosted profile has a workspace description: the extended one answers 409.
  loader: async ({ context }) => {
    if (context.session.capabilities.definitions === 'workspace') {
      await context.queryClient.ensureQueryData(workspaceQueryOptions());
    }
  },
  head: () => ({ meta: [{ title: 'Workspace setup · Workspace Console' }] }),
  errorComponent: RouteError,
  component: WorkspacePage,
});

function WorkspacePage() {
  const { session, queryClient } = Route.useRouteContext();
  return (
    <WorkspaceSetup
      definitions={session.capabilities.definitions}
      region={session.region}
      // The sidebar, overview and record pages read the definitions: refresh them after a change.
      onDescriptionChanged={() =>
        void queryClient.invalidateQueries({ queryKey: definitionsQueryOptions().queryKey })
      }
    />
  );
}
