import { z } from 'zod';

import { defineRoute } from '../../lib/route.ts';

export const getOpenApi = defineRoute({
  method: 'get',
  path: '/v1/openapi.json',
  summary: 'This API description (OpenAPI 3.0), generated from the zod contract',
  tags: ['Meta'],
  auth: false,
  profile: 'extended',
  responses: {
    200: { description: 'OpenAPI document', schema: z.looseObject({ openapi: z.string() }) },
  },
});

export const getDocsPage = defineRoute({
  method: 'get',
  path: '/v1/docs',
  summary: 'This API reference to browse (Swagger UI over /v1/openapi.json, self-hosted)',
  tags: ['Meta'],
  auth: false,
  profile: 'extended',
  responses: {
    200: { description: 'HTML page', contentType: 'text/html' },
  },
});

/** Swagger UI's files for `/v1/docs` (not described: they are the page's, not the API's). */
export const getDocsAsset = defineRoute({
  method: 'get',
  path: '/v1/docs/{asset}',
  summary: 'A file of the API reference page',
  tags: ['Meta'],
  auth: false,
  profile: 'extended',
  described: false,
  params: z.object({ asset: z.string() }),
  responses: { 200: { description: 'The file' }, 404: { description: 'No such file' } },
});
