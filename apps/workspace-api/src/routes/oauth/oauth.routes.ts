// `POST /oauth/token` (client credentials grant), described for the OpenAPI document.
import { TokenErrorSchema, TokenRequestSchema } from '@wsc/api-client';
import { TokenResponseSchema } from '@wsc/api-client/strict';

import { defineRoute } from '../../lib/route.ts';

export const postToken = defineRoute({
  method: 'post',
  path: '/oauth/token',
  summary: 'Exchange client credentials for an access token',
  operation: 'requestAccessToken',
  tags: ['Auth'],
  auth: false,
  body: {
    schema: TokenRequestSchema.partial({ client_id: true, client_secret: true }),
    contentType: 'application/x-www-form-urlencoded',
  },
  responses: {
    200: { description: 'Access token', schema: TokenResponseSchema },
    400: {
      description: 'invalid_request or unsupported_grant_type',
      schema: TokenErrorSchema,
      contentType: 'application/json',
    },
    401: {
      description: 'invalid_client',
      schema: TokenErrorSchema,
      contentType: 'application/json',
    },
    429: { description: 'Too many failed attempts for this client id' },
  },
});
