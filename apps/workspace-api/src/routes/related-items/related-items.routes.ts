import { z } from 'zod';

import { PageQuerySchema, RecordTypeSchema, RelatedItemInputSchema } from '@wsc/api-client';
import { RelatedPagedListSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const recordParams = z.object({ recordType: RecordTypeSchema, alias: z.string(), id: z.string() });
const denied = {
  403: { description: 'The definition (or the target’s definition) is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const relatedItemsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/related-items',
    summary: 'List related records (symmetric), cursor inline',
    tags: ['Related items'],
    params: recordParams,
    query: PageQuerySchema,
    responses: {
      200: { description: 'Related items', schema: RelatedPagedListSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}/{id}/related-items',
    summary: 'Relate a record (both directions; relating twice is a no-op)',
    tags: ['Related items'],
    params: recordParams,
    body: { schema: RelatedItemInputSchema },
    responses: {
      201: { description: 'Related' },
      ...COMMON_ERRORS,
      ...denied,
      422: { description: 'Unknown target, the record itself, or alias not the target’s' },
    },
  },
  {
    method: 'delete',
    path: '/v1/{recordType}/{alias}/{id}/related-items/{relatedId}',
    summary: 'Remove a relation (both directions); relatedId is the related record’s id',
    tags: ['Related items'],
    params: recordParams.extend({ relatedId: z.string() }),
    responses: {
      200: { description: 'Removed' },
      ...COMMON_ERRORS,
      ...denied,
      404: { description: 'Unknown record or relation' },
    },
  },
];
