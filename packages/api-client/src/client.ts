import type { z } from 'zod';

import type { RetryOptions, RetryPolicy } from './retry.ts';
import type { Comment } from './schemas/activity.ts';
import type { Attachment, UrlLink } from './schemas/attachments.ts';
import type { Profile } from './schemas/bff.ts';
import type { PageQuery, RecordType } from './schemas/common.ts';
import type { RecordData, RecordInput } from './schemas/records.ts';
import type { CreateUserInput } from './schemas/users.ts';
import type { UploadProgress, UploadSource } from './upload.ts';
import { ApiError, apiErrorFromResponse } from './errors.ts';
import { filterForProfile } from './filter.ts';
import { parseOptionalResponse, parseResponse } from './parse-response.ts';
import { resolveRetryPolicy, withRetry } from './retry.ts';
import {
  CommentPagedListSchema,
  CommentSchema,
  WatcherPagedListSchema,
} from './schemas/activity.ts';
import { AttachmentListSchema, AttachmentSchema, UrlLinkSchema } from './schemas/attachments.ts';
import { GroupPagedListSchema, GroupSchema } from './schemas/groups.ts';
import {
  AspectSchema,
  DefinitionListSchema,
  RecordPagedListSchema,
  RecordSchema,
  RelatedPagedListSchema,
} from './schemas/records.ts';
import { MeSchema, UserPagedListSchema, UserSchema } from './schemas/users.ts';
import { assertUploadSize, sendUpload, uploadSize } from './upload.ts';

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

/** Cursor paging plus abort signal. */
export type PageOptions = PageQuery & CallOptions;

/** Record search: paging, RSQL `filter` and `sort` (`-Created At,Title`; extended profile only). */
export type SearchOptions = PageOptions & { filter?: string; sort?: string };

/** A record write's answer: the record as the server sent it (possibly without `id`) and its ETag. */
export interface RecordReply {
  record: RecordData;
  etag: string | undefined;
}

/** `addComment`'s answer: the new comment's id, and the comment itself where the server sent it. */
export interface AddedComment {
  id: string;
  comment?: Comment;
}

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
 * The error for a call the hosted profile cannot make: the published contract has no such
 * operation. Callers check capabilities first; this is the guard that keeps a slip off the wire.
 */
function notInContract(what: string): ApiError {
  return new ApiError({
    status: 0,
    code: 'not_in_contract',
    title: 'Not available from this service',
    detail: `${what} is not part of the hosted API's published contract`,
  });
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
  const profile: Profile = options.profile ?? 'extended';
  const hosted = profile === 'hosted';
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

  /** A record and its ETag (our API; the hosted one sends none). Any 2xx body, even none, is fine. */
  async function recordReply(spec: RequestSpec): Promise<RecordReply> {
    const response = await send(spec);
    const etag = response.headers.get('etag') ?? undefined;
    const record = await parseOptionalResponse(response, RecordSchema, label(spec));
    return { record: record ?? {}, etag };
  }

  const rec = (rt: RecordType, alias: string, id: string) => path`/${rt}/${alias}/${id}`;
  const att = (rt: RecordType, alias: string, id: string, attachmentId: string) =>
    `${rec(rt, alias, id)}${path`/attachments/${attachmentId}`}`;

  return {
    // ---- records -----------------------------------------------------------------------------
    /**
     * `GET /{recordType}/{alias}`: RSQL-filtered, cursor-paged records (`sort` in the extended
     * profile only). Hosted: the filter is rewritten into the published dialect, and element types
     * cannot be listed (that path is getElement there).
     */
    searchRecords: async (rt: RecordType, alias: string, opts?: SearchOptions) => {
      if (hosted && opts?.sort) throw notInContract('Sorting records (`sort`)');
      if (hosted && rt === 'elements') throw notInContract('Listing element records');
      return json(
        {
          method: 'GET',
          path: path`/${rt}/${alias}`,
          query: {
            filter: filterForProfile(opts?.filter, profile),
            sort: opts?.sort,
            ...pageQuery(opts),
          },
          signal: opts?.signal,
        },
        RecordPagedListSchema,
      );
    },
    /** `GET /{recordType}/{alias}/{id}`: the record and its `ETag` where the server sends one. */
    getRecord: (rt: RecordType, alias: string, id: string, opts?: CallOptions) =>
      recordReply({ method: 'GET', path: rec(rt, alias, id), signal: opts?.signal }),
    /** `POST /{recordType}/{alias}`: creates a record -> 201 and the record (maybe without `id`). */
    createRecord: async (
      rt: RecordType,
      alias: string,
      fields: RecordInput,
      opts?: CallOptions,
    ): Promise<RecordData> =>
      (
        await recordReply({
          method: 'POST',
          path: path`/${rt}/${alias}`,
          json: fields,
          signal: opts?.signal,
        })
      ).record,
    /** `PUT /{recordType}/{alias}/{id}`: merges fields; a stale `ifMatch` -> ApiError 412. */
    updateRecord: (
      rt: RecordType,
      alias: string,
      id: string,
      fields: RecordInput,
      opts?: CallOptions & { ifMatch?: string },
    ) =>
      recordReply({
        method: 'PUT',
        path: rec(rt, alias, id),
        json: fields,
        headers: opts?.ifMatch ? { 'If-Match': opts.ifMatch } : undefined,
        signal: opts?.signal,
      }),
    /** `GET /elements/{alias}` (published getElement): an element definition's name and handle. */
    getElement: (alias: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/elements/${alias}`, signal: opts?.signal }, AspectSchema),

    // ---- related items -----------------------------------------------------------------------
    /**
     * `GET .../related-items`: related records (symmetric relation). Paging parameters are sent to
     * extended servers only: the published operation declares none.
     */
    listRelated: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/related-items`,
          query: hosted ? undefined : pageQuery(page),
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
     * `POST .../attachments` multipart (`file`, `description`) -> 202, with the Attachment where the
     * server sends one (ours does; the published reply has no body: `undefined` then). Files over
     * 250 MiB fail with ApiError 413 `file_too_large` before any request. Progress via `onProgress`.
     */
    uploadAttachment: async (
      rt: RecordType,
      alias: string,
      id: string,
      file: UploadSource,
      opts?: UploadOptions,
    ): Promise<Attachment | undefined> => {
      assertUploadSize(await uploadSize(file));
      return optionalJson(
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
    /** `POST .../attachments/url-links {url, description?}` -> 201 echo (when a body comes). */
    addUrlLink: (
      rt: RecordType,
      alias: string,
      id: string,
      link: { url: string; description?: string },
      opts?: CallOptions,
    ): Promise<UrlLink | undefined> =>
      optionalJson(
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
    /**
     * `POST .../comment`. Extended: JSON `{contents}` with `Accept: application/json` -> 201 Comment
     * (an extension). Hosted: the published form, a `text/plain` body -> 201 with the new id as text.
     */
    addComment: async (
      rt: RecordType,
      alias: string,
      id: string,
      text: string,
      opts?: CallOptions,
    ): Promise<AddedComment> => {
      if (!hosted) {
        const comment = await json(
          {
            method: 'POST',
            path: `${rec(rt, alias, id)}/comment`,
            json: { contents: text },
            signal: opts?.signal,
          },
          CommentSchema,
        );
        return { id: comment.id, comment };
      }
      const response = await send({
        method: 'POST',
        path: `${rec(rt, alias, id)}/comment`,
        text,
        headers: { Accept: 'text/plain' },
        signal: opts?.signal,
      });
      return { id: (await response.text()).trim() };
    },

    // ---- users -------------------------------------------------------------------------------
    /** `GET /users`: paged users, optional RSQL `filter` (hosted: in the published dialect). */
    listUsers: (opts?: UserListOptions) =>
      json(
        {
          method: 'GET',
          path: '/users',
          query: { filter: filterForProfile(opts?.filter, profile), ...pageQuery(opts) },
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

    // ---- extensions (extended profile only) ---------------------------------------------------
    /** `GET /definitions` (extension): the record definitions the caller may see. */
    listDefinitions: async (opts?: CallOptions) => {
      if (hosted) throw notInContract('GET /definitions');
      return json(
        { method: 'GET', path: '/definitions', signal: opts?.signal },
        DefinitionListSchema,
      );
    },
    /** `GET /me` (extension): the credential owner and their role. */
    me: async (opts?: CallOptions) => {
      if (hosted) throw notInContract('GET /me');
      return json({ method: 'GET', path: '/me', signal: opts?.signal }, MeSchema);
    },
    /** The profile this client was made for. */
    profile,
  };
}

/** The client {@link createApiClient} returns. */
export type ApiClient = ReturnType<typeof createApiClient>;
