import type { TokenResponse } from './schemas/token.ts';
import { apiErrorFromResponse, isAbortError, networkError } from './errors.ts';
import { parseResponse } from './parse-response.ts';
import { TokenResponseSchema } from './schemas/token.ts';

/** Options of {@link requestToken}. */
export interface RequestTokenOptions {
  /** The token endpoint, e.g. `http://127.0.0.1:4010/oauth/token` (no version segment). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * `form` (default): form `grant_type=client_credentials` with HTTP Basic, as RFC 6749 and the
   * hosted service's documentation show. `json`: the JSON body `{grant_type, client_id,
   * client_secret}` its published OpenAPI declares.
   */
  style?: TokenRequestStyle;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** How the client credentials are sent to the token endpoint. */
export type TokenRequestStyle = 'form' | 'json';

/** RFC 6749 §2.3.1: client credentials are form-urlencoded before they go into HTTP Basic. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
}

/**
 * Client-credentials grant: `POST tokenUrl` with form `grant_type=client_credentials` and HTTP
 * Basic credentials, or the JSON body (`style: 'json'`). Any 2xx with an `access_token` is success (the hosted service answers 201, ours 200). RFC 6749 errors
 * become an ApiError whose `code` is the `error` value (`invalid_client`, ...). Never retried: a
 * failed sign-in is not transient and the server rate-limits failures.
 *
 * @example
 * const { access_token, expires_in } = await requestToken({
 *   tokenUrl: 'http://127.0.0.1:4010/oauth/token',
 *   clientId,
 *   clientSecret,
 * });
 */
export async function requestToken(options: RequestTokenOptions): Promise<TokenResponse> {
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    const init: RequestInit =
      options.style === 'json'
        ? {
            headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
            body: JSON.stringify({
              grant_type: 'client_credentials',
              client_id: options.clientId,
              client_secret: options.clientSecret,
            }),
          }
        : {
            headers: {
              Authorization: `Basic ${base64(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`)}`,
              'Content-Type': 'application/x-www-form-urlencoded',
              Accept: 'application/json',
            },
            body: new URLSearchParams({ grant_type: 'client_credentials' }).toString(),
          };
    response = await doFetch(options.tokenUrl, { method: 'POST', ...init, signal: options.signal });
  } catch (error) {
    if (isAbortError(error) || options.signal?.aborted) throw error;
    throw networkError(error);
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  return parseResponse(response, TokenResponseSchema, `POST ${options.tokenUrl}`, { redact: true });
}
