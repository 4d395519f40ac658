import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

import type { User } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

/** Rows per page of the members table. */
export const MEMBERS_PAGE_SIZE = 50;

/**
 * The key every groups query lives under (list, detail, members, and a user's groups on their
 * page), so that one invalidation after a membership change refreshes them all.
 */
export const GROUPS_QUERY_KEY = ['groups'] as const;

const nextCursor = (last: { paging: { has_next_page: boolean; end_cursor: string | null } }) =>
  last.paging.has_next_page ? (last.paging.end_cursor ?? undefined) : undefined;

/**
 * Cursor-paged groups.
 *
 * @example
 * const query = useInfiniteQuery(groupsListQueryOptions());
 */
export function groupsListQueryOptions() {
  return infiniteQueryOptions({
    queryKey: ['groups', 'list'],
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
    queryKey: ['groups', 'detail', groupId],
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
    queryKey: ['groups', 'members', groupId],
    queryFn: ({ pageParam, signal }) =>
      api.listGroupMembers(groupId, { first: MEMBERS_PAGE_SIZE, after: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextCursor,
  });
}

/** Every member id of a group, walking the pages 1,000 at a time. */
async function memberIds(groupId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | undefined;
  for (let page = 0; page < 1000; page += 1) {
    const result = await api.listGroupMembers(groupId, { first: 1000, after });
    for (const user of result.items) ids.add(user.id);
    if (!result.paging.has_next_page || !result.paging.end_cursor) break;
    after = result.paging.end_cursor;
  }
  return ids;
}

/** What a membership change did, to show it and to undo exactly that. */
export interface MembershipChange {
  kind: 'added' | 'removed';
  /** The people whose membership changed. */
  changed: User[];
  /** Picked people who already were members (added) and so were left alone. */
  unchanged: User[];
}

/**
 * Adds people to a group. The API treats existing members as a no-op, so the current members are
 * read first: the result then says who was really added, and Undo removes only them.
 *
 * @example
 * const change = await addMembers(group.id, [ada, grace]); // { kind: 'added', changed: [...] }
 */
export async function addMembers(groupId: string, users: User[]): Promise<MembershipChange> {
  const existing = await memberIds(groupId);
  const changed = users.filter((user) => !existing.has(user.id));
  const unchanged = users.filter((user) => existing.has(user.id));
  if (changed.length > 0)
    await api.addGroupMembers(
      groupId,
      changed.map((user) => user.id),
    );
  return { kind: 'added', changed, unchanged };
}

/**
 * Removes members from a group (all or nothing: unknown ids are a 422 that changes nothing).
 *
 * @example
 * await removeMembers(group.id, [ada]);
 */
export async function removeMembers(groupId: string, users: User[]): Promise<MembershipChange> {
  await api.removeGroupMembers(
    groupId,
    users.map((user) => user.id),
  );
  return { kind: 'removed', changed: users, unchanged: [] };
}
