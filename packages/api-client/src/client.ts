import type { z } from 'zod';

import type { ApiError } from './errors.ts';
import type { RetryOptions, RetryPolicy } from './retry.ts';
import type { PageQuery, RecordType } from './schemas/common.ts';
import type { RecordInput } from './schemas/records.ts';
import type { CreateUserInput } from './schemas/users.ts';
import type { UploadProgress, UploadSource } from './upload.ts';
import { apiErrorFromResponse } from './errors.ts';
import { parseResponse } from './parse-response.ts';
import { resolveRetryPolicy, withRetry } from './retry.ts';
import {
  CommentPagedListSchema,
  CommentSchema,
  WatcherPagedListSchema,
} from './schemas/activity.ts';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from './schemas/attachments.ts';
import { GroupPagedListSchema, GroupSchema } from './schemas/groups.ts';
import {
  DefinitionListSchema,
  RecordPagedListSchema,
  RelatedPagedListSchema,
  StoredRecordSchema,
} from './schemas/records.ts';
import { MeSchema, UserPagedListSchema, UserSchema } from './schemas/users.ts';
import { assertUploadSize, sendUpload, uploadSize } from './upload.ts';

/** Options of {@link createApiClient}. */
export interface ApiClientOptions {
  /** Base URL including the version segment: `http://127.0.0.1:4010/v1` (server) or `/api/v1` (browser via the BFF). */
  baseUrl: string;
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

/** Cursor paging plus abort signal. */
export type PageOptions = PageQuery & CallOptions;

/** Record search: paging, RSQL `filter` and `sort` (`-Created At,Title`). */
export type SearchOptions = PageOptions & { filter?: string; sort?: string };

/** User list: paging and an RSQL `filter` over the user fields. */
export type UserListOptions = PageOptions & { filter?: string };

export interface UploadOptions extends CallOptions {
  description?: string;
  onProgress?: (progress: UploadProgress) => void;
}

export interface DownloadOptions extends CallOptions {
  /** A `Range` header value, e.g. `bytes=0-1023`: the answer is then 206. */
  range?: string;
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
type Query = Record<string, string | number | undefined>;

/** One request, described as data; {@link createApiClient}'s `send` does the rest. */
interface RequestSpec extends CallOptions {
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

function pageQuery(options: PageOptions | undefined): Query {
  return {
    first: options?.first,
    after: options?.after,
    last: options?.last,
    before: options?.before,
  };
}

/**
 * Creates the typed client of the Records and Workspace API. Every reply is parsed with the zod
 * contract; every failure is an {@link ApiError}. Idempotent requests are retried on 429/502/503/504.
 *
 * @example
 * // Server side (BFF, tests, benches): talks to the API with a bearer token.
 * const api = createApiClient({ baseUrl: 'http://127.0.0.1:4010/v1', getToken: async () => token });
 * const page = await api.searchRecords('apps', 'support', { filter: 'Status==Open', first: 50 });
 *
 * @example
 * // Browser: through the BFF proxy, which holds the token; the CSRF header is required.
 * const api = createApiClient({ baseUrl: '/api/v1', headers: { 'X-CSRF': '1' } });
 */
export function createApiClient(options: ApiClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
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

  /** For answers whose body carries nothing we use (201/200 acknowledgements). */
  async function empty(spec: RequestSpec): Promise<void> {
    const response = await send(spec);
    await response.arrayBuffer().catch(() => undefined);
  }

  async function withEtag<S extends z.ZodType>(spec: RequestSpec, schema: S) {
    const response = await send(spec);
    const etag = response.headers.get('etag') ?? undefined;
    return { record: await parseResponse(response, schema, label(spec)), etag };
  }

  const rec = (rt: RecordType, alias: string, id: string) => path`/${rt}/${alias}/${id}`;
  const att = (rt: RecordType, alias: string, id: string, attachmentId: string) =>
    `${rec(rt, alias, id)}${path`/attachments/${attachmentId}`}`;

  return {
    // ---- records -----------------------------------------------------------------------------
    /** `GET /{recordType}/{alias}`: RSQL-filtered, sorted, cursor-paged records. */
    searchRecords: (rt: RecordType, alias: string, opts?: SearchOptions) =>
      json(
        {
          method: 'GET',
          path: path`/${rt}/${alias}`,
          query: { filter: opts?.filter, sort: opts?.sort, ...pageQuery(opts) },
          signal: opts?.signal,
        },
        RecordPagedListSchema,
      ),
    /** `GET /{recordType}/{alias}/{id}`: the record and its `ETag` (for `If-Match` on update). */
    getRecord: (rt: RecordType, alias: string, id: string, opts?: CallOptions) =>
      withEtag(
        { method: 'GET', path: rec(rt, alias, id), signal: opts?.signal },
        StoredRecordSchema,
      ),
    /** `POST /{recordType}/{alias}`: creates a record -> 201 record. */
    createRecord: (rt: RecordType, alias: string, fields: RecordInput, opts?: CallOptions) =>
      json(
        { method: 'POST', path: path`/${rt}/${alias}`, json: fields, signal: opts?.signal },
        StoredRecordSchema,
      ),
    /** `PUT /{recordType}/{alias}/{id}`: merges fields; a stale `ifMatch` -> ApiError 412. */
    updateRecord: (
      rt: RecordType,
      alias: string,
      id: string,
      fields: RecordInput,
      opts?: CallOptions & { ifMatch?: string },
    ) =>
      withEtag(
        {
          method: 'PUT',
          path: rec(rt, alias, id),
          json: fields,
          headers: opts?.ifMatch ? { 'If-Match': opts.ifMatch } : undefined,
          signal: opts?.signal,
        },
        StoredRecordSchema,
      ),

    // ---- related items -----------------------------------------------------------------------
    /** `GET .../related-items`: paged related records (symmetric relation). */
    listRelated: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/related-items`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        RelatedPagedListSchema,
      ),
    /** `POST .../related-items {id, alias?}` -> 201 (relating twice is a no-op). */
    addRelated: (
      rt: RecordType,
      alias: string,
      id: string,
      item: { id: string; alias?: string },
      opts?: CallOptions,
    ) =>
      empty({
        method: 'POST',
        path: `${rec(rt, alias, id)}/related-items`,
        json: item,
        signal: opts?.signal,
      }),
    /** `DELETE .../related-items/{relatedId}` (the related record's id) -> 200. */
    removeRelated: (
      rt: RecordType,
      alias: string,
      id: string,
      relatedId: string,
      opts?: CallOptions,
    ) =>
      empty({
        method: 'DELETE',
        path: `${rec(rt, alias, id)}${path`/related-items/${relatedId}`}`,
        signal: opts?.signal,
      }),

    // ---- attachments -------------------------------------------------------------------------
    /** `GET .../attachments`: a bare array, links included (`mediaType: text/uri-list`). */
    listAttachments: (rt: RecordType, alias: string, id: string, opts?: CallOptions) =>
      json(
        { method: 'GET', path: `${rec(rt, alias, id)}/attachments`, signal: opts?.signal },
        AttachmentListSchema,
      ),
    /** `GET .../attachments/{attachmentId}`: one attachment's metadata. */
    getAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: CallOptions,
    ) =>
      json(
        { method: 'GET', path: att(rt, alias, id, attachmentId), signal: opts?.signal },
        AttachmentSchema,
      ),
    /**
     * `POST .../attachments` multipart (`file`, `description`) -> 202 Attachment. Files over 250 MiB
     * fail with ApiError 413 `file_too_large` before any request. Progress via `onProgress`.
     */
    uploadAttachment: async (
      rt: RecordType,
      alias: string,
      id: string,
      file: UploadSource,
      opts?: UploadOptions,
    ) => {
      assertUploadSize(await uploadSize(file));
      return json(
        {
          method: 'POST',
          path: `${rec(rt, alias, id)}/attachments`,
          signal: opts?.signal,
          transport: (target, headers) =>
            sendUpload({
              url: target,
              headers,
              file,
              description: opts?.description,
              onProgress: opts?.onProgress,
              signal: opts?.signal,
              fetch: doFetch,
            }),
        },
        AttachmentSchema,
      );
    },
    /** `POST .../attachments/url-links {url, description?}` -> 201 echo. */
    addUrlLink: (
      rt: RecordType,
      alias: string,
      id: string,
      link: { url: string; description?: string },
      opts?: CallOptions,
    ) =>
      json(
        {
          method: 'POST',
          path: `${rec(rt, alias, id)}/attachments/url-links`,
          json: link,
          signal: opts?.signal,
        },
        UrlLinkSchema,
      ),
    /** `DELETE .../attachments/{attachmentId}` -> 200. */
    removeAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: CallOptions,
    ) => empty({ method: 'DELETE', path: att(rt, alias, id, attachmentId), signal: opts?.signal }),
    /** The content URL (for `<a href download>` in the browser, where the BFF adds the token). */
    attachmentContentUrl: (rt: RecordType, alias: string, id: string, attachmentId: string) =>
      url({ path: `${att(rt, alias, id, attachmentId)}/content` }),
    /** `GET .../content`: the raw Response (200, or 206 with `range`), body unread, for streaming. */
    downloadAttachment: (
      rt: RecordType,
      alias: string,
      id: string,
      attachmentId: string,
      opts?: DownloadOptions,
    ) =>
      send({
        method: 'GET',
        path: `${att(rt, alias, id, attachmentId)}/content`,
        headers: { Accept: '*/*', ...(opts?.range ? { Range: opts.range } : {}) },
        signal: opts?.signal,
      }),

    // ---- watchers ----------------------------------------------------------------------------
    /** `GET .../watchers`: paged watchers. */
    listWatchers: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/watchers`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        WatcherPagedListSchema,
      ),
    /** `POST .../watchers {users:[email]}` -> 201; unknown or inactive emails -> 422. */
    addWatchers: (
      rt: RecordType,
      alias: string,
      id: string,
      emails: string[],
      opts?: CallOptions,
    ) =>
      empty({
        method: 'POST',
        path: `${rec(rt, alias, id)}/watchers`,
        json: { users: emails },
        signal: opts?.signal,
      }),
    /** `DELETE .../watchers {users:[email]}` (a DELETE with a JSON body) -> 200. */
    removeWatchers: (
      rt: RecordType,
      alias: string,
      id: string,
      emails: string[],
      opts?: CallOptions,
    ) =>
      empty({
        method: 'DELETE',
        path: `${rec(rt, alias, id)}/watchers`,
        json: { users: emails },
        signal: opts?.signal,
      }),

    // ---- comments ----------------------------------------------------------------------------
    /** `GET .../comment`: paged comments, oldest first. */
    listComments: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/comment`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        CommentPagedListSchema,
      ),
    /** `POST .../comment` JSON `{contents}` with `Accept: application/json` -> 201 Comment (extension). */
    addComment: (rt: RecordType, alias: string, id: string, text: string, opts?: CallOptions) =>
      json(
        {
          method: 'POST',
          path: `${rec(rt, alias, id)}/comment`,
          json: { contents: text },
          signal: opts?.signal,
        },
        CommentSchema,
      ),
    /** `POST .../comment` as `text/plain` (the hosted API's form) -> 201 with the new id as text. */
    addCommentText: async (
      rt: RecordType,
      alias: string,
      id: string,
      text: string,
      opts?: CallOptions,
    ) => {
      const response = await send({
        method: 'POST',
        path: `${rec(rt, alias, id)}/comment`,
        text,
        headers: { Accept: 'text/plain' },
        signal: opts?.signal,
      });
      return (await response.text()).trim();
    },

    // ---- users -------------------------------------------------------------------------------
    /** `GET /users`: paged users, optional RSQL `filter`. */
    listUsers: (opts?: UserListOptions) =>
      json(
        {
          method: 'GET',
          path: '/users',
          query: { filter: opts?.filter, ...pageQuery(opts) },
          signal: opts?.signal,
        },
        UserPagedListSchema,
      ),
    /** `POST /users` -> 201 User; a duplicate email -> 422. */
    createUser: (input: CreateUserInput, opts?: CallOptions) =>
      json({ method: 'POST', path: '/users', json: input, signal: opts?.signal }, UserSchema),
    /** `GET /users/{userId}`. */
    getUser: (userId: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/users/${userId}`, signal: opts?.signal }, UserSchema),
    /** `POST /users/{userId}/deactivate` -> 200 User (idempotent). */
    deactivateUser: (userId: string, opts?: CallOptions) =>
      json(
        { method: 'POST', path: path`/users/${userId}/deactivate`, signal: opts?.signal },
        UserSchema,
      ),

    // ---- groups ------------------------------------------------------------------------------
    /** `GET /groups`: paged groups. */
    listGroups: (page?: PageOptions) =>
      json(
        { method: 'GET', path: '/groups', query: pageQuery(page), signal: page?.signal },
        GroupPagedListSchema,
      ),
    /** `GET /groups/{groupId}`. */
    getGroup: (groupId: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/groups/${groupId}`, signal: opts?.signal }, GroupSchema),
    /** `GET /groups/{groupId}/users`: paged members. */
    listGroupMembers: (groupId: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: path`/groups/${groupId}/users`,
          query: pageQuery(page),
          signal: page?.signal,
        },
        UserPagedListSchema,
      ),
    /** `POST /groups/{groupId}/users {userIds}` -> 201; unknown ids -> 422. */
    addGroupMembers: (groupId: string, userIds: string[], opts?: CallOptions) =>
      empty({
        method: 'POST',
        path: path`/groups/${groupId}/users`,
        json: { userIds },
        signal: opts?.signal,
      }),
    /** `DELETE /groups/{groupId}/users {userIds}` -> 200. */
    removeGroupMembers: (groupId: string, userIds: string[], opts?: CallOptions) =>
      empty({
        method: 'DELETE',
        path: path`/groups/${groupId}/users`,
        json: { userIds },
        signal: opts?.signal,
      }),

    // ---- extensions --------------------------------------------------------------------------
    /** `GET /definitions` (extension): the record definitions the caller may see. */
    listDefinitions: (opts?: CallOptions) =>
      json({ method: 'GET', path: '/definitions', signal: opts?.signal }, DefinitionListSchema),
    /** `GET /me` (extension): the credential owner and their role. */
    me: (opts?: CallOptions) =>
      json({ method: 'GET', path: '/me', signal: opts?.signal }, MeSchema),
  };
}

/** The client {@link createApiClient} returns. */
export type ApiClient = ReturnType<typeof createApiClient>;
