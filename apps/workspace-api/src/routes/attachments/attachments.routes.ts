import { z } from 'zod';

import { UrlLinkInputSchema } from '@wsc/api-client';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';
import { recordPath } from '../record-path.ts';

const attachmentParams = recordPath.extend({ attachmentId: z.uuid() });
const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition, record or attachment' },
};

export const listAttachments = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/attachments',
  summary: 'List attachments and URL links (a bare array, oldest first)',
  operation: 'listRecordAttachments',
  tags: ['Attachments'],
  params: recordPath,
  responses: {
    200: { description: 'Attachments', schema: AttachmentListSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const uploadAttachment = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}/{id}/attachments',
  summary: 'Upload a file (multipart `file`, optional `description`); at most 262,144,000 bytes',
  operation: 'createRecordAttachment',
  tags: ['Attachments'],
  params: recordPath,
  body: {
    contentType: 'multipart/form-data',
    schema: z.object({
      file: z.string().meta({ format: 'binary' }),
      description: z.string().max(1000).optional(),
    }),
  },
  responses: {
    202: { description: 'Stored attachment', schema: AttachmentSchema },
    ...COMMON_ERRORS,
    ...denied,
    413: {
      description: 'File over 262,144,000 bytes (checked from Content-Length before reading)',
    },
    415: { description: 'Not multipart/form-data' },
    422: { description: 'No `file` part, or description too long' },
  },
});

export const addUrlLink = defineRoute({
  method: 'post',
  path: '/v1/{recordType}/{alias}/{id}/attachments/url-links',
  summary: 'Attach a URL link (absolute http(s) only)',
  operation: 'createRecordLink',
  tags: ['Attachments'],
  params: recordPath,
  body: { schema: UrlLinkInputSchema },
  responses: {
    201: { description: 'The link, echoed with its id', schema: UrlLinkSchema },
    ...COMMON_ERRORS,
    ...denied,
    422: { description: 'Not an absolute http(s) URL' },
  },
});

export const getAttachment = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}',
  summary: 'One attachment’s metadata',
  operation: 'getRecordAttachment',
  tags: ['Attachments'],
  params: attachmentParams,
  responses: {
    200: { description: 'Attachment', schema: AttachmentSchema },
    ...COMMON_ERRORS,
    ...denied,
  },
});

export const removeAttachment = defineRoute({
  method: 'delete',
  path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}',
  summary: 'Delete an attachment or link (and its stored bytes)',
  operation: 'deleteRecordAttachments',
  tags: ['Attachments'],
  params: attachmentParams,
  responses: { 200: { description: 'Deleted' }, ...COMMON_ERRORS, ...denied },
});

export const getAttachmentContent = defineRoute({
  method: 'get',
  path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}/content',
  summary:
    'Download the bytes (extension): Range, ETag, attachment disposition, nosniff, sandbox CSP',
  operation: 'downloadRecordAttachment',
  tags: ['Attachments'],
  params: attachmentParams,
  responses: {
    200: { description: 'The whole file', contentType: 'application/octet-stream' },
    206: {
      description: 'One byte range (Content-Range)',
      contentType: 'application/octet-stream',
    },
    304: { description: 'If-None-Match matched the sha256 ETag' },
    ...COMMON_ERRORS,
    ...denied,
    416: { description: 'Range not satisfiable (Content-Range: bytes */size)' },
  },
});
