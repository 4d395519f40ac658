import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import { and, eq, ilike, or, serialize } from '@wsc/rsql';

import { api } from '@/lib/api.ts';

import { growingPages } from './paging.ts';

/** Rows per page of the users table. */
const USERS_PAGE_SIZE = 100;
/** The largest page the users table asks for; pages grow up to it (`growingPages`). */
const USERS_MAX_PAGE_SIZE = 600;

/**
 * The query keys of users. Every users query lives under `all` (list, detail, and the shared
 * pickers' searches), so one invalidation after a create or a deactivation refreshes the user
 * everywhere.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: userKeys.all });
 */
export const userKeys = {
  all: ['users'] as const,
  list: (filter: string) => ['users', 'list', filter] as const,
  detail: (userId: string) => ['users', 'detail', userId] as const,
  search: (term: string) => ['users', 'search', term] as const,
};

/**
 * Cursor-paged users for the table, narrowed by an RSQL filter ('' for everyone). "Load more"
 * follows each page's `end_cursor`.
 *
 * @example
 * const query = useInfiniteQuery(usersListQueryOptions('status==ACTIVE'));
 */
export function usersListQueryOptions(filter: string) {
  return infiniteQueryOptions({
    queryKey: userKeys.list(filter),
    queryFn: ({ pageParam, signal }) =>
      api.listUsers({
        filter: filter || undefined,
        first: pageParam.first,
        after: pageParam.after,
        signal,
      }),
    ...growingPages(USERS_PAGE_SIZE, USERS_MAX_PAGE_SIZE),
  });
}

/**
 * One user.
 *
 * @example
 * const { data: user } = useSuspenseQuery(userQueryOptions(userId));
 */
export function userQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userKeys.detail(userId),
    queryFn: ({ signal }) => api.getUser(userId, { signal }),
  });
}

/**
 * Active users matching a search term (email, first or last name), for user pickers.
 *
 * @example
 * const { data } = useQuery(userSearchQueryOptions('ada'));
 */
export function userSearchQueryOptions(term: string) {
  const trimmed = term.trim();
  // Built with the RSQL builder, so whatever the user types stays a value and never changes the
  // filter's structure.
  const active = eq('status', 'ACTIVE');
  const filter = serialize(
    trimmed
      ? and(
          active,
          or(ilike('email', trimmed), ilike('firstName', trimmed), ilike('lastName', trimmed)),
        )
      : active,
  );
  return queryOptions({
    queryKey: userKeys.search(trimmed),
    queryFn: ({ signal }) => api.listUsers({ filter, first: 20, signal }),
    staleTime: 60_000,
  });
}
