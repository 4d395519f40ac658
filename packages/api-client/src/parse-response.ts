import type { z } from 'zod';

import { ApiError } from './errors.ts';

/**
 * Parses a successful reply's JSON body with its schema. A body that is not JSON or does not match
 * is an ApiError `invalid_response` naming the request and the offending paths, so contract drift
 * fails loudly here instead of as an `undefined` three components later.
 *
 * @example
 * const user = await parseResponse(response, UserSchema, 'GET /users/42');
 * // `redact` keeps secrets (a token reply) off the error, which may be logged.
 * const token = await parseResponse(response, TokenResponseSchema, 'POST /oauth/token', { redact: true });
 */
export async function parseResponse<S extends z.ZodType>(
  response: Response,
  schema: S,
  label: string,
  options: { redact?: boolean } = {},
): Promise<z.output<S>> {
  const text = await response.text();
  const fail = (detail: string, problem: unknown, cause: unknown) =>
    new ApiError({
      status: response.status,
      code: 'invalid_response',
      title: 'Invalid response',
      detail: `${label} answered ${response.status} ${detail}`,
      problem: options.redact ? undefined : problem,
      cause,
    });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw fail('with a body that is not JSON', text, error);
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw fail(`with an unexpected shape: ${issues}`, body, result.error);
  }
  return result.data;
}

/**
 * Like {@link parseResponse}, for 2xx replies whose body may be absent (the published upload
 * answers 202 with none): an empty body gives `undefined`, anything else must match the schema.
 *
 * @example
 * const attachment = await parseOptionalResponse(response, AttachmentSchema, 'POST .../attachments');
 */
export async function parseOptionalResponse<S extends z.ZodType>(
  response: Response,
  schema: S,
  label: string,
): Promise<z.output<S> | undefined> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  return parseResponse(new Response(text, { status: response.status }), schema, label);
}
