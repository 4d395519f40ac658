import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';

import { canManage } from '@/features/auth/api/session.ts';
import { GroupDetail } from '@/features/groups/components/group-detail.tsx';
import { groupMembersQueryOptions, groupQueryOptions } from '@/queries/groups.ts';

import { RouteError } from '../../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/groups/$groupId')({
  loader: async ({ context, params }) => {
    void context.queryClient.prefetchInfiniteQuery(groupMembersQueryOptions(params.groupId));
    const group = await context.queryClient.ensureQueryData(groupQueryOptions(params.groupId));
    return { title: group.name };
  },
  head: ({ loaderData }) => ({
    meta: [{ title: `${loaderData?.title ?? 'Group'} · Workspace Console` }],
  }),
  errorComponent: RouteError,
  component: GroupPage,
});

function GroupPage() {
  const { groupId } = Route.useParams();
  const { session } = Route.useRouteContext();
  const group = useSuspenseQuery(groupQueryOptions(groupId)).data;
  return (
    <GroupDetail
      group={group}
      canManage={canManage(session.user)}
      roleKnown={session.user.role !== 'UNKNOWN'}
    />
  );
}
