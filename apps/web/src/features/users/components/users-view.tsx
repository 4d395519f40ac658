import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { FilterX, ListFilter, Loader2, Search, SearchX, UserPlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';

import type { User } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { FilterBuilder } from '@/components/filter-builder/filter-builder.tsx';
import { countConditions, rsqlToGroup } from '@/components/filter-builder/filter-model.ts';
import { SkippedNote } from '@/components/skipped-note.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
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

function filterCount(filter: string | undefined): number | null {
  if (!filter) return 0;
  try {
    return countConditions(rsqlToGroup(filter));
  } catch {
    return null;
  }
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
  const [filterOpen, setFilterOpen] = useState(false);
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
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b px-6 py-2.5">
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
        <Button
          variant={search.filter ? 'secondary' : 'outline'}
          size="sm"
          aria-expanded={filterOpen}
          aria-controls="users-filter"
          onClick={() => setFilterOpen((open) => !open)}
        >
          <ListFilter aria-hidden="true" />
          Filter
          {search.filter && (
            <Badge variant="default" className="h-5 min-w-5 px-1.5 tabular-nums">
              {filterCount(search.filter) ?? '!'}
            </Badge>
          )}
        </Button>
        {search.filter && (
          <code
            className="bg-muted text-muted-foreground max-w-[40ch] truncate rounded-md px-2 py-1 font-mono text-xs"
            title={search.filter}
            data-testid="active-filter"
          >
            {search.filter}
          </code>
        )}
        {narrowed && (
          <Button variant="ghost" size="sm" onClick={clearAll}>
            <FilterX aria-hidden="true" />
            Clear
          </Button>
        )}
        <div className="ml-auto flex items-center gap-2">
          {query.isFetching && !query.isFetchingNextPage && !query.isPending && (
            <span role="status" className="text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              <span className="sr-only">Updating</span>
            </span>
          )}
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
        </div>
      </div>

      {filterOpen && (
        <div id="users-filter" className="bg-muted/30 border-b px-6 py-3">
          <FilterBuilder
            // Re-mount when the applied filter changes elsewhere (Back/Forward, Clear).
            key={search.filter ?? ''}
            fields={USER_FILTER_FIELDS}
            value={search.filter ?? ''}
            onApply={(next) => onSearchChange({ filter: next || undefined })}
            onClose={() => setFilterOpen(false)}
          />
        </div>
      )}

      {query.isPending ? (
        <TableSkeleton />
      ) : query.isError && users.length === 0 ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} className="flex-1" />
      ) : users.length === 0 ? (
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
      ) : (
        <UsersTable users={users} onNearEnd={loadMore} />
      )}

      {query.isError && users.length > 0 && (
        <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
      )}

      <footer className="text-muted-foreground flex items-center gap-3 border-t px-6 py-2 text-xs">
        <span role="status" aria-live="polite" data-testid="users-status">
          {query.isPending
            ? 'Loading users…'
            : total === undefined
              ? `${formatCount(users.length)} loaded${hasNextPage ? ', more available' : ''}`
              : `${formatCount(users.length)} loaded of ${formatCount(total)} ${total === 1 ? 'user' : 'users'}`}
        </span>
        <SkippedNote pages={query.data?.pages} noun="user" />
        {hasNextPage && (
          <Button
            variant="outline"
            size="xs"
            className="ml-auto"
            onClick={loadMore}
            disabled={isFetchingNextPage}
          >
            {isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
            Load more
          </Button>
        )}
      </footer>

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
    </div>
  );
}

function TableSkeleton() {
  return (
    <div
      className="flex-1 overflow-hidden"
      role="status"
      aria-busy="true"
      aria-label="Loading users"
    >
      <div className="bg-muted h-9 border-b" />
      {Array.from({ length: 12 }, (_, i) => (
        <div key={i} className="flex h-[41px] items-center gap-6 border-b px-4">
          <Skeleton className="h-3.5 w-40" />
          <Skeleton className="h-3.5 w-56" />
          <Skeleton className="h-3.5 w-32" />
          <Skeleton className="h-3.5 w-16" />
        </div>
      ))}
    </div>
  );
}
