import { PageQuerySchema, RecordInputSchema, RecordSearchQuerySchema } from '@wsc/api-client';
import { RecordPagedListSchema, StoredRecordSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';
import { definitionPath, recordPath } from '../record-path.ts';

const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const searchRecords = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}',
  summary: 'Search records: RSQL filter, sort (extension), cursor paging, total',
  operation: 'recordList',
  tags: ['Records'],
  params: definitionPath,
  query: PageQuerySchema.extend(RecordSearchQuerySchema.shape),
  responses: {
    200: { description: 'Records', schema: RecordPagedListSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const createRecord = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}',
  summary: 'Create a record',
  operation: 'createRecord',
  tags: ['Records'],
  params: definitionPath,
  body: { schema: RecordInputSchema },
  responses: {
    201: { description: 'Created record (ETag header)', schema: StoredRecordSchema },
    ...COMMON_ERRORS,
    ...denied,
    422: { description: 'Validation errors, one per field' },
  },
});

export const getRecord = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}',
  summary: 'Get a record (ETag; If-None-Match -> 304)',
  operation: 'getRecord',
  tags: ['Records'],
  params: recordPath,
  responses: {
    200: { description: 'Record', schema: StoredRecordSchema },
    304: { description: 'Not modified' },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const putRecord = defineRoute({
  method: 'put',
  path: '/v1/{recordType}/{alias}/{id}',
  summary: 'Update a record: merges the given fields; If-Match for optimistic concurrency',
  operation: 'updateRecord',
  tags: ['Records'],
  params: recordPath,
  body: { schema: RecordInputSchema },
  responses: {
    200: { description: 'Updated record (new ETag)', schema: StoredRecordSchema },
    ...COMMON_ERRORS,
    ...denied,
    412: { description: 'If-Match does not match the current version' },
    422: { description: 'Validation errors, one per field' },
  },
});
