// RFC 9457 problem documents: the one error shape the BFF answers with.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';

import type { FieldProblem } from '@wsc/api-client';

export type ProblemInit = {
  status: ContentfulStatusCode;
  title: string;
  detail?: string;
  /** Short machine code; becomes the problem `type` URN, e.g. `urn:wsc:bff:csrf`. */
  code: string;
  errors?: FieldProblem[];
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
