import { z } from 'zod';

import { CreateUserInputSchema, PageQuerySchema } from '@wsc/api-client';
import { UserPagedListSchema, UserSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

const userId = z.object({ userId: z.uuid() });

export const listUsers = defineRoute({
  method: 'get',
  path: '/v1/users',
  summary: 'List users; RSQL filter on email, firstName, lastName, jobTitle, status',
  operation: 'listUsers',
  tags: ['Users'],
  query: PageQuerySchema.extend({ filter: z.string().optional() }),
  responses: { 200: { description: 'Users', schema: UserPagedListSchema }, ...COMMON_ERRORS },
});

export const createUser = defineRoute({
  method: 'post',
  path: '/v1/users',
  summary: 'Create a user (ADMIN)',
  operation: 'createUser',
  tags: ['Users'],
  body: { schema: CreateUserInputSchema },
  responses: {
    201: { description: 'Created', schema: UserSchema },
    ...COMMON_ERRORS,
    403: { description: 'Not an administrator' },
    422: { description: 'Invalid input or duplicate email' },
  },
});

export const getUser = defineRoute({
  method: 'get',
  path: '/v1/users/{userId}',
  summary: 'Get a user',
  operation: 'getUser',
  tags: ['Users'],
  params: userId,
  responses: {
    200: { description: 'User', schema: UserSchema },
    ...COMMON_ERRORS,
    404: { description: 'No such user' },
  },
});

export const deactivate = defineRoute({
  method: 'post',
  path: '/v1/users/{userId}/deactivate',
  summary: "Deactivate a user (ADMIN, idempotent); revokes the user's tokens",
  operation: 'deactivateUser',
  tags: ['Users'],
  params: userId,
  responses: {
    200: { description: 'User', schema: UserSchema },
    ...COMMON_ERRORS,
    403: { description: 'Not an administrator' },
    404: { description: 'No such user' },
  },
});
