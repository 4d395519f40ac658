import type { User } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

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
