import { z } from 'zod';

import { RecordTypeSchema, UrlLinkInputSchema } from '@wsc/api-client';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

const recordParams = z.object({ recordType: RecordTypeSchema, alias: z.string(), id: z.string() });
const attachmentParams = recordParams.extend({ attachmentId: z.uuid() });
const denied = {
  403: { description: 'The definition is not open to the caller' },
  404: { description: 'Unknown definition, record or attachment' },
};

export const attachmentsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/attachments',
    summary: 'List attachments and URL links (a bare array, oldest first)',
    tags: ['Attachments'],
    params: recordParams,
    responses: {
      200: { description: 'Attachments', schema: AttachmentListSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}/{id}/attachments',
    summary: 'Upload a file (multipart `file`, optional `description`); at most 262,144,000 bytes',
    tags: ['Attachments'],
    params: recordParams,
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
  },
  {
    method: 'post',
    path: '/v1/{recordType}/{alias}/{id}/attachments/url-links',
    summary: 'Attach a URL link (absolute http(s) only)',
    tags: ['Attachments'],
    params: recordParams,
    body: { schema: UrlLinkInputSchema },
    responses: {
      201: { description: 'The link, echoed with its id', schema: UrlLinkSchema },
      ...COMMON_ERRORS,
      ...denied,
      422: { description: 'Not an absolute http(s) URL' },
    },
  },
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}',
    summary: 'One attachment’s metadata',
    tags: ['Attachments'],
    params: attachmentParams,
    responses: {
      200: { description: 'Attachment', schema: AttachmentSchema },
      ...COMMON_ERRORS,
      ...denied,
    },
  },
  {
    method: 'delete',
    path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}',
    summary: 'Delete an attachment or link (and its stored bytes)',
    tags: ['Attachments'],
    params: attachmentParams,
    responses: { 200: { description: 'Deleted' }, ...COMMON_ERRORS, ...denied },
  },
  {
    method: 'get',
    path: '/v1/{recordType}/{alias}/{id}/attachments/{attachmentId}/content',
    summary:
      'Download the bytes (extension): Range, ETag, attachment disposition, nosniff, sandbox CSP',
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
  },
];
