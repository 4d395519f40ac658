// The saved views' handlers: validate, check the filter and the definition, apply the caps, and
// answer; every refusal is a thrown problem the app's onError renders. Rows are read and written
// through the store (saved-views.store.ts).
import type { Context } from 'hono';

import type { Definition, SavedViewList } from '@wsc/api-client';
import { CreateViewSchema, ListViewsQuerySchema, UpdateViewSchema } from '@wsc/api-client';
import { isRsqlError, parse } from '@wsc/rsql';

import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { ProblemInit } from '../../lib/errors.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import type { SavedViewsStore, ViewOwner, ViewRow } from './saved-views.store.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { sessionDefinitions } from '../../lib/session-definitions.ts';
import { unauthenticated } from '../../middlewares/require-auth.ts';
import {
  isUniqueViolation,
  MAX_VIEW_BYTES,
  MAX_VIEWS_PER_DEFINITION,
  MAX_VIEWS_PER_USER,
  toView,
  viewBytes,
} from './saved-views.store.ts';

const noStore = { 'cache-control': 'no-store' };

const problem = (init: ProblemInit) => new ProblemException(init);

function validationProblem(issues: Parameters<typeof fieldProblems>[0]): ProblemException {
  return problem({
    status: 400,
    code: 'validation',
    title: 'Bad Request',
    detail: 'The saved view has problems',
    errors: fieldProblems(issues),
  });
}

const notFound = () =>
  problem({
    status: 404,
    code: 'not_found',
    title: 'Not Found',
    detail: 'No saved view with this id',
  });

const nameTaken = (name: string) =>
  problem({
    status: 409,
    code: 'conflict',
    title: 'Conflict',
    detail: `You already have a view named "${name}" for this record type`,
    errors: [{ field: 'name', message: 'A view with this name already exists' }],
  });

const tooBig = () =>
  problem({
    status: 422,
    code: 'view_too_large',
    title: 'Unprocessable Content',
    detail: `A saved view holds at most ${MAX_VIEW_BYTES} bytes of name, filter, sort and columns`,
    errors: [{ field: 'columns', message: 'Too many or too long columns for one view' }],
  });

const tooMany = (detail: string) =>
  problem({
    status: 422,
    code: 'too_many_views',
    title: 'Unprocessable Content',
    detail,
    errors: [{ field: 'name', message: 'Too many saved views' }],
  });

/** A bad filter is a 400 with the character position, as the workspace API reports it. */
function checkFilter(filter: string): void {
  if (filter.trim() === '') return;
  try {
    parse(filter);
  } catch (error) {
    if (!isRsqlError(error)) throw error;
    const { message, position } = error;
    throw problem({
      status: 400,
      code: 'bad_filter',
      title: 'Bad Request',
      detail: `The filter is not valid RSQL: ${message}`,
      extra: { parameter: 'filter', position },
      errors: [{ field: 'filter', message: `${message} (at position ${position})` }],
    });
  }
}

function sessionOf(c: Context<AppEnv>): SessionRecord {
  const session = c.var.session;
  if (!session) throw new Error('requireAuth let a request without a session through');
  return session;
}

/**
 * Views belong to the session's owner id: the API's user id (extended) or the id derived from
 * region and client id (hosted); never an email someone typed.
 */
function ownerOf(session: SessionRecord): ViewOwner {
  return { userId: session.ownerId, region: session.region };
}

/**
 * The handlers of `/bff/views` (the router in saved-views.index.ts mounts them).
 *
 * @example
 * router.get('/views', savedViewsHandlers(deps).list);
 */
export function savedViewsHandlers(deps: {
  views: SavedViewsStore;
  sessions: Sessions;
  clock: Clock;
  config: BffConfig;
  workspace: WorkspaceStore;
  api: SessionApi;
}) {
  const { views, clock, config, workspace, api } = deps;

  async function owned(c: Context<AppEnv>): Promise<ViewRow> {
    const row = await views.findOwned(ownerOf(sessionOf(c)), c.req.param('id') ?? '');
    if (!row) throw notFound();
    return row;
  }

  /** The view must be of a definition this session can see (the list /bff/definitions gives). */
  async function checkDefinition(
    c: Context<AppEnv>,
    session: SessionRecord,
    input: { recordType: string; alias: string },
  ): Promise<void> {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) {
      await deps.sessions.destroy(session.idHash);
      throw unauthenticated(true);
    }
    let definitions: Definition[];
    try {
      definitions = await sessionDefinitions({ workspace, api }, session, region, c.req.raw.signal);
    } catch (error) {
      throw await api.failure(error, session);
    }
    if (!definitions.some((d) => d.recordType === input.recordType && d.alias === input.alias)) {
      throw problem({
        status: 422,
        code: 'unknown_definition',
        title: 'Unprocessable Content',
        detail: `You have no ${input.recordType} definition with alias "${input.alias}"`,
        errors: [{ field: 'alias', message: `No ${input.recordType} definition "${input.alias}"` }],
      });
    }
  }

  return {
    list: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const query = ListViewsQuerySchema.safeParse(c.req.query());
      if (!query.success) throw validationProblem(query.error.issues);
      const { recordType, alias } = query.data;
      const rows = await views.list(
        ownerOf(session),
        recordType && alias ? { recordType, alias } : undefined,
      );
      const reply: SavedViewList = { items: rows.map(toView) };
      return c.json(reply, 200, noStore);
    },

    create: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const parsed = CreateViewSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) throw validationProblem(parsed.error.issues);
      const input = parsed.data;
      checkFilter(input.filter);
      const search = JSON.stringify({
        filter: input.filter,
        sort: input.sort,
        columns: input.columns,
      });
      if (viewBytes(input.name, search) > MAX_VIEW_BYTES) throw tooBig();
      // Only definitions the session sees: the per-definition cap then binds, since nobody can
      // invent definitions to spread views over.
      await checkDefinition(c, session, input);

      const owner = ownerOf(session);
      if (await views.nameInUse(owner, input)) throw nameTaken(input.name);
      let result: Awaited<ReturnType<SavedViewsStore['create']>>;
      try {
        result = await views.create(owner, { ...input, search }, clock.now());
      } catch (error) {
        // A concurrent create of the same name passed the check above; the index decides.
        if (isUniqueViolation(error)) throw nameTaken(input.name);
        throw error;
      }
      if (result === 'per_definition') {
        throw tooMany(
          `At most ${MAX_VIEWS_PER_DEFINITION} saved views per record type; delete one first`,
        );
      }
      if (result === 'per_user') {
        throw tooMany(`At most ${MAX_VIEWS_PER_USER} saved views in all; delete one first`);
      }
      return c.json(toView(result), 201, { ...noStore, location: `/bff/views/${result.id}` });
    },

    get: async (c: Context<AppEnv>) => c.json(toView(await owned(c)), 200, noStore),

    update: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const row = await owned(c);
      const parsed = UpdateViewSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) throw validationProblem(parsed.error.issues);
      const patch = parsed.data;
      if (patch.filter !== undefined) checkFilter(patch.filter);
      if (
        patch.name !== undefined &&
        (await views.nameInUse(
          ownerOf(session),
          { recordType: row.record_type, alias: row.alias, name: patch.name },
          row.id,
        ))
      ) {
        throw nameTaken(patch.name);
      }
      const current = toView(row);
      const name = patch.name ?? current.name;
      const search = JSON.stringify({
        filter: patch.filter ?? current.filter,
        sort: patch.sort ?? current.sort,
        columns: patch.columns ?? current.columns,
      });
      // Each part fits the body limit alone; together they must fit one view.
      if (viewBytes(name, search) > MAX_VIEW_BYTES) throw tooBig();
      try {
        const updated = await views.update(row.id, { name, search }, clock.now());
        return c.json(toView(updated), 200, noStore);
      } catch (error) {
        if (isUniqueViolation(error) && patch.name !== undefined) throw nameTaken(patch.name);
        throw error;
      }
    },

    remove: async (c: Context<AppEnv>) => {
      const row = await owned(c);
      await views.remove(row.id);
      return c.body(null, 204, noStore);
    },

    setDefault: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const row = await owned(c);
      try {
        const updated = await views.setDefault(ownerOf(session), row);
        return c.json(toView(updated), 200, noStore);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw problem({
            status: 409,
            code: 'conflict',
            title: 'Conflict',
            detail: 'Another default was set at the same moment; try again',
          });
        }
        throw error;
      }
    },

    clearDefault: async (c: Context<AppEnv>) => {
      const row = await owned(c);
      return c.json(toView(await views.clearDefault(row.id)), 200, noStore);
    },
  };
}
