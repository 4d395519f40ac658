// The BFF's own interface as an OpenAPI 3.1 document (`GET /bff/openapi.json`), built from the zod
// schemas the routes validate and answer with (packages/api-client `schemas/bff.ts` and
// `schemas/bff-saved-views.ts`, which the console's BFF client parses with too), so the document and the routes cannot drift apart: a test checks that every
// `/bff` route is described and that real answers match their schemas.
import { z } from 'zod';

import {
  BffConfigSchema,
  BulkRunListSchema,
  BulkRunSchema,
  BulkRunSummarySchema,
  BulkUndoResultSchema,
  CreateBulkRunSchema,
  CreateViewSchema,
  LoginResultSchema,
  ProblemSchema,
  SampleInputSchema,
  SampleResultSchema,
  SavedViewListSchema,
  SavedViewSchema,
  SessionSchema,
  SharedViewListSchema,
  UpdateViewSchema,
  ViewSharesInputSchema,
  WorkspaceEntrySchema,
  WorkspaceSchema,
} from '@wsc/api-client';
import { PresenceInputSchema } from '@wsc/api-client/bff-events';
import {
  HistoryActorListSchema,
  HistoryPageSchema,
  HistoryQuerySchema,
  PersonErasedSchema,
  RecordHistoryErasedSchema,
  RecordHistoryQuerySchema,
} from '@wsc/api-client/bff-history';
import { DefinitionListSchema, DefinitionSchema } from '@wsc/api-client/strict';

import { SESSION_COOKIE } from '../../lib/sessions.ts';
import { LoginRequestSchema } from '../auth/login-request.ts';

type Method = 'get' | 'post' | 'put' | 'delete';

type Operation = {
  method: Method;
  /** OpenAPI path, e.g. `/bff/views/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Needs the session cookie (and, for POST/PUT/DELETE, `X-CSRF: 1`). */
  auth: boolean;
  query?: Record<string, { description: string; schema: z.ZodType }>;
  body?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
};

const ReadySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), z.enum(['ok', 'fail'])),
});

/** Query parameters described from a strict zod object's shape. */
function queryOf(
  schema: { shape: Record<string, z.ZodType> },
  descriptions: Record<string, string>,
) {
  const shape = schema.shape;
  return Object.fromEntries(
    Object.entries(descriptions).map(([name, description]) => [
      name,
      { description, schema: shape[name] ?? z.string() },
    ]),
  );
}

/** The administrators' history filters (the list and the CSV export take the same). */
const HISTORY_FILTERS = queryOf(HistoryQuerySchema, {
  user: "An actor id (`actor.id` of an entry): only that person's changes; names never match",
  recordType: 'Only changes to records of this type',
  alias: 'Only changes to records of this definition',
  from: 'ISO 8601: changes at or after',
  to: 'ISO 8601: changes before',
  after: 'The `next` of the previous page',
  first: 'Entries per page (1-200, default 50)',
});

const problem = (description: string) => ({ description, schema: ProblemSchema });
/** The optional `recordType` + `alias` pair that narrows a list to one definition's `what`. */
function definitionQuery(what: 'views' | 'runs') {
  return {
    recordType: { description: `With alias: the ${what} of one definition`, schema: z.string() },
    alias: { description: 'With recordType', schema: z.string() },
  };
}

const UNAUTHENTICATED = problem('No session, or it expired (sign in again)');
const FORBIDDEN = problem('Missing `X-CSRF: 1`, or a foreign Origin');
const NOT_FOUND = problem('No such view of this user');

/** Every `/bff` route. The proxy (`/api/v1/*`) forwards the API's own document (`/v1/openapi.json`). */
export const BFF_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/bff/health',
    summary: 'Liveness: the process answers',
    tag: 'Health',
    auth: false,
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/bff/ready',
    summary: "Readiness: the session store and every region's API answer",
    tag: 'Health',
    auth: false,
    responses: {
      200: { description: 'Ready', schema: ReadySchema },
      503: { description: 'A check failed', schema: ReadySchema },
    },
  },
  {
    method: 'get',
    path: '/bff/config',
    summary: 'What the sign-in form offers: regions, their profile, the upload limit',
    tag: 'Session',
    auth: false,
    responses: { 200: { description: 'The sign-in form', schema: BffConfigSchema } },
  },
  {
    method: 'post',
    path: '/bff/login',
    summary:
      'Sign in with an API client ID and secret; sets the session cookie (the secret stays here)',
    tag: 'Session',
    auth: false,
    body: LoginRequestSchema,
    responses: {
      200: {
        description: 'Signed in; `Set-Cookie` carries the session',
        schema: LoginResultSchema,
      },
      400: problem('A field is missing or malformed (named in `errors`)'),
      401: problem('The client ID and secret were refused'),
      403: FORBIDDEN,
      429: problem('Too many failed sign-ins; `Retry-After` says when to try again'),
      502: problem("The region's API could not be reached"),
    },
  },
  {
    method: 'post',
    path: '/bff/logout',
    summary: 'Sign out: ends the session and clears the cookie',
    tag: 'Session',
    auth: false,
    responses: { 204: { description: 'Signed out (also without a session)' }, 403: FORBIDDEN },
  },
  {
    method: 'get',
    path: '/bff/session',
    summary: 'Who is signed in, the region, when the session ends, and what the region can do',
    tag: 'Session',
    auth: true,
    responses: {
      200: { description: 'The session', schema: SessionSchema },
      401: UNAUTHENTICATED,
    },
  },
  {
    method: 'get',
    path: '/bff/definitions',
    summary:
      "The session's record definitions: the API's (extended) or the workspace description (hosted)",
    tag: 'Definitions',
    auth: true,
    responses: {
      200: { description: 'Definitions', schema: DefinitionListSchema },
      401: UNAUTHENTICATED,
    },
  },
  {
    method: 'get',
    path: '/bff/workspace',
    summary: "The region's workspace description as the setup page edits it",
    tag: 'Workspace setup',
    auth: true,
    responses: {
      200: { description: 'The description', schema: WorkspaceSchema },
      401: UNAUTHENTICATED,
      409: problem('The region is not hosted: its definitions come from the API'),
    },
  },
  {
    method: 'post',
    path: '/bff/workspace/sample',
    summary: "Propose a definition from a sample of an alias's records",
    tag: 'Workspace setup',
    auth: true,
    body: SampleInputSchema,
    responses: {
      200: { description: 'A proposal to correct', schema: SampleResultSchema },
      400: problem('A field is malformed'),
      401: UNAUTHENTICATED,
      403: problem(
        'Not allowed to change the description, no `X-CSRF`, or the credential may not read the alias',
      ),
      404: problem('No records of that alias'),
      409: problem('The region is not hosted: its definitions come from the API'),
    },
  },
  {
    method: 'put',
    path: '/bff/workspace/definitions/{recordType}/{alias}',
    summary: 'Add or replace a definition of the description (store entries only)',
    tag: 'Workspace setup',
    auth: true,
    body: DefinitionSchema,
    responses: {
      200: { description: 'Saved', schema: WorkspaceEntrySchema },
      400: problem('The definition is malformed (fields named)'),
      401: UNAUTHENTICATED,
      403: problem('Not allowed to change the description, or no `X-CSRF`'),
      409: problem("The operator's file defines it, or the region is not hosted"),
      422: problem('The definition has problems, or the region has its most record types'),
    },
  },
  {
    method: 'delete',
    path: '/bff/workspace/definitions/{recordType}/{alias}',
    summary: 'Remove a definition added on the setup page',
    tag: 'Workspace setup',
    auth: true,
    responses: {
      204: { description: 'Removed' },
      401: UNAUTHENTICATED,
      403: problem('Not allowed to change the description, or no `X-CSRF`'),
      404: problem('No such definition in the store'),
      409: problem("The operator's file defines it, or the region is not hosted"),
    },
  },
  {
    method: 'get',
    path: '/bff/views',
    summary: "The user's saved views in this region, of one definition or all",
    tag: 'Saved views',
    auth: true,
    query: definitionQuery('views'),
    responses: {
      200: {
        description: 'At most 500 views',
        schema: SavedViewListSchema,
      },
      400: problem('Only one of recordType and alias'),
      401: UNAUTHENTICATED,
    },
  },
  {
    method: 'post',
    path: '/bff/views',
    summary: 'Save a view (name, filter, sort, columns) of a definition the session can see',
    tag: 'Saved views',
    auth: true,
    body: CreateViewSchema,
    responses: {
      201: { description: 'Saved; `Location` names it', schema: SavedViewSchema },
      400: problem('A field is malformed, or the filter does not parse (with its position)'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      409: problem('A view of that definition already has this name'),
      422: problem('No such definition for this session, or 100 views of it / 500 in all'),
    },
  },
  {
    method: 'get',
    path: '/bff/views/{id}',
    summary: 'One saved view',
    tag: 'Saved views',
    auth: true,
    responses: {
      200: { description: 'The view', schema: SavedViewSchema },
      401: UNAUTHENTICATED,
      404: NOT_FOUND,
    },
  },
  {
    method: 'put',
    path: '/bff/views/{id}',
    summary: "Change a view's name, filter, sort or columns (any of them)",
    tag: 'Saved views',
    auth: true,
    body: UpdateViewSchema,
    responses: {
      200: { description: 'Changed', schema: SavedViewSchema },
      400: problem('A field is malformed'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: problem('Another view of the definition has this name'),
    },
  },
  {
    method: 'delete',
    path: '/bff/views/{id}',
    summary: 'Delete a view',
    tag: 'Saved views',
    auth: true,
    responses: {
      204: { description: 'Deleted' },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  {
    method: 'put',
    path: '/bff/views/{id}/default',
    summary: 'Open this view when entering its definition (one default per definition)',
    tag: 'Saved views',
    auth: true,
    responses: {
      200: { description: 'Now the default', schema: SavedViewSchema },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: problem('Another default was set at the same moment; try again'),
    },
  },
  {
    method: 'delete',
    path: '/bff/views/{id}/default',
    summary: 'Stop opening this view by default',
    tag: 'Saved views',
    auth: true,
    responses: {
      200: { description: 'No longer the default', schema: SavedViewSchema },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/bff/views/shared',
    summary:
      "Other people's views shared with the session (everyone in the region, or a group it is in), read-only",
    tag: 'Saved views',
    auth: true,
    query: definitionQuery('views'),
    responses: {
      200: {
        description: 'At most 500 views, newest first; whether group shares can reach the session',
        schema: SharedViewListSchema,
      },
      400: problem('Only one of recordType and alias'),
      401: UNAUTHENTICATED,
    },
  },
  {
    method: 'put',
    path: '/bff/views/{id}/shares',
    summary:
      'Share an own view with everyone in the region and/or up to 10 groups (replaces the shares)',
    tag: 'Saved views',
    auth: true,
    body: ViewSharesInputSchema,
    responses: {
      200: { description: 'Shared as given', schema: SavedViewSchema },
      400: problem('A field is malformed (a group id twice, or more than 10 groups)'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
      422: problem(
        'A group does not exist for you, group membership cannot be told for this session, or 50 of your views are shared already',
      ),
    },
  },
  {
    method: 'delete',
    path: '/bff/views/{id}/shares',
    summary: 'Make an own view private again',
    tag: 'Saved views',
    auth: true,
    responses: {
      200: { description: 'Private', schema: SavedViewSchema },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/bff/bulk-runs',
    summary: "The user's bulk runs of the last 7 days in this region, newest first",
    tag: 'Bulk runs',
    auth: true,
    query: definitionQuery('runs'),
    responses: {
      200: { description: 'At most 20 runs, without their records', schema: BulkRunListSchema },
      400: problem('Only one of recordType and alias'),
      401: UNAUTHENTICATED,
    },
  },
  {
    method: 'post',
    path: '/bff/bulk-runs',
    summary: "Keep a bulk run's previous values for undo (before it writes)",
    tag: 'Bulk runs',
    auth: true,
    body: CreateBulkRunSchema,
    responses: {
      201: { description: 'Kept 7 days; `Location` names it', schema: BulkRunSummarySchema },
      400: problem('A field is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      413: problem('Over 1 MiB of previous values'),
    },
  },
  {
    method: 'get',
    path: '/bff/bulk-runs/{id}',
    summary: 'One bulk run with every record and its previous values',
    tag: 'Bulk runs',
    auth: true,
    responses: {
      200: { description: 'The run', schema: BulkRunSchema },
      401: UNAUTHENTICATED,
      404: problem('No such run of this user, or older than 7 days'),
    },
  },
  {
    method: 'put',
    path: '/bff/bulk-runs/{id}/undo',
    summary: 'Record how an undo of the run went',
    tag: 'Bulk runs',
    auth: true,
    body: BulkUndoResultSchema,
    responses: {
      200: { description: 'The run with its undo', schema: BulkRunSummarySchema },
      400: problem('A count is malformed'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: problem('No such run of this user, or older than 7 days'),
      422: problem('More outcomes than records in the run'),
    },
  },
  {
    method: 'get',
    path: '/bff/history/{recordType}/{alias}/{id}',
    summary: "One record's changes made through the console, newest first (ADR 0024)",
    tag: 'History',
    auth: true,
    query: queryOf(RecordHistoryQuerySchema, {
      after: 'The `next` of the previous page',
      first: 'Entries per page (1-200, default 50)',
    }),
    responses: {
      200: { description: 'A page of entries', schema: HistoryPageSchema },
      400: problem('A parameter is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      404: problem('No such record, or the user may not read it'),
    },
  },
  {
    method: 'get',
    path: '/bff/history',
    summary: "The region's whole history, filtered, newest first (administrators)",
    tag: 'History',
    auth: true,
    query: HISTORY_FILTERS,
    responses: {
      200: { description: 'A page of entries', schema: HistoryPageSchema },
      400: problem('A parameter is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: problem('Not an administrator'),
    },
  },
  {
    method: 'get',
    path: '/bff/history/export.csv',
    summary: 'The filtered history as CSV, streamed (administrators)',
    tag: 'History',
    auth: true,
    query: HISTORY_FILTERS,
    responses: {
      200: {
        description: 'UTF-8 CSV, times in ISO 8601 UTC',
        schema: z.string(),
        mediaType: 'text/csv',
      },
      400: problem('A parameter is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: problem('Not an administrator'),
    },
  },
  {
    method: 'get',
    path: '/bff/history/actors',
    summary:
      'The people the region’s history names: id (what the `user` filter takes), latest name and identity kind (administrators)',
    tag: 'History',
    auth: true,
    responses: {
      200: { description: 'At most 500 people', schema: HistoryActorListSchema },
      401: UNAUTHENTICATED,
      403: problem('Not an administrator'),
    },
  },
  {
    method: 'delete',
    path: '/bff/history/{recordType}/{alias}/{id}',
    summary: "Erase one record's history in the region (administrators, ADR 0026)",
    tag: 'History',
    auth: true,
    responses: {
      200: { description: 'The entries erased', schema: RecordHistoryErasedSchema },
      400: problem('A path parameter is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: problem('Not an administrator, or no `X-CSRF`'),
    },
  },
  {
    method: 'delete',
    path: '/bff/history/people/{ownerId}',
    summary:
      'Erase everything the BFF keeps about one person in the region: history entries as actor, ' +
      'presence, saved views and their shares, bulk runs, preferences, sessions (administrators, ADR 0026)',
    tag: 'History',
    auth: true,
    responses: {
      200: { description: 'What was erased, per kind', schema: PersonErasedSchema },
      400: problem('The owner id is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: problem('Not an administrator, or no `X-CSRF`'),
    },
  },
  {
    method: 'get',
    path: '/bff/events',
    summary:
      'Server-Sent Events: `hello` (the stream id), `presence` (a snapshot, then deltas) and ' +
      '`record-changed` (ids only), a comment heartbeat every 15 s; ends with the session',
    tag: 'Live events',
    auth: true,
    responses: {
      200: { description: '`text/event-stream`: the events of packages/api-client bff-events.ts' },
      401: UNAUTHENTICATED,
      403: problem('A cross-site request, or a foreign Origin'),
      429: problem('Too many streams of this session or server; `Retry-After` says when'),
    },
  },
  {
    method: 'put',
    path: '/bff/presence',
    summary: "What one of the session's streams (a tab) has open: a record, viewing or editing",
    tag: 'Live events',
    auth: true,
    body: PresenceInputSchema,
    responses: {
      204: { description: 'Set; every stream that may see it hears of it' },
      400: problem('A field is malformed (named in `errors`)'),
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: problem('No live stream of this session has the id, or no such definition'),
      429: problem('Too many presence changes of this stream; `Retry-After` says when'),
    },
  },
  {
    method: 'get',
    path: '/bff/openapi.json',
    summary: 'This document',
    tag: 'Meta',
    auth: false,
    responses: {
      200: { description: 'OpenAPI 3.1', schema: z.looseObject({ openapi: z.string() }) },
    },
  },
];

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/**
 * The OpenAPI 3.1 document of the BFF's `/bff` routes.
 *
 * @example
 * const doc = buildBffOpenApi(); // doc.paths['/bff/session'].get
 */
export function buildBffOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of BFF_OPERATIONS) {
    const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
    const parameters = [
      ...pathParams.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...Object.entries(op.query ?? {}).map(([name, q]) => ({
        name,
        in: 'query',
        required: false,
        description: q.description,
        schema: toSchema(q.schema, 'input'),
      })),
      ...(op.auth && op.method !== 'get'
        ? [{ name: 'X-CSRF', in: 'header', required: true, schema: { const: '1' } }]
        : []),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      const type =
        response.mediaType ??
        (Number(status) >= 400 ? 'application/problem+json' : 'application/json');
      responses[status] = {
        description: response.description,
        ...(response.schema
          ? { content: { [type]: { schema: toSchema(response.schema, 'output') } } }
          : {}),
      };
    }
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      ...(op.auth ? { security: [{ session: [] }] } : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(op.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workspace Console BFF',
      version: '1.0.0',
      description:
        "The console's backend-for-frontend: sign-in, the session, definitions, the workspace description and saved views. `/api/v1/*` is a proxy of the region's Records and Workspace API (its document: `/v1/openapi.json` of that API). Every state-changing request needs `X-CSRF: 1` and a same-origin `Origin`.",
    },
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'Set by POST /bff/login; HttpOnly, Secure, SameSite=Strict',
        },
      },
    },
    paths,
  };
}
