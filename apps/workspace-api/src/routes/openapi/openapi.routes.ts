import { z } from 'zod';

import type { RouteSpec } from '../../lib/openapi.ts';

export const openapiRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This API description (OpenAPI 3.0), generated from the zod contract',
    tags: ['Meta'],
    auth: false,
    responses: {
      200: { description: 'OpenAPI document', schema: z.looseObject({ openapi: z.string() }) },
    },
  },
  {
    method: 'get',
    path: '/v1/docs',
    summary: 'This API reference to browse (Swagger UI over /v1/openapi.json, self-hosted)',
    tags: ['Meta'],
    auth: false,
    responses: {
      200: { description: 'HTML page', contentType: 'text/html' },
    },
  },
];
