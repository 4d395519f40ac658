import { z } from 'zod';

import { PageQuerySchema, RecordTypeSchema, WatcherListInputSchema } from '@wsc/api-client';
import { WatcherPagedListSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const recordParams = z.object({ recordType: RecordTypeSchema, alias: z.string(), id: z.string() });
const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const watchersRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/watchers',
    summary: 'List watchers (paged, oldest first)',
    tags: ['Watchers'],
    params: recordParams,
    query: PageQuerySchema,
    responses: {
      200: { description: 'Watchers', schema: WatcherPagedListSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}/{id}/watchers',
    summary: 'Add watchers by email (existing watchers are a no-op)',
    tags: ['Watchers'],
    params: recordParams,
    body: { schema: WatcherListInputSchema },
    responses: {
      201: { description: 'Added' },
      ...COMMON_ERRORS,
      ...denied,
      422: { description: 'Unknown or inactive emails (`users[i]`); nothing changed' },
    },
  },
  {
    method: 'delete',
    path: '/v1/{recordType}/{alias}/{id}/watchers',
    summary: 'Remove watchers by email (a DELETE with a JSON body)',
    tags: ['Watchers'],
    params: recordParams,
    body: { schema: WatcherListInputSchema },
    responses: {
      200: { description: 'Removed' },
      ...COMMON_ERRORS,
      ...denied,
      422: { description: 'Unknown emails (`users[i]`); nothing changed' },
    },
  },
];
