import { DefinitionListSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

export const listDefinitions = defineRoute({
  method: 'get',
  path: '/v1/definitions',
  summary: 'Definitions the caller may use, with their fields (extension)',
  profile: 'extended',
  tags: ['Definitions'],
  responses: {
    200: { description: 'Definitions', schema: DefinitionListSchema },
    ...COMMON_ERRORS,
  },
});
