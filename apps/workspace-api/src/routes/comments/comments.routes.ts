import { z } from 'zod';

import { PageQuerySchema } from '@wsc/api-client';
import { CommentPagedListSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';
import { recordPath } from '../record-path.ts';

const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const listComments = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/comment',
  summary: 'List comments (paged, oldest first)',
  operation: 'listRecordComments',
  tags: ['Comments'],
  params: recordPath,
  query: PageQuerySchema,
  responses: {
    200: { description: 'Comments', schema: CommentPagedListSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const addComment = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}/{id}/comment',
  summary:
    'Add a comment: text/plain body (1..10,000 chars); JSON {contents} also accepted (extension)',
  operation: 'createRecordComment',
  tags: ['Comments'],
  params: recordPath,
  body: { schema: z.string().min(1).max(10_000), contentType: 'text/plain' },
  responses: {
    201: {
      description:
        'The new comment id as text/plain; the Comment as JSON when Accept includes application/json (extension)',
      schema: z.string(),
      contentType: 'text/plain',
    },
    ...COMMON_ERRORS,
    ...denied,
    415: { description: 'Neither text/plain nor application/json' },
    422: { description: 'Empty or over 10,000 characters' },
  },
});
