// The workspace's people: users, groups and their members, and the credential owner (`/me`).
import type { CreateUserInput } from '../schemas/users.ts';
import type { CallOptions, PageOptions, Transport } from './transport.ts';
import { filterForProfile } from '../filter.ts';
import { GroupPagedListSchema, GroupSchema } from '../schemas/groups.ts';
import { MeSchema, UserPagedListSchema, UserSchema } from '../schemas/users.ts';
import { notInContract, pageQuery, path } from './transport.ts';

/** User list: paging and an RSQL `filter` over the user fields. */
export type UserListOptions = PageOptions & { filter?: string };

/**
 * The user and group methods of the API client.
 *
 * @example
 * const api = { ...directoryMethods(createTransport({ baseUrl })) };
 */
export function directoryMethods(t: Transport) {
  const { json, empty, hosted, profile } = t;

  return {
    // ---- users -------------------------------------------------------------------------------
    /** `GET /users`: paged users, optional RSQL `filter` (hosted: in the published dialect). */
    listUsers: (opts?: UserListOptions) =>
      json(
        {
          method: 'GET',
          path: '/users',
          query: { filter: filterForProfile(opts?.filter, profile), ...pageQuery(opts) },
          signal: opts?.signal,
        },
        UserPagedListSchema,
      ),
    /** `POST /users` -> 201 User; a duplicate email -> 422. */
    createUser: (input: CreateUserInput, opts?: CallOptions) =>
      json({ method: 'POST', path: '/users', json: input, signal: opts?.signal }, UserSchema),
    /** `GET /users/{userId}`. */
    getUser: (userId: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/users/${userId}`, signal: opts?.signal }, UserSchema),
    /** `POST /users/{userId}/deactivate` -> 200 User (idempotent). */
    deactivateUser: (userId: string, opts?: CallOptions) =>
      json(
        { method: 'POST', path: path`/users/${userId}/deactivate`, signal: opts?.signal },
        UserSchema,
      ),

    // ---- groups ------------------------------------------------------------------------------
    /** `GET /groups`: paged groups. */
    listGroups: (page?: PageOptions) =>
      json(
        { method: 'GET', path: '/groups', query: pageQuery(page), signal: page?.signal },
        GroupPagedListSchema,
      ),
    /** `GET /groups/{groupId}`. */
    getGroup: (groupId: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/groups/${groupId}`, signal: opts?.signal }, GroupSchema),
    /** `GET /groups/{groupId}/users`: paged members. */
    listGroupMembers: (groupId: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: path`/groups/${groupId}/users`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        UserPagedListSchema,
      ),
    /** `POST /groups/{groupId}/users {userIds}` -> 201; unknown ids -> 422. */
    addGroupMembers: (groupId: string, userIds: string[], opts?: CallOptions) =>
      empty({
        method: 'POST',
        path: path`/groups/${groupId}/users`,
        json: { userIds },
        signal: opts?.signal,
      }),
    /** `DELETE /groups/{groupId}/users {userIds}` -> 200. */
    removeGroupMembers: (groupId: string, userIds: string[], opts?: CallOptions) =>
      empty({
        method: 'DELETE',
        path: path`/groups/${groupId}/users`,
        json: { userIds },
        signal: opts?.signal,
      }),

    // ---- extension (extended profile only) ----------------------------------------------------
    /** `GET /me` (extension): the credential owner and their role. */
    me: async (opts?: CallOptions) => {
      if (hosted) throw notInContract('GET /me');
      return json({ method: 'GET', path: '/me', signal: opts?.signal }, MeSchema);
    },
  };
}
