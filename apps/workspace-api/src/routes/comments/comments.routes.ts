import { z } from 'zod';

import { PageQuerySchema, RecordTypeSchema } from '@wsc/api-client';
import { CommentPagedListSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const recordParams = z.object({ recordType: RecordTypeSchema, alias: z.string(), id: z.string() });
const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition or record' },
};

export const commentsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/comment',
    summary: 'List comments (paged, oldest first)',
    tags: ['Comments'],
    params: recordParams,
    query: PageQuerySchema,
    responses: {
      200: { description: 'Comments', schema: CommentPagedListSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}/{id}/comment',
    summary:
      'Add a comment: text/plain body (1..10,000 chars); JSON {contents} also accepted (extension)',
    tags: ['Comments'],
    params: recordParams,
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
  },
];
