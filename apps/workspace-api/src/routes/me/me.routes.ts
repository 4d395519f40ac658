import { MeSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

export const meRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/me',
    summary: 'The credential owner and their role (extension)',
    tags: ['Users'],
    responses: { 200: { description: 'The caller', schema: MeSchema }, ...COMMON_ERRORS },
  },
];
