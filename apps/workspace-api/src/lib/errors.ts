// Error replies. Handlers throw ProblemException; the app's single onError renders it with
// errorResponse, the one place that knows the two formats: RFC 9457 problem documents in the
// extended profile, the hosted service's plain `{"message"}` in the hosted one.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';

import type { FieldProblem, Problem } from '@wsc/api-client';

import type { Profile } from '../env.ts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

const SLUGS: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  408: 'request-timeout',
  409: 'conflict',
  411: 'length-required',
  412: 'precondition-failed',
  413: 'content-too-large',
  415: 'unsupported-media-type',
  416: 'range-not-satisfiable',
  422: 'validation-error',
  429: 'rate-limited',
  431: 'headers-too-large',
  500: 'internal-error',
  503: 'unavailable',
  507: 'insufficient-storage',
};

/** Base URI of our problem types; each status has its own `type`. */
export const PROBLEM_TYPE_BASE = 'https://workspace-api.dev/problems/';

export type ProblemInit = {
  detail?: string;
  errors?: FieldProblem[];
  /** Extra members, e.g. `position` for RSQL errors. */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/**
 * Builds a problem+json body for a status.
 *
 * @example
 * problemBody(404, { detail: 'No record SUP-9' });
 */
export function problemBody(status: number, init: ProblemInit = {}): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}${SLUGS[status] ?? 'error'}`,
    title: TITLES[status] ?? 'Error',
    status,
    ...(init.detail !== undefined ? { detail: init.detail } : {}),
    ...(init.errors ? { errors: init.errors } : {}),
    ...init.extra,
  };
}

/** The extended profile's error reply; the app renders every error with errorResponse. */
function problemResponse(status: number, init: ProblemInit = {}): Response {
  return new Response(JSON.stringify(problemBody(status, init)), {
    status,
    headers: { 'Content-Type': 'application/problem+json', ...init.headers },
  });
}

/**
 * The hosted profile's error text: the detail, then any field problems it does not already say,
 * in prose (the published contract declares no error body, and the service answers `{message}`).
 */
function hostedMessage(status: number, init: ProblemInit): string {
  const detail = init.detail ?? TITLES[status] ?? 'Error';
  const unsaid = (init.errors ?? []).filter((error) => !detail.includes(error.message));
  if (unsaid.length === 0) return detail;
  return `${detail}: ${unsaid.map((error) => `${error.field}: ${error.message}`).join('; ')}`;
}

/** Headers only the extended profile sends with errors (the hosted service has no such headers). */
const EXTENDED_ONLY_HEADERS = new Set(['ratelimit', 'ratelimit-policy']);

/**
 * Every error reply of the app: problem+json in the extended profile; in the hosted profile
 * `application/json` `{"message"}` (field problems in prose, no `errors`, no `RateLimit` headers).
 *
 * @example
 * return errorResponse(c.var.deps.config.profile, 404, { detail: 'No record SUP-9' });
 */
export function errorResponse(profile: Profile, status: number, init: ProblemInit = {}): Response {
  if (profile === 'extended') return problemResponse(status, init);
  const headers = new Headers({ 'Content-Type': 'application/json' });
  for (const [name, value] of Object.entries(init.headers ?? {})) {
    if (!EXTENDED_ONLY_HEADERS.has(name.toLowerCase())) headers.set(name, value);
  }
  return new Response(JSON.stringify({ message: hostedMessage(status, init) }), {
    status,
    headers,
  });
}

/** An HTTPException carrying what errorResponse needs to render it in either profile. */
export class ProblemException extends HTTPException {
  readonly problem: Problem;
  readonly init: ProblemInit;

  constructor(status: ContentfulStatusCode, init: ProblemInit = {}) {
    super(status, {
      res: problemResponse(status, init),
      message: init.detail ?? TITLES[status] ?? 'Error',
    });
    this.problem = problemBody(status, init);
    this.init = init;
  }
}

/**
 * 400 for a malformed request or parameter.
 *
 * @example
 * throw badRequest('Invalid cursor', [{ field: 'after', message: 'Tampered or expired cursor' }]);
 */
export function badRequest(
  detail: string,
  errors?: FieldProblem[],
  extra?: Record<string, unknown>,
) {
  return new ProblemException(400, {
    detail,
    ...(errors ? { errors } : {}),
    ...(extra ? { extra } : {}),
  });
}

/**
 * 401 with `WWW-Authenticate: Bearer` (RFC 6750).
 *
 * @example
 * throw unauthorized('The access token expired');
 */
export function unauthorized(detail: string, invalidToken = true) {
  const challenge = invalidToken
    ? `Bearer realm="workspace-api", error="invalid_token", error_description="${detail.replaceAll('"', "'")}"`
    : 'Bearer realm="workspace-api"';
  return new ProblemException(401, { detail, headers: { 'WWW-Authenticate': challenge } });
}

/**
 * 403: authenticated but not allowed.
 *
 * @example
 * throw forbidden('Only administrators may create users');
 */
export function forbidden(detail: string) {
  return new ProblemException(403, { detail });
}

/**
 * 404 for an unknown resource.
 *
 * @example
 * throw notFound('No record SUP-42 in support-tickets');
 */
export function notFound(detail: string) {
  return new ProblemException(404, { detail });
}

/**
 * 412 for a stale `If-Match`.
 *
 * @example
 * throw preconditionFailed('The record changed since it was read');
 */
export function preconditionFailed(detail: string, headers?: Record<string, string>) {
  return new ProblemException(412, { detail, ...(headers ? { headers } : {}) });
}

/**
 * 413 for a body over the limit.
 *
 * @example
 * throw contentTooLarge('Files are limited to 262144000 bytes');
 */
export function contentTooLarge(detail: string) {
  return new ProblemException(413, { detail });
}

/**
 * 422 listing every field-level problem.
 *
 * @example
 * throw unprocessable([{ field: 'Status', message: 'Not one of New, Open, ...' }]);
 */
export function unprocessable(
  errors: FieldProblem[],
  detail = 'The request has validation errors',
) {
  return new ProblemException(422, { detail, errors });
}

/**
 * 416 for a Range outside the file, with the `Content-Range` that names the file's size.
 *
 * @example
 * throw rangeNotSatisfiable(1024);
 */
export function rangeNotSatisfiable(size: number) {
  return new ProblemException(416, {
    detail: `Range not satisfiable for ${size} bytes`,
    headers: { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' },
  });
}

/**
 * 429 with Retry-After and the rate-limit headers.
 *
 * @example
 * throw tooManyRequests(2, { RateLimit: '"default";r=0;t=2' });
 */
export function tooManyRequests(retryAfterSeconds: number, headers: Record<string, string> = {}) {
  return new ProblemException(429, {
    detail: `Rate limit exceeded; retry in ${retryAfterSeconds} s`,
    headers: { 'Retry-After': String(retryAfterSeconds), ...headers },
  });
}

/**
 * 503 with Retry-After: the request was fine, the server cannot serve it now (a search past its
 * time limit, the secret-check queue full).
 *
 * @example
 * throw serviceUnavailable(2, 'The search took longer than 5000 ms');
 */
export function serviceUnavailable(retryAfterSeconds: number, detail: string) {
  return new ProblemException(503, {
    detail,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/**
 * 507: storing the request would leave the volume with too little free space.
 *
 * @example
 * throw insufficientStorage('The attachment volume is full');
 */
export function insufficientStorage(detail: string, headers?: Record<string, string>) {
  return new ProblemException(507, { detail, ...(headers ? { headers } : {}) });
}
