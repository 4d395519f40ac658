import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';

import { definitionsQueryOptions } from '@/features/definitions/api/get-definitions.ts';
import { userQueryOptions } from '@/features/users/api/users.ts';
import { UserDetail } from '@/features/users/components/user-detail.tsx';

import { RouteError } from '../../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/users/$userId')({
  loader: async ({ context, params }) => {
    void context.queryClient.prefetchQuery(definitionsQueryOptions());
    const user = await context.queryClient.ensureQueryData(userQueryOptions(params.userId));
    return { title: `${user.firstName} ${user.lastName}` };
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
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  return (
    <UserDetail
      user={user}
      definitions={definitions}
      canManage={session.user.role === 'ADMIN'}
      isSelf={session.user.id === user.id}
    />
  );
}
