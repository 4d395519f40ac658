import type { z } from 'zod';

import { ApiError, apiErrorFromResponse } from '@wsc/api-client';

/**
 * A request to the BFF's own `/bff/*` routes, parsed with the shared schema of its reply.
 *
 * @example
 * const config = await bff('/bff/config', BffConfigSchema);
 */
export async function bff<S extends z.ZodType>(
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
    const issue = parsed.error.issues[0];
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      detail: `Unexpected reply from ${path}${issue ? ` (${issue.path.join('.') || 'body'}: ${issue.message})` : ''}`,
    });
  }
  return parsed.data;
}
