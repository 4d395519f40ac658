import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { Group } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { mapLimit } from '@/lib/map-limit.ts';

import { nextCursor } from './paging.ts';

/** Rows per page of the members table. */
const MEMBERS_PAGE_SIZE = 50;

/**
 * The query keys of groups. Every groups query lives under `all` (list, detail, members, and a
 * user's groups on their page), so that one invalidation after a membership change refreshes
 * them all.
 *
 * @example
 * queryClient.invalidateQueries({ queryKey: groupKeys.all });
 */
export const groupKeys = {
  all: ['groups'] as const,
  list: () => ['groups', 'list'] as const,
  detail: (groupId: string) => ['groups', 'detail', groupId] as const,
  members: (groupId: string) => ['groups', 'members', groupId] as const,
  ofUser: (userId: string) => ['groups', 'of-user', userId] as const,
};

/**
 * Cursor-paged groups, 100 a page (the groups page, and the command palette's first page).
 *
 * @example
 * const query = useInfiniteQuery(groupsListQueryOptions());
 */
export function groupsListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: groupKeys.list(),
    queryFn: ({ pageParam, signal }) => api.listGroups({ first: 100, after: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });
}

/**
 * One group and its flags.
 *
 * @example
 * const { data: group } = useSuspenseQuery(groupQueryOptions(groupId));
 */
export function groupQueryOptions(groupId: string) {
  return queryOptions({
    queryKey: groupKeys.detail(groupId),
    queryFn: ({ signal }) => api.getGroup(groupId, { signal }),
  });
}

/**
 * A group's members, cursor-paged in the order they were added.
 *
 * @example
 * const query = useInfiniteQuery(groupMembersQueryOptions(groupId));
 */
export function groupMembersQueryOptions(groupId: string) {
  return infiniteQueryOptions({
    queryKey: groupKeys.members(groupId),
    queryFn: ({ pageParam, signal }) =>
      api.listGroupMembers(groupId, { first: MEMBERS_PAGE_SIZE, after: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
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
 * for a workspace's usual few dozen groups. Keyed under `groupKeys.all`, so that membership
 * changes made on a group page refresh it too.
 *
 * @example
 * const { data: groups } = useQuery(userGroupsQueryOptions(user.id));
 */
export function userGroupsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: groupKeys.ofUser(userId),
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
