import { z } from 'zod';

export const TokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** RFC 6749 section 5.2 error body. */
export const TokenErrorSchema = z.object({
  error: z.enum([
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unauthorized_client',
    'unsupported_grant_type',
    'invalid_scope',
  ]),
  error_description: z.string().optional(),
});
export type TokenError = z.infer<typeof TokenErrorSchema>;
