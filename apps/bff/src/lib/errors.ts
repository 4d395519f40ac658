// RFC 9457 problem documents: the one error shape the BFF answers with.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { HTTPException } from 'hono/http-exception';

import type { FieldProblem } from '@wsc/api-client';

export type ProblemInit = {
  status: ContentfulStatusCode;
  title: string;
  detail?: string;
  /** Short machine code; becomes the problem `type` URN, e.g. `urn:wsc:bff:csrf`. */
  code: string;
  errors?: FieldProblem[];
  /** Extra members, after `detail`: e.g. `parameter` and `position` of a bad filter. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/**
 * A problem+json response, with `Cache-Control: no-store`.
 *
 * @example
 * return problemResponse({ status: 403, code: 'csrf', title: 'Forbidden', detail: 'X-CSRF: 1 is required' });
 */
export function problemResponse(init: ProblemInit): Response {
  const body = {
    type: `urn:wsc:bff:${init.code}`,
    title: init.title,
    status: init.status,
    ...(init.detail === undefined ? {} : { detail: init.detail }),
    ...init.extra,
    ...(init.errors === undefined ? {} : { errors: init.errors }),
  };
  return new Response(JSON.stringify(body), {
    status: init.status,
    headers: {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      ...init.headers,
    },
  });
}

/**
 * An HTTPException that renders as problem+json through the app's single `onError`.
 *
 * @example
 * throw new ProblemException({ status: 401, code: 'unauthenticated', title: 'Not signed in' });
 */
export class ProblemException extends HTTPException {
  constructor(readonly problem: ProblemInit) {
    super(problem.status, { message: problem.title, res: problemResponse(problem) });
  }
}

/**
 * zod issues as the `errors` of a problem document, each naming its field (`(body)` for the whole).
 *
 * @example
 * fieldProblems(parsed.error.issues); // [{ field: 'name', message: 'Name is required' }]
 */
export function fieldProblems(issues: z.core.$ZodIssue[]): FieldProblem[] {
  return issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
}

/**
 * The request's JSON body; a body that is not JSON is a 400 `bad_request` problem.
 *
 * @example
 * const body = await readJsonBody(c);
 */
export async function readJsonBody(
  c: Context,
  detail = 'The body must be a JSON object',
): Promise<unknown> {
  try {
    return (await c.req.json()) as unknown;
  } catch {
    throw new ProblemException({ status: 400, code: 'bad_request', title: 'Bad Request', detail });
  }
}

/**
 * A 429 problem with `Retry-After` (whole seconds, at least 1): the answer of every limit.
 *
 * @example
 * throw tooManyRequests('rate_limited', 'At most 20 requests per second per session', 1);
 */
export function tooManyRequests(code: string, detail: string, retryAfterSeconds: number) {
  return new ProblemException({
    status: 429,
    code,
    title: 'Too Many Requests',
    detail,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}
