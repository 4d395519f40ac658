import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { FilterX, Search, SearchX, UserPlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';

import type { User } from '@wsc/api-client';

import { ExportButton } from '@/components/export-button.tsx';
import { ListPage } from '@/components/list-page.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { api } from '@/lib/api.ts';
import { userExportSource } from '@/lib/export/users.ts';
import { formatCount } from '@/lib/format.ts';
import { usersListQueryOptions } from '@/queries/users.ts';

import type { UsersSearch } from '../lib/user-filter.ts';
import { USER_FILTER_FIELDS, usersFilter } from '../lib/user-filter.ts';
import { UsersTable } from './users-table.tsx';

// The create form is only needed when an administrator asks for it: its own chunk.
const CreateUserDialog = lazy(() =>
  import('./create-user-dialog.tsx').then((m) => ({ default: m.CreateUserDialog })),
);

export interface UsersViewProps {
  search: UsersSearch;
  /** Merges a change into the URL's search params. */
  onSearchChange: (patch: Partial<UsersSearch>) => void;
  /** Administrators create users; members only read (the API's 403 is the real guard). */
  canManage: boolean;
  /** False when the console could not learn the person's role (see RoleNote). */
  roleKnown?: boolean;
  onCreated: (user: User) => void;
}

/**
 * The users directory: a search box over email, names and job title, the filter builder over the
 * user fields, and the virtualized, cursor-paged table with its loading, empty and error states.
 */
export function UsersView({
  search,
  onSearchChange,
  canManage,
  roleKnown = true,
  onCreated,
}: UsersViewProps) {
  const [creating, setCreating] = useState(false);
  const [term, setTerm] = useState(search.q ?? '');
  // Back/Forward or a link changed `q`: show it in the box (adjusting state while rendering).
  const [shownQ, setShownQ] = useState(search.q);
  if (search.q !== shownQ) {
    setShownQ(search.q);
    if ((search.q ?? '') !== term.trim()) setTerm(search.q ?? '');
  }
  const filter = usersFilter(search);

  // The URL follows the box after a short pause, so typing does not flood the history or the API.
  useEffect(() => {
    const next = term.trim() || undefined;
    if (next === (search.q || undefined)) return;
    const timer = setTimeout(() => onSearchChange({ q: next }), 250);
    return () => clearTimeout(timer);
  }, [term, search.q, onSearchChange]);

  const query = useInfiniteQuery({
    ...usersListQueryOptions(filter),
    placeholderData: keepPreviousData,
  });
  const users = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const narrowed = Boolean(search.q || search.filter);
  const clearAll = () => {
    setTerm('');
    onSearchChange({ q: undefined, filter: undefined });
  };

  return (
    <ListPage
      query={query}
      count={users.length}
      filter={search.filter}
      filterFields={USER_FILTER_FIELDS}
      onApplyFilter={(next) => onSearchChange({ filter: next })}
      filterPanelId="users-filter"
      toolbarStart={
        <form
          role="search"
          className="relative w-full max-w-xs"
          onSubmit={(event) => {
            event.preventDefault();
            onSearchChange({ q: term.trim() || undefined });
          }}
        >
          <Search
            aria-hidden="true"
            className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
          />
          <Input
            type="search"
            aria-label="Search users"
            placeholder="Search name, email, job title…"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            className="h-8 pl-8"
          />
        </form>
      }
      toolbarAfterFilter={
        narrowed && (
          <Button variant="ghost" size="sm" onClick={clearAll}>
            <FilterX aria-hidden="true" />
            Clear
          </Button>
        )
      }
      toolbarEnd={
        <>
          <ExportButton
            title="Users"
            fileStem="users"
            total={total}
            createSource={() =>
              userExportSource((first, after, signal) =>
                api.listUsers({ filter: filter || undefined, first, after, signal }),
              )
            }
            description={
              <>
                Every user {filter ? 'matching the search and filter' : 'in the directory'}, in the
                directory&apos;s order, with the table&apos;s columns (name, email, job title,
                status).
              </>
            }
          />
          {canManage && (
            <Button
              size="sm"
              onClick={() => setCreating(true)}
              title={
                roleKnown
                  ? undefined
                  : 'Your role is not known to the console; the service decides whether you may create users'
              }
            >
              <UserPlus aria-hidden="true" />
              New user
            </Button>
          )}
        </>
      }
      skeleton={{
        label: 'Loading users',
        rowClassName: 'h-[41px]',
        cellClassNames: ['w-40', 'w-56', 'w-32', 'w-16'],
      }}
      empty={
        <div className="flex flex-1 flex-col items-center justify-center gap-3 p-10 text-center">
          <span className="bg-muted text-muted-foreground flex size-10 items-center justify-center rounded-full">
            <SearchX className="size-5" aria-hidden="true" />
          </span>
          <h2 className="text-base font-semibold">
            {narrowed ? 'No users match' : 'No users yet'}
          </h2>
          {narrowed && (
            <Button variant="outline" size="sm" onClick={clearAll}>
              Clear search and filter
            </Button>
          )}
        </div>
      }
      table={<UsersTable users={users} onNearEnd={loadMore} />}
      statusTestId="users-status"
      status={
        query.isPending
          ? 'Loading users…'
          : total === undefined
            ? `${formatCount(users.length)} loaded${hasNextPage ? ', more available' : ''}`
            : `${formatCount(users.length)} loaded of ${formatCount(total)} ${total === 1 ? 'user' : 'users'}`
      }
      noun="user"
      onLoadMore={loadMore}
    >
      {creating && (
        <Suspense fallback={null}>
          <CreateUserDialog
            open={creating}
            onOpenChange={setCreating}
            onCreated={(user) => {
              setCreating(false);
              onCreated(user);
            }}
          />
        </Suspense>
      )}
    </ListPage>
  );
}
