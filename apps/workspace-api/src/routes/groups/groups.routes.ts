import { z } from 'zod';

import { GroupUserIdsInputSchema, PageQuerySchema } from '@wsc/api-client';
import { GroupPagedListSchema, GroupSchema, UserPagedListSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

const groupId = z.object({ groupId: z.uuid() });

export const listGroups = defineRoute({
  method: 'get',
  path: '/v1/groups',
  summary: 'List groups; optional RSQL filter on name',
  operation: 'listGroups',
  tags: ['Groups'],
  query: PageQuerySchema.extend({ filter: z.string().optional() }),
  responses: { 200: { description: 'Groups', schema: GroupPagedListSchema }, ...COMMON_ERRORS },
});

export const getGroup = defineRoute({
  method: 'get',
  path: '/v1/groups/{groupId}',
  summary: 'Get a group',
  operation: 'getGroup',
  tags: ['Groups'],
  params: groupId,
  responses: {
    200: { description: 'Group', schema: GroupSchema },
    ...COMMON_ERRORS,
    404: { description: 'No such group' },
  },
});

export const listMembers = defineRoute({
  method: 'get',
  path: '/v1/groups/{groupId}/users',
  summary: 'List members of a group',
  operation: 'listGroupUsers',
  tags: ['Groups'],
  params: groupId,
  query: PageQuerySchema,
  responses: {
    200: { description: 'Members', schema: UserPagedListSchema },
    ...COMMON_ERRORS,
    404: { description: 'No such group' },
  },
});

export const addMembers = defineRoute({
  method: 'post',
  path: '/v1/groups/{groupId}/users',
  summary: 'Add members (ADMIN); unknown ids -> 422, nothing changed',
  operation: 'addUsersToGroup',
  tags: ['Groups'],
  params: groupId,
  body: { schema: GroupUserIdsInputSchema },
  responses: {
    201: { description: 'Added (adding a member twice is a no-op)' },
    ...COMMON_ERRORS,
    403: { description: 'Not an administrator' },
    404: { description: 'No such group' },
    422: { description: 'Unknown user ids' },
  },
});

export const removeMembers = defineRoute({
  method: 'delete',
  path: '/v1/groups/{groupId}/users',
  summary: 'Remove members (ADMIN); unknown ids -> 422, nothing changed',
  operation: 'removeUsersFromGroup',
  tags: ['Groups'],
  params: groupId,
  body: { schema: GroupUserIdsInputSchema },
  responses: {
    200: { description: 'Removed' },
    ...COMMON_ERRORS,
    403: { description: 'Not an administrator' },
    404: { description: 'No such group' },
    422: { description: 'Unknown user ids' },
  },
});
