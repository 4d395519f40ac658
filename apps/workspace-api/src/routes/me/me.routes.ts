import { MeSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

export const getMe = defineRoute({
  method: 'get',
  path: '/v1/me',
  summary: 'The credential owner and their role (extension)',
  profile: 'extended',
  tags: ['Users'],
  responses: { 200: { description: 'The caller', schema: MeSchema }, ...COMMON_ERRORS },
});
