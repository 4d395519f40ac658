// Request body and parameter parsing with the api-client zod schemas.
import type { Context } from 'hono';
import type { z } from 'zod';

import type { AppEnv } from './types.ts';
import { badRequest, unprocessable } from './errors.ts';

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
 * Reads a JSON body: malformed JSON -> 400, schema violations -> 422 listing every field.
 *
 * @example
 * const input = await parseJsonBody(c, CreateUserInputSchema);
 */
export async function parseJsonBody<T extends z.ZodType>(
  c: Context<AppEnv>,
  schema: T,
): Promise<z.output<T>> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body', [{ field: '(body)', message: 'Not valid JSON' }]);
  }
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
  const text = await c.req.text();
  if (text.trim() === '')
    throw badRequest('A JSON body is required', [{ field: '(body)', message: 'Required' }]);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('Malformed JSON body', [{ field: '(body)', message: 'Not valid JSON' }]);
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a path id is a UUID (others are 404 without touching a uuid column).
 *
 * @example
 * if (!isUuid(id)) throw notFound(`No user ${id}`);
 */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
