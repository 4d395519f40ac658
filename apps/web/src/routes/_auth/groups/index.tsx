import { createFileRoute } from '@tanstack/react-router';

import { GroupsView } from '@/features/groups/components/groups-view.tsx';
import { groupsListQueryOptions } from '@/queries/groups.ts';

import { RouteError } from '../../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/groups/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(groupsListQueryOptions());
  },
  head: () => ({ meta: [{ title: 'Groups · Workspace Console' }] }),
  errorComponent: RouteError,
  component: GroupsPage,
});

function GroupsPage() {
  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-3">
        <h1 className="text-lg font-semibold tracking-tight">Groups</h1>
      </div>
      <GroupsView />
    </>
  );
}
