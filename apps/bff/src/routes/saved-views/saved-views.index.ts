// Saved views: named list views (filter, sort, columns) of one definition, stored per user in the
// BFF's own store so they survive restarts and follow the user across browsers. Every query is
// scoped to the session's owner id and region: another user's view is a 404, never a 403, so ids
// of other people's views cannot be probed.
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import { sql } from 'kysely';

import type { Definition } from '@wsc/api-client';
import { isRsqlError, parse } from '@wsc/rsql';

import type { BffDatabase, SavedViewsTable } from '../../db/schema.ts';
import type { SessionRecord } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { AppEnv } from '../../lib/create-app.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import type { SavedView } from './saved-views.schemas.ts';
import { createRouter } from '../../lib/create-app.ts';
import { problemResponse } from '../../lib/errors.ts';
import { sessionDefinitions } from '../../lib/session-definitions.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth, unauthenticated } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import {
  CreateViewSchema,
  ListViewsQuerySchema,
  StoredSearchSchema,
  UpdateViewSchema,
} from './saved-views.schemas.ts';

/** A user keeps at most this many views per definition: a sidebar list, not a data store. */
export const MAX_VIEWS_PER_DEFINITION = 100;

/**
 * And at most this many in all (per owner and region). With the per-view size limit below, this
 * bounds `GET /bff/views` (every view of the user) to MAX_VIEWS_PER_USER x MAX_VIEW_BYTES.
 */
export const MAX_VIEWS_PER_USER = 500;

/** A view's stored text (name, filter, sort, columns as JSON) at most: the request body limit. */
export const MAX_VIEW_BYTES = 16 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = Selectable<SavedViewsTable>;

function toView(row: Row): SavedView {
  const raw = typeof row.search === 'string' ? (JSON.parse(row.search) as unknown) : row.search;
  const search = StoredSearchSchema.parse(raw ?? {});
  return {
    id: row.id,
    name: row.name,
    recordType: row.record_type,
    alias: row.alias,
    filter: search.filter,
    sort: search.sort,
    columns: search.columns,
    isDefault: Boolean(row.is_default),
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

const noStore = { 'cache-control': 'no-store' };

function validationProblem(issues: z.core.$ZodIssue[]): Response {
  return problemResponse({
    status: 400,
    code: 'validation',
    title: 'Bad Request',
    detail: 'The saved view has problems',
    errors: issues.map((issue) => ({
      field: issue.path.join('.') || '(body)',
      message: issue.message,
    })),
  });
}

/** A bad filter: 400 with the character position, as the workspace API reports it. */
function filterProblem(message: string, position: number): Response {
  const body = {
    type: 'urn:wsc:bff:bad_filter',
    title: 'Bad Request',
    status: 400,
    detail: `The filter is not valid RSQL: ${message}`,
    parameter: 'filter',
    position,
    errors: [{ field: 'filter', message: `${message} (at position ${position})` }],
  };
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { 'content-type': 'application/problem+json', ...noStore },
  });
}

function notFound(): Response {
  return problemResponse({
    status: 404,
    code: 'not_found',
    title: 'Not Found',
    detail: 'No saved view with this id',
  });
}

function nameTaken(name: string): Response {
  return problemResponse({
    status: 409,
    code: 'conflict',
    title: 'Conflict',
    detail: `You already have a view named "${name}" for this record type`,
    errors: [{ field: 'name', message: 'A view with this name already exists' }],
  });
}

/** The filter's problem as a Response, or undefined when it parses (or is empty). */
function checkFilter(filter: string): Response | undefined {
  if (filter.trim() === '') return undefined;
  try {
    parse(filter);
    return undefined;
  } catch (error) {
    if (isRsqlError(error)) return filterProblem(error.message, error.position);
    throw error;
  }
}

/** The stored size of a view: its name and its `search` JSON. */
function viewBytes(name: string, search: string): number {
  return Buffer.byteLength(name) + Buffer.byteLength(search);
}

function tooBig(): Response {
  return problemResponse({
    status: 422,
    code: 'view_too_large',
    title: 'Unprocessable Content',
    detail: `A saved view holds at most ${MAX_VIEW_BYTES} bytes of name, filter, sort and columns`,
    errors: [{ field: 'columns', message: 'Too many or too long columns for one view' }],
  });
}

function tooMany(detail: string): Response {
  return problemResponse({
    status: 422,
    code: 'too_many_views',
    title: 'Unprocessable Content',
    detail,
    errors: [{ field: 'name', message: 'Too many saved views' }],
  });
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    return Symbol.for('invalid-json');
  }
}

function badJson(): Response {
  return problemResponse({
    status: 400,
    code: 'bad_request',
    title: 'Bad Request',
    detail: 'The body must be a JSON object',
  });
}

/** A unique index said no: PostgreSQL and PGlite both report SQLSTATE 23505. */
function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}

/**
 * Views belong to the session's owner id: the API's user id (extended) or the id derived from
 * region and client id (hosted); never an email someone typed.
 */
function owner(session: SessionRecord) {
  return { userId: session.ownerId, region: session.region };
}

async function findOwned(
  db: Kysely<BffDatabase>,
  session: SessionRecord,
  id: string,
): Promise<Row | undefined> {
  if (!UUID.test(id)) return undefined;
  const { userId, region } = owner(session);
  return db
    .selectFrom('saved_views')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('region', '=', region)
    .executeTakeFirst();
}

async function nameInUse(
  db: Kysely<BffDatabase>,
  session: SessionRecord,
  view: { recordType: string; alias: string; name: string },
  exceptId?: string,
): Promise<boolean> {
  const { userId, region } = owner(session);
  let query = db
    .selectFrom('saved_views')
    .select('id')
    .where('user_id', '=', userId)
    .where('region', '=', region)
    .where('record_type', '=', view.recordType)
    .where('alias', '=', view.alias)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', view.name.toLowerCase()));
  if (exceptId) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

function sessionOf(c: { var: AppEnv['Variables'] }): SessionRecord {
  const session = c.var.session;
  if (!session) throw new Error('requireAuth let a request without a session through');
  return session;
}

/**
 * The `/bff/views` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createSavedViewsRouter({ db: store.db, sessions, clock }));
 */
export function createSavedViewsRouter(deps: {
  db: Kysely<BffDatabase>;
  sessions: Sessions;
  clock: Clock;
  config: BffConfig;
  workspace: WorkspaceStore;
  api: SessionApi;
}) {
  const { db, clock, config, workspace, api } = deps;
  const router = createRouter();
  const limit = jsonBodyLimit(MAX_VIEW_BYTES);
  // `/views/*` also matches `/views` itself: one registration covers the list and every view.
  router.use('/views/*', csrf({ unsafeOnly: true }), sessionMiddleware(deps.sessions), requireAuth);

  router.get('/views', async (c) => {
    const session = sessionOf(c);
    const query = ListViewsQuerySchema.safeParse(c.req.query());
    if (!query.success) return validationProblem(query.error.issues);
    const { userId, region } = owner(session);
    let select = db
      .selectFrom('saved_views')
      .selectAll()
      .where('user_id', '=', userId)
      .where('region', '=', region);
    const { recordType, alias } = query.data;
    if (recordType && alias) {
      select = select.where('record_type', '=', recordType).where('alias', '=', alias);
    }
    // Inserts keep a user under MAX_VIEWS_PER_USER; the limit also bounds rows stored before
    // that cap existed, so the answer never grows past it.
    const rows = await select
      .orderBy('record_type')
      .orderBy('alias')
      .orderBy(({ fn }) => fn('lower', ['name']))
      .orderBy('created_at')
      .limit(MAX_VIEWS_PER_USER)
      .execute();
    return c.json({ items: rows.map(toView) }, 200, noStore);
  });

  router.post('/views', limit, async (c) => {
    const session = sessionOf(c);
    const body = await readJson(c.req.raw);
    if (typeof body === 'symbol') return badJson();
    const parsed = CreateViewSchema.safeParse(body);
    if (!parsed.success) return validationProblem(parsed.error.issues);
    const input = parsed.data;
    const badFilter = checkFilter(input.filter);
    if (badFilter) return badFilter;
    const search = JSON.stringify({
      filter: input.filter,
      sort: input.sort,
      columns: input.columns,
    });
    if (viewBytes(input.name, search) > MAX_VIEW_BYTES) return tooBig();

    // The view must be of a definition this session can see (the list /bff/definitions gives):
    // the per-definition cap then binds, since nobody can invent definitions to spread views over.
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) {
      await deps.sessions.destroy(session.idHash);
      return unauthenticated(true);
    }
    let definitions: Definition[];
    try {
      definitions = await sessionDefinitions({ workspace, api }, session, region, c.req.raw.signal);
    } catch (error) {
      return api.failure(error, session);
    }
    if (!definitions.some((d) => d.recordType === input.recordType && d.alias === input.alias)) {
      return problemResponse({
        status: 422,
        code: 'unknown_definition',
        title: 'Unprocessable Content',
        detail: `You have no ${input.recordType} definition with alias "${input.alias}"`,
        errors: [{ field: 'alias', message: `No ${input.recordType} definition "${input.alias}"` }],
      });
    }

    if (await nameInUse(db, session, input)) return nameTaken(input.name);
    const { userId, region: regionId } = owner(session);
    const now = clock.now();
    try {
      const result = await db.transaction().execute(async (trx) => {
        // One writer per owner at a time, so two concurrent creates cannot both pass the caps
        // (PostgreSQL across BFF instances; PGlite has one connection anyway).
        await sql`select pg_advisory_xact_lock(hashtextextended(${`saved_views:${regionId}:${userId}`}, 0))`.execute(
          trx,
        );
        const counts = await trx
          .selectFrom('saved_views')
          .select(({ fn }) => [
            fn.countAll<number | string>().as('total'),
            fn
              .count<number | string>('id')
              .filterWhere((eb) =>
                eb.and([eb('record_type', '=', input.recordType), eb('alias', '=', input.alias)]),
              )
              .as('here'),
          ])
          .where('user_id', '=', userId)
          .where('region', '=', regionId)
          .executeTakeFirstOrThrow();
        if (Number(counts.here) >= MAX_VIEWS_PER_DEFINITION) {
          return tooMany(
            `At most ${MAX_VIEWS_PER_DEFINITION} saved views per record type; delete one first`,
          );
        }
        if (Number(counts.total) >= MAX_VIEWS_PER_USER) {
          return tooMany(`At most ${MAX_VIEWS_PER_USER} saved views in all; delete one first`);
        }
        return trx
          .insertInto('saved_views')
          .values({
            user_id: userId,
            region: regionId,
            name: input.name,
            record_type: input.recordType,
            alias: input.alias,
            search,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      if (result instanceof Response) return result;
      return c.json(toView(result), 201, { ...noStore, location: `/bff/views/${result.id}` });
    } catch (error) {
      // A concurrent create of the same name passed the check above; the index decides.
      if (isUniqueViolation(error)) return nameTaken(input.name);
      throw error;
    }
  });

  router.get('/views/:id', async (c) => {
    const row = await findOwned(db, sessionOf(c), c.req.param('id'));
    return row ? c.json(toView(row), 200, noStore) : notFound();
  });

  router.put('/views/:id', limit, async (c) => {
    const session = sessionOf(c);
    const row = await findOwned(db, session, c.req.param('id'));
    if (!row) return notFound();
    const body = await readJson(c.req.raw);
    if (typeof body === 'symbol') return badJson();
    const parsed = UpdateViewSchema.safeParse(body);
    if (!parsed.success) return validationProblem(parsed.error.issues);
    const patch = parsed.data;
    if (patch.filter !== undefined) {
      const badFilter = checkFilter(patch.filter);
      if (badFilter) return badFilter;
    }
    if (
      patch.name !== undefined &&
      (await nameInUse(
        db,
        session,
        { recordType: row.record_type, alias: row.alias, name: patch.name },
        row.id,
      ))
    ) {
      return nameTaken(patch.name);
    }
    const current = toView(row);
    const name = patch.name ?? current.name;
    const search = JSON.stringify({
      filter: patch.filter ?? current.filter,
      sort: patch.sort ?? current.sort,
      columns: patch.columns ?? current.columns,
    });
    // Each part fits the body limit alone; together they must fit one view.
    if (viewBytes(name, search) > MAX_VIEW_BYTES) return tooBig();
    try {
      const updated = await db
        .updateTable('saved_views')
        .set({ name, search, updated_at: clock.now() })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(toView(updated), 200, noStore);
    } catch (error) {
      if (isUniqueViolation(error) && patch.name !== undefined) return nameTaken(patch.name);
      throw error;
    }
  });

  router.delete('/views/:id', async (c) => {
    const row = await findOwned(db, sessionOf(c), c.req.param('id'));
    if (!row) return notFound();
    await db.deleteFrom('saved_views').where('id', '=', row.id).execute();
    return c.body(null, 204, noStore);
  });

  // One default per definition per user: clear the old one and set the new one in one
  // transaction (the partial unique index backs this up against concurrent requests).
  router.put('/views/:id/default', async (c) => {
    const session = sessionOf(c);
    const row = await findOwned(db, session, c.req.param('id'));
    if (!row) return notFound();
    const { userId, region } = owner(session);
    try {
      const updated = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('saved_views')
          .set({ is_default: false })
          .where('user_id', '=', userId)
          .where('region', '=', region)
          .where('record_type', '=', row.record_type)
          .where('alias', '=', row.alias)
          .where('is_default', '=', true)
          .where('id', '!=', row.id)
          .execute();
        return trx
          .updateTable('saved_views')
          .set({ is_default: true })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return c.json(toView(updated), 200, noStore);
    } catch (error) {
      if (isUniqueViolation(error)) {
        return problemResponse({
          status: 409,
          code: 'conflict',
          title: 'Conflict',
          detail: 'Another default was set at the same moment; try again',
        });
      }
      throw error;
    }
  });

  // Back to "no default": the definition opens with its plain list again.
  router.delete('/views/:id/default', async (c) => {
    const row = await findOwned(db, sessionOf(c), c.req.param('id'));
    if (!row) return notFound();
    const updated = await db
      .updateTable('saved_views')
      .set({ is_default: false })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json(toView(updated), 200, noStore);
  });

  return router;
}
