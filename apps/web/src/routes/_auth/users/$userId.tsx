import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';

import { canManage } from '@/features/auth/api/session.ts';
import { UserDetail } from '@/features/users/components/user-detail.tsx';
import { definitionsQueryOptions } from '@/queries/definitions.ts';
import { userQueryOptions } from '@/queries/users.ts';

import { RouteError } from '../../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/users/$userId')({
  loader: async ({ context, params }) => {
    void context.queryClient.prefetchQuery(definitionsQueryOptions());
    const user = await context.queryClient.ensureQueryData(userQueryOptions(params.userId));
    return { title: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email };
  },
  head: ({ loaderData }) => ({
    meta: [{ title: `${loaderData?.title ?? 'User'} · Workspace Console` }],
  }),
  errorComponent: RouteError,
  component: UserPage,
});

function UserPage() {
  const { userId } = Route.useParams();
  const { session } = Route.useRouteContext();
  const user = useSuspenseQuery(userQueryOptions(userId)).data;
  // The assigned records need the definitions; the rest of the page must not wait or fail on them.
  const definitions = useQuery(definitionsQueryOptions()).data?.items ?? [];
  return (
    <UserDetail
      user={user}
      definitions={definitions}
      canManage={canManage(session.user)}
      roleKnown={session.user.role !== 'UNKNOWN'}
      isSelf={session.user.id !== undefined && session.user.id === user.id}
    />
  );
}
