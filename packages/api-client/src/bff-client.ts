// The typed client of the BFF's own routes (`/bff/*`): sign-in and the session, the definitions,
// saved views and the Workspace setup page's description. It goes through the API client's request
// core (client/transport.ts), so replies are parsed with the shared schemas and every failure is the
// same ApiError the console already narrows.
import type { CallOptions } from './client/transport.ts';
import type {
  BulkUndoResult,
  CreateBulkRunInput,
  ListBulkRunsQuery,
} from './schemas/bff-bulk-runs.ts';
import type { PresenceInput } from './schemas/bff-events.ts';
import type {
  CreateViewInput,
  ListViewsQuery,
  UpdateViewInput,
  ViewSharesInput,
} from './schemas/bff-saved-views.ts';
import type { LoginRequest, SampleInput } from './schemas/bff.ts';
import type { RecordType } from './schemas/common.ts';
import type { Definition } from './schemas/records.ts';
import { createTransport, path } from './client/transport.ts';
import { BulkRunListSchema, BulkRunSchema, BulkRunSummarySchema } from './schemas/bff-bulk-runs.ts';
import {
  SavedViewListSchema,
  SavedViewSchema,
  SharedViewListSchema,
} from './schemas/bff-saved-views.ts';
import {
  BffConfigSchema,
  LoginResultSchema,
  SampleResultSchema,
  SessionSchema,
  WorkspaceEntrySchema,
  WorkspaceSchema,
} from './schemas/bff.ts';
import { DefinitionListSchema } from './schemas/records.ts';

/** Options of {@link createBffClient}. */
export interface BffClientOptions {
  /** Origin of the BFF; empty (the default) in the browser, where the console and `/bff` share one. */
  baseUrl?: string;
  /** The fetch to use (defaults to the global one, looked up at call time so test interceptors apply). */
  fetch?: typeof fetch;
}

/**
 * Creates the client of the BFF's `/bff/*` routes. Every request carries `X-CSRF: 1` (the BFF
 * refuses state-changing requests without it); the session cookie goes along as fetch sends it
 * same-origin. Nothing is retried: sign-in and writes are not idempotent, and reads are cheap to
 * ask again.
 *
 * @example
 * const bff = createBffClient();
 * const session = await bff.session();
 * const { items } = await bff.savedViews.list();
 */
export function createBffClient(options: BffClientOptions = {}) {
  const { json, empty } = createTransport({
    baseUrl: options.baseUrl ?? '',
    fetch: options.fetch,
    retry: false,
    headers: { 'X-CSRF': '1' },
  });
  const view = (id: string) => path`/bff/views/${id}`;
  const definitionPath = (recordType: RecordType, alias: string) =>
    path`/bff/workspace/definitions/${recordType}/${alias}`;

  return {
    /** `GET /bff/config`: the regions offered at sign-in (no session needed). */
    config: (opts?: CallOptions) =>
      json({ method: 'GET', path: '/bff/config', signal: opts?.signal }, BffConfigSchema),
    /** `GET /bff/session`: who is signed in, and what the region can do; ApiError 401 when nobody. */
    session: (opts?: CallOptions) =>
      json({ method: 'GET', path: '/bff/session', signal: opts?.signal }, SessionSchema),
    /**
     * `POST /bff/login`: checks the credentials with the API and starts a session cookie. ApiError
     * 400 (a field, named in `errors`), 401 (refused), 429 (too many attempts, with `retryAfter`).
     */
    login: (input: LoginRequest, opts?: CallOptions) =>
      json(
        { method: 'POST', path: '/bff/login', json: input, signal: opts?.signal },
        LoginResultSchema,
      ),
    /** `POST /bff/logout` (204): ends the session, if any. */
    logout: (opts?: CallOptions) =>
      empty({ method: 'POST', path: '/bff/logout', signal: opts?.signal }),
    /** `GET /bff/definitions`: the session's record definitions, whichever the upstream is. */
    definitions: (opts?: CallOptions) =>
      json({ method: 'GET', path: '/bff/definitions', signal: opts?.signal }, DefinitionListSchema),

    savedViews: {
      /** `GET /bff/views`: every view of the user, or one definition's (give both or neither). */
      list: (query?: ListViewsQuery, opts?: CallOptions) =>
        json(
          { method: 'GET', path: '/bff/views', query, signal: opts?.signal },
          SavedViewListSchema,
        ),
      /** `GET /bff/views/{id}`. */
      get: (id: string, opts?: CallOptions) =>
        json({ method: 'GET', path: view(id), signal: opts?.signal }, SavedViewSchema),
      /** `POST /bff/views` -> 201: 409 when the name is taken for this definition, 400 for a bad filter. */
      create: (input: CreateViewInput, opts?: CallOptions) =>
        json(
          { method: 'POST', path: '/bff/views', json: input, signal: opts?.signal },
          SavedViewSchema,
        ),
      /** `PUT /bff/views/{id}`: renames a view or replaces what it stores. */
      update: (id: string, patch: UpdateViewInput, opts?: CallOptions) =>
        json({ method: 'PUT', path: view(id), json: patch, signal: opts?.signal }, SavedViewSchema),
      /** `DELETE /bff/views/{id}` (204). */
      delete: (id: string, opts?: CallOptions) =>
        empty({ method: 'DELETE', path: view(id), signal: opts?.signal }),
      /** Makes a view its definition's default (`PUT .../default`), or stops it being one (`DELETE`). */
      setDefault: (id: string, isDefault: boolean, opts?: CallOptions) =>
        json(
          {
            method: isDefault ? 'PUT' : 'DELETE',
            path: `${view(id)}/default`,
            signal: opts?.signal,
          },
          SavedViewSchema,
        ),
      /** `GET /bff/views/shared`: other people's views shared with the session (read-only). */
      shared: (query?: ListViewsQuery, opts?: CallOptions) =>
        json(
          { method: 'GET', path: '/bff/views/shared', query, signal: opts?.signal },
          SharedViewListSchema,
        ),
      /** `PUT /bff/views/{id}/shares`: shares an own view with everyone in the region and/or groups. */
      share: (id: string, input: ViewSharesInput, opts?: CallOptions) =>
        json(
          { method: 'PUT', path: `${view(id)}/shares`, json: input, signal: opts?.signal },
          SavedViewSchema,
        ),
      /** `DELETE /bff/views/{id}/shares`: the view is private again. */
      unshare: (id: string, opts?: CallOptions) =>
        json(
          { method: 'DELETE', path: `${view(id)}/shares`, signal: opts?.signal },
          SavedViewSchema,
        ),
    },

    bulkRuns: {
      /** `GET /bff/bulk-runs`: the user's runs of the last 7 days (one definition's, or all), newest first. */
      list: (query?: ListBulkRunsQuery, opts?: CallOptions) =>
        json(
          { method: 'GET', path: '/bff/bulk-runs', query, signal: opts?.signal },
          BulkRunListSchema,
        ),
      /** `GET /bff/bulk-runs/{id}`: with every record's previous values; 404 once expired. */
      get: (id: string, opts?: CallOptions) =>
        json(
          { method: 'GET', path: path`/bff/bulk-runs/${id}`, signal: opts?.signal },
          BulkRunSchema,
        ),
      /** `POST /bff/bulk-runs` -> 201: keep a run's previous values before it writes. */
      create: (input: CreateBulkRunInput, opts?: CallOptions) =>
        json(
          { method: 'POST', path: '/bff/bulk-runs', json: input, signal: opts?.signal },
          BulkRunSummarySchema,
        ),
      /** `PUT /bff/bulk-runs/{id}/undo`: records how an undo of the run went. */
      recordUndo: (id: string, result: BulkUndoResult, opts?: CallOptions) =>
        json(
          {
            method: 'PUT',
            path: path`/bff/bulk-runs/${id}/undo`,
            json: result,
            signal: opts?.signal,
          },
          BulkRunSummarySchema,
        ),
    },

    events: {
      /**
       * `PUT /bff/presence` (204): what one of the session's event streams (its tab) has open.
       * The stream itself (`GET /bff/events`) is read with an EventSource.
       */
      setPresence: (input: PresenceInput, opts?: CallOptions) =>
        empty({ method: 'PUT', path: '/bff/presence', json: input, signal: opts?.signal }),
    },

    workspace: {
      /** `GET /bff/workspace` (hosted regions; 409 otherwise): the description as the setup page edits it. */
      get: (opts?: CallOptions) =>
        json({ method: 'GET', path: '/bff/workspace', signal: opts?.signal }, WorkspaceSchema),
      /** `POST /bff/workspace/sample`: a definition proposed from some records of the alias. */
      sample: (input: SampleInput, opts?: CallOptions) =>
        json(
          { method: 'POST', path: '/bff/workspace/sample', json: input, signal: opts?.signal },
          SampleResultSchema,
        ),
      /** `PUT /bff/workspace/definitions/{recordType}/{alias}`: adds or replaces a stored definition. */
      saveDefinition: (definition: Definition, opts?: CallOptions) =>
        json(
          {
            method: 'PUT',
            path: definitionPath(definition.recordType, definition.alias),
            json: definition,
            signal: opts?.signal,
          },
          WorkspaceEntrySchema,
        ),
      /** `DELETE /bff/workspace/definitions/{recordType}/{alias}` (204); any 2xx is success. */
      removeDefinition: (recordType: RecordType, alias: string, opts?: CallOptions) =>
        empty({ method: 'DELETE', path: definitionPath(recordType, alias), signal: opts?.signal }),
    },
  };
}

/** The client {@link createBffClient} returns. */
export type BffClient = ReturnType<typeof createBffClient>;
