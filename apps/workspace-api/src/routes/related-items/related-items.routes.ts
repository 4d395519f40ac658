import { z } from 'zod';

import { PageQuerySchema, RelatedItemInputSchema } from '@wsc/api-client';
import { RelatedPagedListSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';
import { recordPath } from '../record-path.ts';

const denied = {
  403: { description: 'The definition (or the target’s definition) is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const listRelated = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/related-items',
  summary: 'List related records (symmetric), cursor inline',
  operation: 'getRecordRelations',
  tags: ['Related items'],
  params: recordPath,
  query: PageQuerySchema,
  responses: {
    200: { description: 'Related items', schema: RelatedPagedListSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const addRelated = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}/{id}/related-items',
  summary: 'Relate a record (both directions; relating twice is a no-op)',
  operation: 'createRecordRelatedItems',
  tags: ['Related items'],
  params: recordPath,
  body: { schema: RelatedItemInputSchema },
  responses: {
    201: { description: 'Related' },
    ...COMMON_ERRORS,
    ...denied,
    422: { description: 'Unknown target, the record itself, or alias not the target’s' },
  },
});

export const removeRelated = defineRoute({
  method: 'delete',
  path: '/v1/{recordType}/{alias}/{id}/related-items/{relatedId}',
  summary: 'Remove a relation (both directions); relatedId is the related record’s id',
  operation: 'deleteRecordRelatedItems',
  tags: ['Related items'],
  params: recordPath.extend({ relatedId: z.string() }),
  responses: {
    200: { description: 'Removed' },
    ...COMMON_ERRORS,
    ...denied,
    404: { description: 'Unknown record or relation' },
  },
});
