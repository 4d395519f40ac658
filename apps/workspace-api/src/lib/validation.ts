// Request body parsing with the api-client zod schemas (route specs call it, see route.ts).
import type { Context } from 'hono';
import type { z } from 'zod';

import type { AppEnv } from './types.ts';
import { JSON_BODY_MAX_BYTES, readBodyText } from './body.ts';
import { badRequest, unprocessable } from './errors.ts';
import { findBadText } from './text.ts';

/**
 * Field problems from a zod error (`a.b` paths; `(body)` for the root).
 *
 * @example
 * unprocessable(issuesToProblems(result.error));
 */
export function issuesToProblems(error: z.ZodError) {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
}

/**
 * The parsed JSON body (1 MiB at most: 413 beyond, see body.ts), or undefined when it is empty.
 * Malformed JSON -> 400; a NUL or an unpaired surrogate in any string or key -> 422 naming each.
 */
async function readJsonValue(c: Context<AppEnv>): Promise<unknown> {
  const text = await readBodyText(c, JSON_BODY_MAX_BYTES);
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body', [{ field: '(body)', message: 'Not valid JSON' }]);
  }
  const problems = findBadText(body);
  if (problems.length > 0)
    throw unprocessable(problems, 'The body holds text that cannot be stored');
  return body;
}

/**
 * Reads a JSON body: malformed JSON -> 400, schema violations -> 422 listing every field.
 *
 * @example
 * const input = await parseJsonBody(c, CreateUserInputSchema);
 */
export async function parseJsonBody<T extends z.ZodType>(
  c: Context<AppEnv>,
  schema: T,
): Promise<z.output<T>> {
  const body = await readJsonValue(c);
  if (body === undefined)
    throw badRequest('A JSON body is required', [{ field: '(body)', message: 'Required' }]);
  const result = schema.safeParse(body);
  if (!result.success) throw unprocessable(issuesToProblems(result.error));
  return result.data;
}

/**
 * Reads a raw JSON body without a schema (record writes validate field by field).
 *
 * @example
 * const body = await readJson(c);
 */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const body = await readJsonValue(c);
  if (body === undefined)
    throw badRequest('A JSON body is required', [{ field: '(body)', message: 'Required' }]);
  return body;
}
