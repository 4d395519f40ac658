import type { z } from 'zod';

import { ApiError, apiErrorFromResponse, isAbortError, networkError } from '@wsc/api-client';

export interface BffWriteOptions<S extends z.ZodType> {
  method: 'POST' | 'PUT' | 'DELETE';
  /** Parses the reply body; it is only read when there is one (a 204 has none). */
  schema: S;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * A write to the BFF's own `/bff/*` routes. The BFF refuses any non-GET without `X-CSRF: 1` (a
 * cross-site form cannot set that header), and takes JSON bodies only. Failures throw the same
 * `ApiError` as every other request, so `describeError` and field `errors` work unchanged.
 *
 * @example
 * const entry = await bffWrite('/bff/workspace/definitions/apps/support', {
 *   method: 'PUT',
 *   schema: WorkspaceEntrySchema,
 *   body: definition,
 * });
 */
export async function bffWrite<S extends z.ZodType>(
  path: string,
  { method, schema, body, signal }: BffWriteOptions<S>,
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF': '1' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (cause) {
    if (isAbortError(cause)) throw cause;
    throw networkError(cause);
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  const text = await response.text();
  let json: unknown;
  try {
    json = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw invalidReply(path, response.status, 'not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidReply(
      path,
      response.status,
      issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : undefined,
    );
  }
  return parsed.data;
}

function invalidReply(path: string, status: number, why: string | undefined): ApiError {
  return new ApiError({
    status,
    code: 'invalid_response',
    detail: `Unexpected reply from ${path}${why ? ` (${why})` : ''}`,
  });
}
