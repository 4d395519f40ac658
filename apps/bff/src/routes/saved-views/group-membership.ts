// Is the signed-in person a member of a group? Asked of the workspace API at read time with the
// person's own token, in both profiles through the published `GET /groups/{groupId}/users`, and
// remembered for a short while so a sidebar refresh does not page through every group again.
// Someone removed from a group stops seeing its shared views at most MEMBERSHIP_TTL_MS later.
import { isApiError } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Region } from '../../lib/region.ts';
import type { SessionApi } from '../../lib/session-api.ts';

/** How long a membership answer is kept (per region, group and user). */
export const MEMBERSHIP_TTL_MS = 60_000;

/** Answers kept at most; the oldest go first. */
export const MEMBERSHIP_CACHE_ENTRIES = 5_000;

/** Pages of members read per group at most (1,000 each): a group past 20,000 members is read as far. */
export const MAX_MEMBER_PAGES = 20;

/** Groups checked at the same time for one read. */
const CONCURRENCY = 4;

/**
 * Why this session cannot be told apart as a group member, or undefined when it can: membership
 * needs the person's user id for sure, which the extended API's `/v1/me` and the operator's
 * identities file give; an email typed at sign-in proves nothing.
 *
 * @example
 * groupSharingUnavailable(session); // undefined, or 'The console cannot verify who you are…'
 */
export function groupSharingUnavailable(session: SessionRecord): string | undefined {
  const { user } = session;
  if ((user.identity === 'api' || user.identity === 'operator') && user.id) return undefined;
  return user.identity === 'operator'
    ? 'Your user was not found in the workspace, so group membership cannot be checked: only views shared with everyone reach you'
    : 'The console cannot verify who you are (your operator has not named this client in its identities file), so only views shared with everyone reach you';
}

/**
 * The membership checker: one cache per BFF instance.
 *
 * @example
 * const membership = groupMembership({ api, clock });
 * const mine = await membership.memberOf(session, region, ['…group id…'], signal);
 */
export function groupMembership(deps: { api: SessionApi; clock: Clock }) {
  const cache = new Map<string, { member: boolean; at: number }>();

  function remember(key: string, member: boolean) {
    cache.delete(key);
    cache.set(key, { member, at: deps.clock.now() });
    while (cache.size > MEMBERSHIP_CACHE_ENTRIES) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  async function isMember(
    session: SessionRecord,
    region: Region,
    userId: string,
    groupId: string,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const key = `${region.id}\u0000${groupId}\u0000${userId}`;
    const hit = cache.get(key);
    if (hit && deps.clock.now() - hit.at < MEMBERSHIP_TTL_MS) return hit.member;
    const wanted = userId.toLowerCase();
    let member = false;
    try {
      member = await deps.api.run(
        session,
        region,
        session.profile,
        async (client, callSignal) => {
          let after: string | undefined;
          for (let page = 0; page < MAX_MEMBER_PAGES; page += 1) {
            const list = await client.listGroupMembers(groupId, {
              first: 1000,
              ...(after ? { after } : {}),
              signal: callSignal,
            });
            if (list.items.some((u) => u.id.toLowerCase() === wanted)) return true;
            if (!list.paging.has_next_page || !list.paging.end_cursor) return false;
            after = list.paging.end_cursor;
          }
          return false;
        },
        signal,
      );
    } catch (error) {
      // A group gone (404) or hidden from this person (403) has no views for them.
      if (!(isApiError(error) && (error.status === 404 || error.status === 403))) throw error;
    }
    remember(key, member);
    return member;
  }

  return {
    /** The groups of `groupIds` the session's person belongs to (none when that cannot be told). */
    async memberOf(
      session: SessionRecord,
      region: Region,
      groupIds: readonly string[],
      signal?: AbortSignal,
    ): Promise<string[]> {
      const userId = session.user.id;
      if (groupSharingUnavailable(session) || !userId) return [];
      const mine: string[] = [];
      for (let i = 0; i < groupIds.length; i += CONCURRENCY) {
        const batch = groupIds.slice(i, i + CONCURRENCY);
        const answers = await Promise.all(
          batch.map((id) => isMember(session, region, userId, id, signal)),
        );
        batch.forEach((id, j) => answers[j] && mine.push(id));
      }
      return mine;
    },
  };
}

export type GroupMembership = ReturnType<typeof groupMembership>;
