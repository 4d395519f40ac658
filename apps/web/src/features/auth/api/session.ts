import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { ApiError, apiErrorFromResponse, MeSchema, UserSchema } from '@wsc/api-client';

/** `GET /bff/session`: who is signed in, in which region, until when. */
export const SessionSchema = z.object({
  user: MeSchema.or(UserSchema.extend({ role: z.string().optional() })),
  region: z.string(),
  expiresAt: z.string(),
});
export type Session = z.infer<typeof SessionSchema>;

/** `GET /bff/config`: what the sign-in form offers (no session needed). */
export const BffConfigSchema = z.object({
  regions: z.array(z.object({ id: z.string(), label: z.string() })).min(1),
  maxUploadBytes: z.number().optional(),
});
export type BffConfig = z.infer<typeof BffConfigSchema>;

export const LoginInputSchema = z.object({
  clientId: z.string().trim().min(1, 'Enter your client ID'),
  clientSecret: z.string().min(1, 'Enter your client secret'),
  region: z.string().min(1),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

const LoginResultSchema = z.object({ user: UserSchema.passthrough(), region: z.string() });

async function bff<S extends z.ZodType>(
  path: string,
  schema: S,
  init?: RequestInit,
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      ...init,
      headers: { Accept: 'application/json', ...init?.headers },
    });
  } catch (cause) {
    throw new ApiError({ status: 0, code: 'network_error', cause });
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  if (response.status === 204) return schema.parse(undefined);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) {
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      detail: `Unexpected reply from ${path}`,
    });
  }
  return parsed.data;
}

/**
 * The session, or `null` when signed out (401). Other failures throw ApiError.
 *
 * @example
 * const session = await queryClient.ensureQueryData(sessionQueryOptions());
 */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: ['session'],
    queryFn: async (): Promise<Session | null> => {
      try {
        return await bff('/bff/session', SessionSchema);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * `GET /bff/config`: the regions offered at sign-in.
 *
 * @example
 * const { data } = useSuspenseQuery(bffConfigQueryOptions());
 */
export function bffConfigQueryOptions() {
  return queryOptions({
    queryKey: ['bff-config'],
    queryFn: () => bff('/bff/config', BffConfigSchema),
    staleTime: Infinity,
  });
}

/**
 * `POST /bff/login`: checks the credentials with the API and starts a session cookie.
 * Throws ApiError 401 (bad credentials) or 429 (too many attempts, with `retryAfter`).
 *
 * @example
 * await login({ clientId, clientSecret, region: 'default' });
 */
export function login(input: LoginInput) {
  return bff('/bff/login', LoginResultSchema, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF': '1' },
    body: JSON.stringify(input),
  });
}

/**
 * `POST /bff/logout`: ends the session (204).
 *
 * @example
 * await logout();
 */
export async function logout(): Promise<void> {
  await bff('/bff/logout', z.unknown(), { method: 'POST', headers: { 'X-CSRF': '1' } });
}
