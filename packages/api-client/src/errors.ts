import type { FieldProblem } from './schemas/problem.ts';
import { FieldProblemSchema, ProblemSchema } from './schemas/problem.ts';
import { TokenErrorSchema } from './schemas/token.ts';

/** Everything an {@link ApiError} can be built from. */
export interface ApiErrorInit {
  /** HTTP status; 0 when no answer arrived (network failure). */
  status: number;
  /** Machine-readable code: the problem `type`, an RFC 6749 `error`, or a status-derived name. */
  code: string;
  title?: string;
  detail?: string;
  errors?: FieldProblem[];
  /** Seconds to wait before retrying, from `Retry-After`. */
  retryAfter?: number;
  /** The raw (parsed JSON or text) error body, if any. */
  problem?: unknown;
  cause?: unknown;
}

/**
 * The one error type the client throws for anything that is not a successful, well-formed answer:
 * HTTP errors (problem+json or not), network failures (status 0), malformed replies and the
 * client-side upload size check. UI code narrows with `instanceof ApiError` / {@link isApiError}.
 *
 * @example
 * try {
 *   await client.getRecord('apps', 'support', 'SUP-42');
 * } catch (error) {
 *   if (isApiError(error) && error.status === 404) showNotFound();
 *   else throw error;
 * }
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldProblem[];
  readonly retryAfter: number | undefined;
  readonly problem: unknown;

  constructor(init: ApiErrorInit) {
    const title = init.title ?? statusTitle(init.status);
    const head = init.status > 0 ? `${init.status} ${title}` : title;
    super(init.detail ? `${head}: ${init.detail}` : head, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.title = title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.retryAfter = init.retryAfter;
    this.problem = init.problem;
  }

  /**
   * A member of the JSON error body beyond the standard ones (an RFC 9457 extension member),
   * e.g. the `latest` record of the BFF's 412 `stale_record`; `undefined` when absent or when
   * the body was not a JSON object.
   *
   * @example
   * const latest = error.member('latest');
   */
  member(name: string): unknown {
    const body = this.problem;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
  }
}

/**
 * Narrows an unknown thrown value to {@link ApiError}. Duck-typed as well as `instanceof`, so errors
 * from a second copy of this package (e.g. Vite pre-bundling) still narrow.
 *
 * @example
 * if (isApiError(error) && error.status === 412) warnAboutConflict();
 */
export function isApiError(value: unknown): value is ApiError {
  if (value instanceof ApiError) return true;
  return (
    value instanceof Error &&
    value.name === 'ApiError' &&
    typeof (value as { status?: unknown }).status === 'number' &&
    typeof (value as { code?: unknown }).code === 'string'
  );
}

const STATUS_CODES: Record<number, [code: string, title: string]> = {
  400: ['bad_request', 'Bad Request'],
  401: ['unauthorized', 'Unauthorized'],
  403: ['forbidden', 'Forbidden'],
  404: ['not_found', 'Not Found'],
  405: ['method_not_allowed', 'Method Not Allowed'],
  409: ['conflict', 'Conflict'],
  411: ['length_required', 'Length Required'],
  412: ['precondition_failed', 'Precondition Failed'],
  413: ['payload_too_large', 'Content Too Large'],
  415: ['unsupported_media_type', 'Unsupported Media Type'],
  422: ['validation_failed', 'Unprocessable Content'],
  429: ['rate_limited', 'Too Many Requests'],
  500: ['internal_error', 'Internal Server Error'],
  502: ['bad_gateway', 'Bad Gateway'],
  503: ['service_unavailable', 'Service Unavailable'],
  504: ['gateway_timeout', 'Gateway Timeout'],
};

/**
 * A stable code for a status when the body names none (`about:blank` problems, HTML error pages).
 *
 * @example
 * statusCode(404); // 'not_found'
 * statusCode(418); // 'http_418'
 */
export function statusCode(status: number): string {
  return STATUS_CODES[status]?.[0] ?? `http_${status}`;
}

function statusTitle(status: number): string {
  if (status === 0) return 'Network error';
  return STATUS_CODES[status]?.[1] ?? `HTTP ${status}`;
}

/**
 * Parses `Retry-After` (delay-seconds or an HTTP-date) into whole seconds from `now`, never
 * negative; `undefined` when absent or unparseable.
 *
 * @example
 * parseRetryAfter('5'); // 5
 * parseRetryAfter(new Date(Date.now() + 3000).toUTCString()); // 3 (rounded up)
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Only an HTTP-date is valid besides digits; Date.parse would accept many other shapes.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) {
    return undefined;
  }
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Longest piece of a non-JSON error body kept as `detail` (HTML error pages can be huge). */
const MAX_TEXT_DETAIL = 500;

/**
 * Builds the {@link ApiError} for a non-2xx response, consuming its body. Understands RFC 9457
 * problem+json, RFC 6749 token errors, other JSON (`message`/`error`), and plain text or HTML.
 *
 * @example
 * if (!response.ok) throw await apiErrorFromResponse(response);
 */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const status = response.status;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The body broke off mid-way: the status alone is still worth reporting.
  }
  const base = { status, retryAfter, code: statusCode(status) };
  if (text.trim() === '') return new ApiError({ ...base, title: response.statusText || undefined });

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new ApiError({
      ...base,
      title: response.statusText || undefined,
      detail: text.trim().slice(0, MAX_TEXT_DETAIL),
      problem: text,
    });
  }

  const problem = ProblemSchema.safeParse(json);
  if (problem.success) {
    const { type, title, detail, errors } = problem.data;
    return new ApiError({
      ...base,
      code: type && type !== 'about:blank' ? type : base.code,
      title,
      detail,
      errors,
      problem: json,
    });
  }

  const tokenError = TokenErrorSchema.safeParse(json);
  if (tokenError.success) {
    return new ApiError({
      ...base,
      code: tokenError.data.error,
      title: tokenError.data.error,
      detail: tokenError.data.error_description,
      problem: json,
    });
  }

  // Some other JSON (a proxy, an unknown error code): keep what reads as a message.
  const loose = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const pick = (key: string) => (typeof loose[key] === 'string' ? loose[key] : undefined);
  const errors = FieldProblemSchema.array().safeParse(loose['errors']);
  return new ApiError({
    ...base,
    code: pick('type') ?? pick('error') ?? pick('code') ?? base.code,
    title: pick('title') ?? (response.statusText || undefined),
    detail: pick('detail') ?? pick('error_description') ?? pick('message'),
    errors: errors.success ? errors.data : undefined,
    problem: json,
  });
}

/**
 * The error for a request that got no HTTP answer at all (DNS, refused, reset, CORS).
 *
 * @example
 * throw networkError(new TypeError('fetch failed'));
 */
export function networkError(cause: unknown): ApiError {
  const reason =
    cause instanceof Error ? (cause.cause instanceof Error ? cause.cause : cause) : undefined;
  return new ApiError({
    status: 0,
    code: 'network_error',
    detail: reason?.message ?? 'The server could not be reached',
    cause,
  });
}

/**
 * True for the error fetch/XHR raise when their signal aborts; such errors are rethrown untouched.
 *
 * @example
 * if (isAbortError(error)) return; // the user navigated away
 */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'AbortError' ||
      (error as { name?: unknown }).name === 'TimeoutError')
  );
}
