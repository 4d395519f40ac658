// The request core every resource of the API client goes through: URL building, headers and the
// bearer token, retries, error mapping, the 401 hook and reply parsing. Resources describe a
// request as data (a RequestSpec) and pick how to read the reply.
import type { z } from 'zod';

import type { RetryOptions, RetryPolicy } from '../retry.ts';
import type { Profile } from '../schemas/bff.ts';
import type { PageQuery } from '../schemas/common.ts';
import { ApiError, apiErrorFromResponse } from '../errors.ts';
import { parseOptionalResponse, parseResponse } from '../parse-response.ts';
import { resolveRetryPolicy, withRetry } from '../retry.ts';

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  /** Base URL including the version segment: `http://127.0.0.1:4010/v1` (server) or `/api/v1` (browser via the BFF). */
  baseUrl: string;
  /**
   * What the server is (default `extended`). `hosted`: every request stays inside the published
   * contract: no `sort`, no paging on related items, comments as `text/plain`, filters rewritten
   * into the published RSQL dialect, no element lists, and the extensions (`/definitions`, `/me`)
   * refuse to run. Replies are parsed with the same tolerant schemas in both profiles.
   */
  profile?: Profile;
  /** Resolves the bearer token for each request (BFF/server use). The browser passes none: the BFF adds it. */
  getToken?: () => Promise<string | undefined>;
  /** The fetch to use (defaults to the global one, looked up at call time so test interceptors apply). */
  fetch?: typeof fetch;
  /** Headers added to every request, e.g. `{ 'X-CSRF': '1' }` from the browser. */
  headers?: Record<string, string>;
  /** Retry policy for idempotent requests; `false` turns retries off. */
  retry?: RetryOptions | false;
  /**
   * Called on every 401 before the error is thrown (e.g. send the browser to sign-in, or drop a
   * cached token). Resolving `true` replays the request once, calling `getToken` again.
   */
  onUnauthorized?: (error: ApiError) => boolean | void | Promise<boolean | void>;
}

/** Per-call options every method takes. */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Options of a call that changes a record: where in the console it was made (`editor`,
 * `triage`, `bulk-run:<id>`, ...), sent as `X-Change-Source` for the BFF's record history, which
 * never passes it on to the API (ADR 0024).
 */
export interface WriteOptions extends CallOptions {
  source?: string;
}

/** Cursor paging plus abort signal. */
export type PageOptions = PageQuery & CallOptions;

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
type Query = Record<string, string | number | undefined>;

/** One request, described as data; the transport's `send` does the rest. */
export interface RequestSpec extends WriteOptions {
  method: Method;
  /** Already-encoded path below the base URL (use {@link path}). */
  path: string;
  query?: Query;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Replaces the fetch call, for uploads (multipart streaming or XHR). */
  transport?: (url: string, headers: Record<string, string>) => Promise<Response>;
}

/**
 * Builds a path from a template, percent-encoding every interpolated segment so ids such as
 * `SUP-42`, aliases and user input can never change the path's structure.
 *
 * @example
 * path`/apps/${alias}/${id}/comment`; // '/apps/support%20desk/SUP-42/comment'
 */
export function path(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce(
    (out, part, i) =>
      out + part + (i < segments.length ? encodeURIComponent(segments[i] ?? '') : ''),
    '',
  );
}

/**
 * Serializes query parameters, skipping undefined ones.
 *
 * @example
 * queryString({ filter: 'Status==Open', first: 50, after: undefined }); // 'filter=Status%3D%3DOpen&first=50'
 */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  return params.toString();
}

/**
 * The cursor parameters of a paged request.
 *
 * @example
 * pageQuery({ first: 50 }); // { first: 50, after: undefined, last: undefined, before: undefined }
 */
export function pageQuery(options: PageOptions | undefined): Query {
  return {
    first: options?.first,
    after: options?.after,
    last: options?.last,
    before: options?.before,
  };
}

/**
 * The error for a call the hosted profile cannot make: the published contract has no such
 * operation. Callers check capabilities first; this is the guard that keeps a slip off the wire.
 *
 * @example
 * if (hosted) throw notInContract('GET /me');
 */
export function notInContract(what: string): ApiError {
  return new ApiError({
    status: 0,
    code: 'not_in_contract',
    title: 'Not available from this service',
    detail: `${what} is not part of the hosted API's published contract`,
  });
}

/**
 * The request core of a client: one `send` and the ways of reading its reply. Every reply is parsed
 * with the zod contract; every failure is an {@link ApiError}. Idempotent requests are retried on
 * 429/502/503/504 unless `retry` is `false`.
 *
 * @example
 * const t = createTransport({ baseUrl: 'http://127.0.0.1:4010/v1', getToken });
 * const user = await t.json({ method: 'GET', path: path`/users/${id}` }, UserSchema);
 */
export function createTransport(options: ApiClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const profile: Profile = options.profile ?? 'extended';
  const policy: RetryPolicy | false =
    options.retry === false ? false : resolveRetryPolicy(options.retry);
  const doFetch: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);

  const url = (spec: Pick<RequestSpec, 'path' | 'query'>) => {
    const qs = queryString(spec.query);
    return `${baseUrl}${spec.path}${qs ? `?${qs}` : ''}`;
  };

  async function headersFor(spec: RequestSpec): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      // Exactly `application/json`: the comment endpoint picks its JSON reply by this value, and
      // errors arrive as problem+json whatever Accept says.
      Accept: 'application/json',
      ...options.headers,
      ...spec.headers,
    };
    if (spec.source !== undefined) headers['X-Change-Source'] = spec.source;
    if (spec.json !== undefined) headers['Content-Type'] = 'application/json';
    else if (spec.text !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
    const token = await options.getToken?.();
    if (token) headers['Authorization'] = `Bearer ${token}`;
    return headers;
  }

  /** The single request path: headers, token, retries, error mapping, 401 hook. */
  async function send(spec: RequestSpec, replayed = false): Promise<Response> {
    const target = url(spec);
    const body = spec.json !== undefined ? JSON.stringify(spec.json) : spec.text;
    const attempt = async () => {
      const headers = await headersFor(spec);
      if (spec.transport) return spec.transport(target, headers);
      return doFetch(target, { method: spec.method, headers, body, signal: spec.signal });
    };
    // Throws ApiError(0, network_error) once retries are spent; an abort's error passes through as is.
    const response = await withRetry(spec.method, attempt, policy, spec.signal);
    if (response.ok) return response;
    const error = await apiErrorFromResponse(response);
    if (response.status === 401 && options.onUnauthorized) {
      const replay = await options.onUnauthorized(error);
      if (replay === true && !replayed) return send(spec, true);
    }
    throw error;
  }

  const label = (spec: RequestSpec) => `${spec.method} ${spec.path}`;

  async function json<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    return parseResponse(await send(spec), schema, label(spec));
  }

  /** A 2xx whose body may be empty (the published upload answers 202 with none): undefined then. */
  async function optionalJson<S extends z.ZodType>(
    spec: RequestSpec,
    schema: S,
  ): Promise<z.output<S> | undefined> {
    return parseOptionalResponse(await send(spec), schema, label(spec));
  }

  /** For answers whose body carries nothing we use (201/200 acknowledgements). */
  async function empty(spec: RequestSpec): Promise<void> {
    const response = await send(spec);
    await response.arrayBuffer().catch(() => undefined);
  }

  return {
    profile,
    hosted: profile === 'hosted',
    fetch: doFetch,
    url,
    send,
    label,
    json,
    optionalJson,
    empty,
  };
}

/** The request core {@link createTransport} returns. */
export type Transport = ReturnType<typeof createTransport>;
