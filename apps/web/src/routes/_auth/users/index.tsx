import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';

import type { UsersSearch } from '@/features/users/lib/user-filter.ts';
import { canManage } from '@/features/auth/api/session.ts';
import { UsersView } from '@/features/users/components/users-view.tsx';
import { usersFilter, UsersSearchSchema } from '@/features/users/lib/user-filter.ts';
import { usersListQueryOptions } from '@/queries/users.ts';

import { RouteError } from '../../-components/route-error.tsx';

export const Route = createFileRoute('/_auth/users/')({
  validateSearch: UsersSearchSchema,
  loaderDeps: ({ search }) => ({ q: search.q, filter: search.filter }),
  loader: ({ context, deps }) => {
    // Warm the first page while the chunk renders; the view reads the same cache entry.
    void context.queryClient.prefetchInfiniteQuery(usersListQueryOptions(usersFilter(deps)));
  },
  head: () => ({ meta: [{ title: 'Users · Workspace Console' }] }),
  errorComponent: RouteError,
  component: UsersPage,
});

function UsersPage() {
  const { session } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onSearchChange = useCallback(
    (patch: Partial<UsersSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) }),
    [navigate],
  );
  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-2">
        <h1 className="text-lg font-semibold tracking-tight">Users</h1>
      </div>
      <UsersView
        search={search}
        onSearchChange={onSearchChange}
        canManage={canManage(session.user)}
        roleKnown={session.user.role !== 'UNKNOWN'}
        onCreated={(user) => void navigate({ to: '/users/$userId', params: { userId: user.id } })}
      />
    </>
  );
}
