import { z } from 'zod';

export const TokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

/** Lifetime assumed when a token reply gives none (the published example's value). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * A token reply: only `access_token` is needed. `token_type` defaults to Bearer; `expires_in` may
 * be a number or numeric text and defaults to an hour when missing or unusable.
 */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z
    .string()
    .nullish()
    .transform((value) => value || 'Bearer'),
  expires_in: z
    .unknown()
    .optional()
    .transform((value) => {
      const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
        ? seconds
        : DEFAULT_TOKEN_LIFETIME_SECONDS;
    }),
});
export type TokenResponse = z.output<typeof TokenResponseSchema>;

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
