import { DefinitionListSchema } from '@wsc/api-client/strict';

import type { RouteSpec } from '../../lib/openapi.ts';
import { COMMON_ERRORS } from '../../lib/openapi.ts';

export const definitionsRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/v1/definitions',
    summary: 'Definitions the caller may use, with their fields (extension)',
    tags: ['Definitions'],
    responses: {
      200: { description: 'Definitions', schema: DefinitionListSchema },
      ...COMMON_ERRORS,
    },
  },
];
