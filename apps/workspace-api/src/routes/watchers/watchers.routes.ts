import { PageQuerySchema, WatcherListInputSchema } from '@wsc/api-client';
import { WatcherPagedListSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';
import { recordPath } from '../record-path.ts';

const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const listWatchers = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/watchers',
  summary: 'List watchers (paged, oldest first)',
  operation: 'listRecordWatchers',
  tags: ['Watchers'],
  params: recordPath,
  query: PageQuerySchema,
  responses: {
    200: { description: 'Watchers', schema: WatcherPagedListSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const addWatchers = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}/{id}/watchers',
  summary: 'Add watchers by email (existing watchers are a no-op)',
  operation: 'createRecordWatchers',
  tags: ['Watchers'],
  params: recordPath,
  body: { schema: WatcherListInputSchema },
  responses: {
    201: { description: 'Added' },
    ...COMMON_ERRORS,
    ...denied,
    422: { description: 'Unknown or inactive emails (`users[i]`); nothing changed' },
  },
});

export const removeWatchers = defineRoute({
  method: 'delete',
  path: '/v1/{recordType}/{alias}/{id}/watchers',
  summary: 'Remove watchers by email (a DELETE with a JSON body)',
  operation: 'deleteRecordWatchers',
  tags: ['Watchers'],
  params: recordPath,
  body: { schema: WatcherListInputSchema },
  responses: {
    200: { description: 'Removed' },
    ...COMMON_ERRORS,
    ...denied,
    422: { description: 'Unknown emails (`users[i]`); nothing changed' },
  },
});
