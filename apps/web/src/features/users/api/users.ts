import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { CreateUserInput, Group, User } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { mapLimit } from '@/lib/map-limit.ts';

/** Rows per page of the users table. */
export const USERS_PAGE_SIZE = 100;

/**
 * Cursor-paged users for the table, narrowed by an RSQL filter ('' for everyone). "Load more"
 * follows each page's `end_cursor`.
 *
 * @example
 * const query = useInfiniteQuery(usersListQueryOptions('status==ACTIVE'));
 */
export function usersListQueryOptions(filter: string) {
  return infiniteQueryOptions({
    queryKey: ['users', 'list', filter],
    queryFn: ({ pageParam, signal }) =>
      api.listUsers({
        filter: filter || undefined,
        first: USERS_PAGE_SIZE,
        after: pageParam,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) =>
      last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined,
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
    queryKey: ['users', 'detail', userId],
    queryFn: ({ signal }) => api.getUser(userId, { signal }),
  });
}

/** Walks every page of a cursor-paged list (groups and members are small lists in practice). */
async function allPages<T>(
  fetchPage: (after: string | undefined) => Promise<{
    items: T[];
    paging: { has_next_page: boolean; end_cursor: string | null };
  }>,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  // A hard stop, so that a misbehaving server can never loop us forever.
  for (let page = 0; page < 100; page += 1) {
    const result = await fetchPage(after);
    items.push(...result.items);
    if (!result.paging.has_next_page || !result.paging.end_cursor) break;
    after = result.paging.end_cursor;
  }
  return items;
}

/**
 * The groups a user belongs to. The API has no "groups of a user" endpoint, so this reads every
 * group's members (1,000 per page) and keeps the groups that list the user: a handful of requests
 * for a workspace's usual few dozen groups. Keyed under `groups`, so that membership changes made
 * on a group page (which invalidate `['groups']`) refresh it too.
 *
 * @example
 * const { data: groups } = useQuery(userGroupsQueryOptions(user.id));
 */
export function userGroupsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['groups', 'of-user', userId],
    queryFn: async ({ signal }): Promise<Group[]> => {
      const groups = await allPages((after) => api.listGroups({ first: 1000, after, signal }));
      // Group by group, four at a time: the BFF admits 16 requests in flight per session.
      const memberships = await mapLimit(groups, 4, async (group) => {
        const members = await allPages((after) =>
          api.listGroupMembers(group.id, { first: 1000, after, signal }),
        );
        return members.some((member) => member.id === userId) ? group : null;
      });
      return memberships.filter((group): group is Group => group !== null);
    },
  });
}

/**
 * `POST /users` -> 201 User; a duplicate email is an ApiError 422 naming `email`.
 *
 * @example
 * const user = await createUser({ email, firstName, lastName });
 */
export function createUser(input: CreateUserInput): Promise<User> {
  return api.createUser(input);
}

/**
 * `POST /users/{id}/deactivate` -> the user, now INACTIVE (idempotent).
 *
 * @example
 * await deactivateUser(user.id);
 */
export function deactivateUser(userId: string): Promise<User> {
  return api.deactivateUser(userId);
}

/**
 * The key every users query lives under (list, detail, and the shared pickers' searches), so one
 * invalidation after a create or a deactivation refreshes the user everywhere.
 */
export const USERS_QUERY_KEY = ['users'] as const;
