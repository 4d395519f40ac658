import { z } from 'zod';

import {
  PageQuerySchema,
  RecordInputSchema,
  RecordSearchQuerySchema,
  RecordTypeSchema,
} from '@wsc/api-client';
import { RecordPagedListSchema, StoredRecordSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const definitionParams = z.object({ recordType: RecordTypeSchema, alias: z.string() });
const recordParams = definitionParams.extend({ id: z.string() });
const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const recordsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}',
    summary: 'Search records: RSQL filter, sort (extension), cursor paging, total',
    tags: ['Records'],
    params: definitionParams,
    query: PageQuerySchema.extend(RecordSearchQuerySchema.shape),
    responses: {
      200: { description: 'Records', schema: RecordPagedListSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}',
    summary: 'Create a record',
    tags: ['Records'],
    params: definitionParams,
    body: { schema: RecordInputSchema },
    responses: {
      201: { description: 'Created record (ETag header)', schema: StoredRecordSchema },
      ...COMMON_ERRORS,
      ...denied,
      422: { description: 'Validation errors, one per field' },
    },
  },
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}',
    summary: 'Get a record (ETag; If-None-Match -> 304)',
    tags: ['Records'],
    params: recordParams,
    responses: {
      200: { description: 'Record', schema: StoredRecordSchema },
      304: { description: 'Not modified' },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'put',
    path: '/v1/{recordType}/{alias}/{id}',
    summary: 'Update a record: merges the given fields; If-Match for optimistic concurrency',
    tags: ['Records'],
    params: recordParams,
    body: { schema: RecordInputSchema },
    responses: {
      200: { description: 'Updated record (new ETag)', schema: StoredRecordSchema },
      ...COMMON_ERRORS,
      ...denied,
      412: { description: 'If-Match does not match the current version' },
      422: { description: 'Validation errors, one per field' },
    },
  },
];
