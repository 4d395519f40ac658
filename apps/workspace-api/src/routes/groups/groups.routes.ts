import { z } from 'zod';

import { GroupUserIdsInputSchema, PageQuerySchema } from '@wsc/api-client';
import { GroupPagedListSchema, GroupSchema, UserPagedListSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const groupId = z.object({ groupId: z.uuid() });

export const groupsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/groups',
    summary: 'List groups; optional RSQL filter on name',
    tags: ['Groups'],
    query: PageQuerySchema.extend({ filter: z.string().optional() }),
    responses: { 200: { description: 'Groups', schema: GroupPagedListSchema }, ...COMMON_ERRORS },
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}',
    summary: 'Get a group',
    tags: ['Groups'],
    params: groupId,
    responses: {
      200: { description: 'Group', schema: GroupSchema },
      ...COMMON_ERRORS,
      404: { description: 'No such group' },
    },
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/users',
    summary: 'List members of a group',
    tags: ['Groups'],
    params: groupId,
    query: PageQuerySchema,
    responses: {
      200: { description: 'Members', schema: UserPagedListSchema },
      ...COMMON_ERRORS,
      404: { description: 'No such group' },
    },
  },
  {
    method: 'post',
    path: '/v1/groups/{groupId}/users',
    summary: 'Add members (ADMIN); unknown ids -> 422, nothing changed',
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
  },
  {
    method: 'delete',
    path: '/v1/groups/{groupId}/users',
    summary: 'Remove members (ADMIN); unknown ids -> 422, nothing changed',
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
  },
];
