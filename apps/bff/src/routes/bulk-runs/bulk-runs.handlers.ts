// The bulk runs' handlers: validate, apply the caps, and answer; every refusal is a thrown problem
// the app's onError renders. The console does the record writes (through the proxy, with the
// user's own token and the API's checks); the BFF only keeps what an undo needs.
import type { Context } from 'hono';

import type { BulkRunList } from '@wsc/api-client';
import {
  BulkUndoResultSchema,
  CreateBulkRunSchema,
  ListBulkRunsQuerySchema,
} from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Visibility } from '../../lib/visible-definitions.ts';
import type { BulkRunsStore, RunOwner } from './bulk-runs.store.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { MAX_BULK_RUN_BYTES, toRun, toSummary } from './bulk-runs.store.ts';

const noStore = { 'cache-control': 'no-store' };

function validationProblem(issues: Parameters<typeof fieldProblems>[0], what: string) {
  return new ProblemException({
    status: 400,
    code: 'validation',
    title: 'Bad Request',
    detail: `The ${what} has problems`,
    errors: fieldProblems(issues),
  });
}

const notFound = () =>
  new ProblemException({
    status: 404,
    code: 'not_found',
    title: 'Not Found',
    detail: 'No bulk run with this id (runs are kept 7 days)',
  });

function ownerOf(c: Context<AppEnv>): RunOwner {
  const session: SessionRecord | undefined = c.var.session;
  if (!session) throw new Error('requireAuth let a request without a session through');
  // The API's user id (extended) or the id derived from region and client id (hosted).
  return { userId: session.ownerId, region: session.region };
}

/**
 * The handlers of `/bff/bulk-runs` (the router in bulk-runs.index.ts mounts them).
 *
 * @example
 * router.get('/bulk-runs', bulkRunsHandlers({ runs, clock, api, visibility }).list);
 */
export function bulkRunsHandlers(deps: {
  runs: BulkRunsStore;
  clock: Clock;
  api: SessionApi;
  /** A run is of a definition the session may see (ADR 0027): nobody keeps undo data of others'. */
  visibility: Visibility;
}) {
  const { runs, clock, api, visibility } = deps;

  /** 422 naming `alias` unless the session may see the definition now. */
  async function checkDefinition(c: Context<AppEnv>, recordType: string, alias: string) {
    const session = c.var.session;
    if (!session) throw new Error('requireAuth let a request without a session through');
    let sees: boolean;
    try {
      sees = await visibility.sees(session, recordType, alias);
    } catch (error) {
      throw await api.failure(error, session);
    }
    if (!sees) {
      throw new ProblemException({
        status: 422,
        code: 'unknown_definition',
        title: 'Unprocessable Content',
        detail: `You have no ${recordType} definition with alias "${alias}"`,
        errors: [{ field: 'alias', message: `No ${recordType} definition "${alias}"` }],
      });
    }
  }

  return {
    list: async (c: Context<AppEnv>) => {
      const owner = ownerOf(c);
      const query = ListBulkRunsQuerySchema.safeParse(c.req.query());
      if (!query.success) throw validationProblem(query.error.issues, 'query');
      const { recordType, alias } = query.data;
      const rows = await runs.list(
        owner,
        clock.now(),
        recordType && alias ? { recordType, alias } : undefined,
      );
      const reply: BulkRunList = { items: rows.map(toSummary) };
      return c.json(reply, 200, noStore);
    },

    create: async (c: Context<AppEnv>) => {
      const owner = ownerOf(c);
      const parsed = CreateBulkRunSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) throw validationProblem(parsed.error.issues, 'bulk run');
      const input = parsed.data;
      await checkDefinition(c, input.recordType, input.alias);
      const changes = JSON.stringify(input.changes);
      const records = JSON.stringify(input.records);
      // The body limit bounds the request; this bounds what is kept (the JSON as stored).
      if (Buffer.byteLength(changes) + Buffer.byteLength(records) > MAX_BULK_RUN_BYTES) {
        throw new ProblemException({
          status: 413,
          code: 'bulk_run_too_large',
          title: 'Content Too Large',
          detail: `A bulk run keeps at most ${MAX_BULK_RUN_BYTES} bytes of previous values`,
          errors: [{ field: 'records', message: 'Too many or too long values to keep for undo' }],
        });
      }
      const row = await runs.create(
        owner,
        {
          recordType: input.recordType,
          alias: input.alias,
          changes,
          records,
          count: input.records.length,
        },
        clock.now(),
      );
      return c.json(toSummary(row), 201, { ...noStore, location: `/bff/bulk-runs/${row.id}` });
    },

    get: async (c: Context<AppEnv>) => {
      const row = await runs.findOwned(ownerOf(c), c.req.param('id') ?? '', clock.now());
      if (!row) throw notFound();
      return c.json(toRun(row), 200, noStore);
    },

    recordUndo: async (c: Context<AppEnv>) => {
      const row = await runs.findOwned(ownerOf(c), c.req.param('id') ?? '', clock.now());
      if (!row) throw notFound();
      const parsed = BulkUndoResultSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) throw validationProblem(parsed.error.issues, 'undo result');
      const result = parsed.data;
      const total = result.restored + result.conflicts + result.skipped + result.failed;
      if (total > Number(row.record_count)) {
        throw new ProblemException({
          status: 422,
          code: 'validation',
          title: 'Unprocessable Content',
          detail: `The run has ${Number(row.record_count)} records; the result counts ${total}`,
          errors: [{ field: 'restored', message: 'More outcomes than records in the run' }],
        });
      }
      return c.json(toSummary(await runs.recordUndo(row.id, result, clock.now())), 200, noStore);
    },
  };
}
