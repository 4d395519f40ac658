// The record history (ADR 0024): `GET /bff/history/{recordType}/{alias}/{id}` for anyone who may
// read the record (checked with an upstream read of it, with the caller's token), and for the
// region's administrators the whole log, filtered, as pages or streamed CSV. The rows are written
// by the proxy (history.recorder.ts); nothing here writes.
import type { Context } from 'hono';
import type { z } from 'zod';

import type { HistoryPage } from '@wsc/api-client/bff-history';
import { isApiError, RecordTypeSchema } from '@wsc/api-client';
import { HistoryQuerySchema, RecordHistoryQuerySchema } from '@wsc/api-client/bff-history';

import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Authority } from '../../lib/authority.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Region } from '../../lib/region.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { Visibility } from '../../lib/visible-definitions.ts';
import type { HistoryFilter, HistoryRow, HistoryStore } from './history.store.ts';
import { requireAdmin } from '../../lib/authority.ts';
import { createRouter } from '../../lib/create-app.ts';
import { fieldProblems, ProblemException } from '../../lib/errors.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { historyCsv } from './history.csv.ts';
import { toEntry } from './history.store.ts';

const noStore = { 'cache-control': 'no-store' };
const DEFAULT_PAGE = 50;
/** Rows the CSV export reads per query: the export holds one batch in memory, never the log. */
const EXPORT_BATCH = 500;

function validation(issues: z.core.$ZodIssue[]) {
  return new ProblemException({
    status: 400,
    code: 'validation',
    title: 'Bad Request',
    detail: 'The query has problems',
    errors: fieldProblems(issues),
  });
}

const notFound = () =>
  new ProblemException({
    status: 404,
    code: 'not_found',
    title: 'Not Found',
    detail: 'No record with this handle that you may read',
  });

function page(rows: HistoryRow[], first: number): HistoryPage {
  const items = rows.slice(0, first).map(toEntry);
  return { items, next: rows.length > first ? (items.at(-1)?.id ?? null) : null };
}

/**
 * The `/bff/history` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createHistoryRouter({ config, sessions, api, history, authority, visibility }));
 */
export function createHistoryRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  api: SessionApi;
  history: HistoryStore;
  /** Who is an administrator now (ADMIN from the API or the identities file, never a typed email). */
  authority: Authority;
  /** What the session may see: the per-record route and a hosted administrator's log use it. */
  visibility: Visibility;
}) {
  const { config, api, history, authority, visibility } = deps;
  const router = createRouter();
  router.use(
    '/history/*',
    csrf({ unsafeOnly: true }),
    sessionMiddleware(deps.sessions),
    requireAuth,
  );
  router.use('/history', csrf({ unsafeOnly: true }), sessionMiddleware(deps.sessions), requireAuth);

  const scope = (c: Context<AppEnv>): { session: SessionRecord; region: Region } => {
    const session = c.var.session;
    const region = config.regions.find((r) => r.id === session?.region);
    if (!session || !region) throw new Error('requireAuth let a request without a region through');
    return { session, region };
  };

  // The role is the one the API or the identities file gives now (at most a minute old).
  const adminOnly = requireAdmin(authority, api, 'Only administrators may read the whole history');

  /**
   * Hosted: the administrator's log holds only definitions their credential may read upstream
   * (the identities file makes admins of the console, not of the service). Extended: an API
   * ADMIN may read everything.
   */
  const adminDefinitions = async (session: SessionRecord) => {
    if (session.profile !== 'hosted') return undefined;
    try {
      return await visibility.definitions(session);
    } catch (error) {
      throw await api.failure(error, session);
    }
  };

  /** The administrators' query, checked: 400 naming a bad parameter. */
  const adminQuery = async (c: Context<AppEnv>) => {
    const { session } = scope(c);
    const parsed = HistoryQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validation(parsed.error.issues);
    const q = parsed.data;
    const filter: HistoryFilter = {
      user: q.user,
      recordType: q.recordType,
      alias: q.alias,
      from: q.from === undefined ? undefined : Date.parse(q.from),
      to: q.to === undefined ? undefined : Date.parse(q.to),
      definitions: await adminDefinitions(session),
    };
    return { region: session.region, filter, after: q.after, first: q.first ?? DEFAULT_PAGE };
  };

  router.get('/history', adminOnly, async (c) => {
    const q = await adminQuery(c);
    const rows = await history.search(q.region, q.filter, { after: q.after, first: q.first + 1 });
    return c.json(page(rows, q.first), 200, noStore);
  });

  router.get('/history/export.csv', adminOnly, async (c) => {
    const q = await adminQuery(c);
    const batches = async function* () {
      let after = q.after;
      for (;;) {
        const rows = await history.search(q.region, q.filter, { after, first: EXPORT_BATCH });
        if (rows.length === 0) return;
        yield rows.map(toEntry);
        if (rows.length < EXPORT_BATCH) return;
        after = String(rows.at(-1)?.id);
      }
    };
    return new Response(historyCsv(batches()), {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="history.csv"',
        ...noStore,
      },
    });
  });

  router.get('/history/:recordType/:alias/:id', async (c) => {
    const { session, region } = scope(c);
    const recordType = RecordTypeSchema.safeParse(c.req.param('recordType'));
    if (!recordType.success) {
      throw validation(recordType.error.issues.map((i) => ({ ...i, path: ['recordType'] })));
    }
    const alias = c.req.param('alias');
    const id = c.req.param('id');
    const parsed = RecordHistoryQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validation(parsed.error.issues);
    // Hosted: a definition the session may not see has no history for it (the description
    // names every type; extended, the upstream's read below decides alone).
    if (session.profile === 'hosted') {
      let sees: boolean;
      try {
        sees = await visibility.sees(session, recordType.data, alias);
      } catch (error) {
        throw await api.failure(error, session);
      }
      if (!sees) throw notFound();
    }
    // The record's history is the record's: whoever cannot read it (404 or 403 upstream) gets a 404.
    try {
      await api.run(
        session,
        region,
        session.profile,
        (client, signal) => client.getRecord(recordType.data, alias, id, { signal }),
        c.req.raw.signal,
      );
    } catch (error) {
      if (isApiError(error) && (error.status === 404 || error.status === 403)) throw notFound();
      throw await api.failure(error, session);
    }
    const first = parsed.data.first ?? DEFAULT_PAGE;
    const rows = await history.forRecord(
      session.region,
      { recordType: recordType.data, alias, recordId: id },
      { after: parsed.data.after, first: first + 1 },
    );
    return c.json(page(rows, first), 200, noStore);
  });

  return router;
}
