import type { ApiClient, ApiError, Profile } from '@wsc/api-client';
import { createApiClient } from '@wsc/api-client';

type UnauthorizedHandler = (error: ApiError) => void;

let unauthorizedHandler: UnauthorizedHandler | undefined;

/**
 * Registers what happens when the BFF answers 401 (the session expired or was signed out
 * elsewhere). The app sets it once at start-up to send the user to sign-in, keeping their place.
 *
 * @example
 * onUnauthorized(() => router.navigate({ to: '/sign-in', search: { redirect: location.href } }));
 */
export function onUnauthorized(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

function build(profile: Profile, fetchImpl?: typeof fetch): ApiClient {
  return createApiClient({
    baseUrl: '/api/v1',
    headers: { 'X-CSRF': '1' },
    profile,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    // The BFF already retries idempotent requests upstream; a second layer here would multiply waits.
    retry: false,
    onUnauthorized: (error) => {
      unauthorizedHandler?.(error);
    },
  });
}

/**
 * The one typed client of the workspace API. It goes through the BFF on the same origin, which
 * holds the token; every `/api/*` request must carry `X-CSRF: 1` or the BFF refuses it. Its
 * profile follows the session's region ({@link configureApi}): against the hosted service every
 * request stays inside the published contract.
 *
 * @example
 * const page = await api.searchRecords('apps', 'support-tickets', { filter: 'Status==Open' });
 */
export const api: ApiClient = build('extended');

/**
 * Points {@link api} at a profile; called whenever the session is read. Methods are replaced in
 * place, so every module keeps its one `api` reference.
 *
 * @example
 * configureApi(session.capabilities.profile);
 */
export function configureApi(profile: Profile): void {
  if (api.profile !== profile) Object.assign(api, build(profile));
}

/**
 * A client like {@link api} (the session's profile, the CSRF header, the same 401 handling) whose
 * requests go through `fetchImpl`: a bulk run paces and observes its own requests this way.
 *
 * @example
 * const paced = apiWith(pacedFetch(budget));
 */
export function apiWith(fetchImpl: typeof fetch): ApiClient {
  return build(api.profile, fetchImpl);
}
