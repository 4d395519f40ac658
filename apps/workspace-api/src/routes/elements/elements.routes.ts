// `GET /v1/elements/{alias}` of the hosted profile only: served before the generic record routes
// (routes/index.ts), so that it is getElement there and a record search in the extended profile.
// Not described: the generated OpenAPI document describes the extended profile.
import { z } from 'zod';

import { AspectSchema } from '@wsc/api-client';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

export const getElement = defineRoute({
  method: 'get',
  path: '/v1/elements/{alias}',
  summary: 'An element definition as a published Aspect',
  operation: 'getElement',
  profile: 'hosted',
  tags: ['Records'],
  params: z.object({ alias: z.string() }),
  responses: {
    200: { description: 'Aspect', schema: AspectSchema },
    ...COMMON_ERRORS,
    403: { description: 'The definition is not open to the caller' },
    404: { description: 'Unknown definition' },
  },
});
