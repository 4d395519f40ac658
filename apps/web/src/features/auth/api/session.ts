import { queryOptions } from '@tanstack/react-query';

import type { LoginRequest, Session } from '@wsc/api-client';
import { ApiError } from '@wsc/api-client';

import { configureApi } from '@/lib/api.ts';
import { bff } from '@/lib/bff.ts';

export type { BffConfig, LoginInput, LoginResult, Session, SessionUser } from '@wsc/api-client';
export { LoginInputSchema } from '@wsc/api-client';

/**
 * The session, or `null` when signed out (401). Other failures throw ApiError. Loading it also
 * points the API client at the session region's profile (what requests the upstream accepts).
 *
 * @example
 * const session = await queryClient.ensureQueryData(sessionQueryOptions());
 */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: ['session'],
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await bff.session();
        configureApi(session.capabilities.profile);
        return session;
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
    queryFn: () => bff.config(),
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
export async function login(input: LoginRequest) {
  const result = await bff.login(input);
  configureApi(result.capabilities.profile);
  return result;
}

/**
 * `POST /bff/logout`: ends the session (204).
 *
 * @example
 * await logout();
 */
export async function logout(): Promise<void> {
  await bff.logout();
}

/**
 * What the console shows of the signed-in person's role: `admin` (manage users and groups),
 * `member` (no management controls), `unknown` (nobody could say: controls are shown, and the
 * service's own 403 explains a refusal).
 *
 * @example
 * canManage(session.user); // true for ADMIN and UNKNOWN
 */
export function canManage(user: Session['user']): boolean {
  return user.role !== 'MEMBER';
}

/**
 * May this person read the region's whole record history (ADR 0024)? ADMIN as the API or the
 * operator's identities file says, never from an email typed at sign-in; the BFF checks the same.
 *
 * @example
 * isAdministrator({ role: 'ADMIN', identity: 'api', ... }); // true
 */
export function isAdministrator(user: Session['user']): boolean {
  return user.role === 'ADMIN' && (user.identity === 'api' || user.identity === 'operator');
}

/**
 * The name to show for the signed-in person: their name, else their email, else the client id.
 *
 * @example
 * displayName({ firstName: 'Ana', lastName: 'Silva', clientId: 'c1', ... }); // 'Ana Silva'
 */
export function displayName(user: Session['user']): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return name || user.email || user.clientId;
}
