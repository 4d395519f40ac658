import { z } from 'zod';

import { CredentialSchema } from '@wsc/api-client/strict';

import { COMMON_ERRORS } from '../../lib/openapi.ts';
import { defineRoute } from '../../lib/route.ts';

export const revoke = defineRoute({
  method: 'post',
  path: '/v1/credentials/{clientId}/revoke',
  summary:
    'Revoke one client credential and its tokens (ADMIN, idempotent, extension); the user stays active',
  profile: 'extended',
  tags: ['Users'],
  params: z.object({ clientId: z.string() }),
  responses: {
    200: { description: 'The revoked credential', schema: CredentialSchema },
    ...COMMON_ERRORS,
    403: { description: 'Not an administrator' },
    404: { description: 'No such credential' },
  },
});
