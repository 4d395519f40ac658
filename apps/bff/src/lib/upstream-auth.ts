// The sign-in calls to the workspace API over the injected fetch: the token request (with the
// style fallback the hosted service needs) and `GET /v1/me`, and the errors every caller of the
// upstream maps (revoked credentials, an unreachable or unusable API).
import type { Me, TokenRequestStyle, TokenResponse } from '@wsc/api-client';
import { isApiError, MeSchema, requestToken } from '@wsc/api-client';

import type { Region, RegionId } from './region.ts';

/** The API said the session's credentials are no longer valid (revoked, deactivated, rotated). */
export class CredentialsRejectedError extends Error {
  override readonly name = 'CredentialsRejectedError';
}

/** The API could not be reached, timed out, or answered the token call with something unusable. */
export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';
  constructor(
    message: string,
    readonly kind: 'timeout' | 'unreachable' | 'bad_reply' | 'rate_limited',
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** Per region: the token request style that worked after a fallback (fetchToken). */
export type TokenStyles = Map<RegionId, TokenRequestStyle>;

/** Answers to form + Basic that may mean "send the JSON body instead" (Prism answers 422). */
const FALLBACK_STATUS = new Set([400, 415, 422]);
/** RFC 6749 codes that mean the credentials themselves are wrong, whatever the status. */
const CREDENTIAL_CODES = new Set(['invalid_client', 'invalid_grant', 'unauthorized_client']);

function tokenFailure(error: unknown): Error {
  if (isApiError(error)) {
    // Only these mean "wrong credentials" (and count as a failed sign-in); any other 4xx is the
    // service not understanding us, which the person signing in cannot fix.
    if (error.status === 401 || CREDENTIAL_CODES.has(error.code)) {
      return new CredentialsRejectedError(error.code);
    }
    if (error.status === 429) {
      return new UpstreamUnavailableError('token rate limited', 'rate_limited', error.retryAfter);
    }
    return new UpstreamUnavailableError(
      `token endpoint answered ${error.status}`,
      error.status === 0 ? 'unreachable' : 'bad_reply',
    );
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new UpstreamUnavailableError('token endpoint timed out', 'timeout');
  }
  return new UpstreamUnavailableError('token endpoint failed', 'unreachable');
}

/**
 * Call the token endpoint; maps RFC 6749 errors and network failures to the BFF's error types.
 * With the region's `tokenStyle` `auto`: form + HTTP Basic first (the service's documentation),
 * and on 400/415/422 (without a credentials error code) once more with the JSON body of its
 * published OpenAPI; when that works, the region uses JSON from then on. Any 2xx with an
 * `access_token` is success.
 *
 * @example
 * const token = await fetchToken({ fetch, region, clientId, clientSecret, timeoutMs: 30_000, styles });
 */
export async function fetchToken(options: {
  fetch: typeof fetch;
  region: Region;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  styles: TokenStyles;
}): Promise<TokenResponse> {
  const { region } = options;
  const request = (style: TokenRequestStyle) =>
    requestToken({
      tokenUrl: region.tokenUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      style,
      fetch: options.fetch,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  const fixed = region.tokenStyle === 'auto' ? options.styles.get(region.id) : region.tokenStyle;
  try {
    if (fixed) return await request(fixed);
    try {
      return await request('form');
    } catch (error) {
      const retry =
        isApiError(error) && FALLBACK_STATUS.has(error.status) && !CREDENTIAL_CODES.has(error.code);
      if (!retry) throw error;
    }
    const reply = await request('json');
    options.styles.set(region.id, 'json');
    return reply;
  } catch (error) {
    throw tokenFailure(error);
  }
}

/**
 * The longest token lifetime the BFF plans a refresh with. The published contract allows any
 * number for `expires_in` (a fraction, or centuries); a session lasts hours, and the refresh time
 * is stored as whole milliseconds in a bigint column.
 */
const MAX_PLANNED_TOKEN_SECONDS = 7 * 24 * 3600;

/**
 * When to refresh a token issued at `issuedAt` (ms) that lives `expiresIn` seconds: `ratio` of
 * its lifetime (at most a week), in whole milliseconds.
 *
 * @example
 * tokenRefreshTime(0, 3599.5, 0.9); // 3239550
 */
export function tokenRefreshTime(issuedAt: number, expiresIn: number, ratio: number): number {
  return issuedAt + Math.floor(Math.min(expiresIn, MAX_PLANNED_TOKEN_SECONDS) * 1000 * ratio);
}

/**
 * `GET /v1/me` with a fresh token: who signed in, and their role.
 *
 * @example
 * const me = await fetchMe(fetch, region, token.access_token, 30_000);
 */
export async function fetchMe(
  doFetch: typeof fetch,
  region: Region,
  accessToken: string,
  timeoutMs: number,
): Promise<Me> {
  let response: Response;
  try {
    response = await doFetch(`${region.apiUrl}/me`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timeout = error instanceof Error && error.name === 'TimeoutError';
    throw new UpstreamUnavailableError('GET /v1/me failed', timeout ? 'timeout' : 'unreachable');
  }
  if (response.status === 401) throw new CredentialsRejectedError('me_unauthorized');
  if (!response.ok) {
    await response.body?.cancel();
    throw new UpstreamUnavailableError(`GET /v1/me answered ${response.status}`, 'bad_reply');
  }
  const parsed = MeSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success)
    throw new UpstreamUnavailableError('GET /v1/me reply malformed', 'bad_reply');
  return parsed.data;
}
