// The API's two profiles (DESIGN.md section 5). `extended` is our API with its extensions;
// `hosted` (API_PROFILE=hosted) serves only what the hosted service's published OpenAPI promises,
// so that clients can be tested against exactly that contract. The switch lives in few places:
// here (query parameters per operation and the shapes several routes share), recordBody in
// records.ts (record keys), errorResponse in errors.ts (the error format), the route specs'
// `profile` (which routes exist) and the handlers whose replies differ (token, records,
// attachments, comments).
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';

import type { Group, Paging, User } from '@wsc/api-client/strict';

import type { Profile } from '../env.ts';
import type { AppEnv } from './types.ts';
import { badRequest } from './errors.ts';

export type { Profile };

/**
 * Whether the request is served in the hosted profile.
 *
 * @example
 * if (isHosted(c)) return c.body(null, 202);
 */
export function isHosted(c: Context<AppEnv>): boolean {
  return c.var.deps.config.profile === 'hosted';
}

const PAGING = ['first', 'after', 'last', 'before'] as const;

/**
 * The published operations we implement, by operationId, with the query parameters the published
 * OpenAPI declares for each (held equal to the document by profile.test.ts).
 */
export const PUBLISHED_QUERY_PARAMETERS = {
  requestAccessToken: [],
  recordList: [...PAGING, 'filter'],
  createRecord: [],
  getRecord: [],
  updateRecord: [],
  getRecordRelations: [],
  createRecordRelatedItems: [],
  deleteRecordRelatedItems: [],
  listRecordAttachments: [],
  createRecordAttachment: [],
  createRecordLink: [],
  getRecordAttachment: [],
  deleteRecordAttachments: [],
  downloadRecordAttachment: [],
  listRecordWatchers: PAGING,
  createRecordWatchers: [],
  deleteRecordWatchers: [],
  listRecordComments: PAGING,
  createRecordComment: [],
  listUsers: [...PAGING, 'filter'],
  createUser: [],
  getUser: [],
  deactivateUser: [],
  listGroups: PAGING,
  getGroup: [],
  listGroupUsers: PAGING,
  addUsersToGroup: [],
  removeUsersFromGroup: [],
  getElement: [],
} as const satisfies Record<string, readonly string[]>;

export type PublishedOperation = keyof typeof PUBLISHED_QUERY_PARAMETERS;

/**
 * Middleware for a route that implements a published operation: in the hosted profile, a query
 * parameter the document does not declare for it is a 400 naming the parameter. Stricter than the
 * hosted service probably is, on purpose: a client that relies on an extension (`sort`, paging of
 * related items, a groups `filter`) fails its hosted-profile tests instead of silently getting an
 * unsorted or unfiltered list. The extended profile reads what it knows and ignores the rest.
 *
 * @example
 * router.get('/users', publishedQuery('listUsers'), listUsers); // lib/route.ts, from `operation`
 */
export function publishedQuery(operation: PublishedOperation) {
  const declared: ReadonlySet<string> = new Set(PUBLISHED_QUERY_PARAMETERS[operation]);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (isHosted(c)) {
      const names = [...new Set(new URL(c.req.url).searchParams.keys())];
      const unknown = names.filter((name) => !declared.has(name));
      if (unknown.length > 0) {
        const allowed = declared.size > 0 ? [...declared].join(', ') : 'none';
        throw badRequest(
          `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (this operation takes: ${allowed})`,
          unknown.map((name) => ({ field: name, message: 'Not a parameter of this operation' })),
        );
      }
    }
    await next();
  });
}

/** The published PagingState: cursors are strings, absent when there are none (never null). */
export type PublishedPaging = {
  has_previous_page: boolean;
  start_cursor?: string;
  end_cursor?: string;
  has_next_page: boolean;
};

/**
 * A list's paging block in the profile: hosted omits null cursors.
 *
 * @example
 * const body = { paging: replyPaging(profile, paging), total, items };
 */
export function replyPaging(profile: Profile, paging: Paging): Paging | PublishedPaging {
  if (profile === 'extended') return paging;
  const { start_cursor: start, end_cursor: end, ...flags } = paging;
  return {
    ...flags,
    ...(start === null ? {} : { start_cursor: start }),
    ...(end === null ? {} : { end_cursor: end }),
  };
}

/** The published User: every key a string, so a missing job title is absent, not null. */
export type PublishedUser = Omit<User, 'jobTitle'> & { jobTitle?: string };

/**
 * A User in the profile: hosted omits a null `jobTitle`.
 *
 * @example
 * items: rows.map((row) => replyUser(profile, toUser(row)));
 */
export function replyUser(profile: Profile, user: User): User | PublishedUser {
  if (profile === 'extended') return user;
  const { jobTitle, ...rest } = user;
  return typeof jobTitle === 'string' ? { ...rest, jobTitle } : rest;
}

/** The published Group: `domains` only where there are some. */
export type PublishedGroup = Omit<Group, 'domains'> & { domains?: Group['domains'] };

/**
 * A Group in the profile: hosted omits an empty `domains`.
 *
 * @example
 * return c.json(replyGroup(profile, toGroup(row)));
 */
export function replyGroup(profile: Profile, group: Group): Group | PublishedGroup {
  if (profile === 'extended' || group.domains.length > 0) return group;
  const { domains: _domains, ...rest } = group;
  return rest;
}
