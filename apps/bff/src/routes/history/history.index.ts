// The record history (ADR 0024, ADR 0026): `GET /bff/history/{recordType}/{alias}/{id}` for anyone
// who may read the record (checked with an upstream read of it, with the caller's token; related
// items of definitions the reader cannot see are masked), and for the region's administrators the
// whole log, filtered, as pages or streamed CSV, the people it names, and the erase of one
// record's history or of everything kept about one person. The rows are written by the proxy
// (history.recorder.ts); nothing here writes but the erase.
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { z } from 'zod';

import type {
  HistoryActorList,
  HistoryEntry,
  HistoryPage,
  PersonErased,
} from '@wsc/api-client/bff-history';
import { isApiError, RecordTypeSchema } from '@wsc/api-client';
import {
  HistoryQuerySchema,
  OwnerIdSchema,
  RecordHistoryQuerySchema,
} from '@wsc/api-client/bff-history';

import type { BffDatabase } from '../../db/schema.ts';
import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Authority } from '../../lib/authority.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
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
import { erasePersonData, eraseRecordHistory, sessionsOf } from './history.erase.ts';
import { hasRelatedItems, maskHiddenTargets } from './history.mask.ts';
import { toEntry } from './history.store.ts';

const noStore = { 'cache-control': 'no-store' };
const DEFAULT_PAGE = 50;
/** Rows the CSV export reads per query: the export holds one batch in memory, never the log. */
const EXPORT_BATCH = 500;
/** People `GET /bff/history/actors` lists at most. */
const MAX_ACTORS = 500;

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

/** A path parameter the store can hold (no NUL, no lone surrogate): else 400 naming it. */
function storableParam(name: string, value: string): string {
  const parsed = OwnerIdSchema.safeParse(value);
  if (!parsed.success) throw validation(parsed.error.issues.map((i) => ({ ...i, path: [name] })));
  return parsed.data;
}

/** The record type of a path, or 400 naming `recordType`. */
function recordTypeParam(value: string | undefined) {
  const recordType = RecordTypeSchema.safeParse(value);
  if (!recordType.success) {
    throw validation(recordType.error.issues.map((i) => ({ ...i, path: ['recordType'] })));
  }
  return recordType.data;
}

/**
 * The `/bff/history` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createHistoryRouter({ config, sessions, api, history }));
 */
export function createHistoryRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  api: SessionApi;
  history: HistoryStore;
  db: Kysely<BffDatabase>;
  logger: Logger;
  /** Who is an administrator now (ADMIN from the API or the identities file, never a typed email). */
  authority: Authority;
  /** What the session may see: the per-record route, its masking and a hosted administrator's log. */
  visibility: Visibility;
}) {
  const { config, api, history, db, logger, authority, visibility } = deps;
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

  // Every administrators' route asks for the role the API or the identities file gives now (at
  // most a minute old, ADR 0027), never the one frozen at sign-in.
  const adminOnly = (detail: string) => requireAdmin(authority, api, detail);
  const readsLog = adminOnly('Only administrators may read the whole history');

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

  router.get('/history', readsLog, async (c) => {
    const q = await adminQuery(c);
    const rows = await history.search(q.region, q.filter, { after: q.after, first: q.first + 1 });
    return c.json(page(rows, q.first), 200, noStore);
  });

  router.get('/history/export.csv', readsLog, async (c) => {
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

  router.get('/history/actors', readsLog, async (c) => {
    const { session } = scope(c);
    const reply: HistoryActorList = { items: await history.actors(session.region, MAX_ACTORS) };
    return c.json(reply, 200, noStore);
  });

  router.delete(
    '/history/people/:ownerId',
    adminOnly('Only administrators may erase what is kept about a person'),
    async (c) => {
      const { session } = scope(c);
      const ownerId = storableParam('ownerId', c.req.param('ownerId'));
      // Their sessions first: ending them closes their event streams on every instance.
      const hashes = await sessionsOf(db, session.region, ownerId);
      for (const hash of hashes) await deps.sessions.destroy(hash);
      const erased: PersonErased = {
        ...(await erasePersonData(db, session.region, ownerId)),
        sessions: hashes.length,
      };
      logger.info('history: person erased', {
        requestId: c.var.requestId,
        region: session.region,
        by: session.ownerId,
        ...erased,
      });
      return c.json(erased, 200, noStore);
    },
  );

  router.delete(
    '/history/:recordType/:alias/:id',
    adminOnly("Only administrators may erase a record's history"),
    async (c) => {
      const { session } = scope(c);
      const record = {
        recordType: recordTypeParam(c.req.param('recordType')),
        alias: storableParam('alias', c.req.param('alias')),
        recordId: storableParam('id', c.req.param('id')),
      };
      const erased = await eraseRecordHistory(db, session.region, record);
      logger.info('history: record erased', {
        requestId: c.var.requestId,
        region: session.region,
        by: session.ownerId,
        ...record,
        ...erased,
      });
      return c.json(erased, 200, noStore);
    },
  );

  /** The entries as this reader may see them: related items of hidden definitions masked. */
  const forReader = async (session: SessionRecord, entries: HistoryEntry[]) => {
    if (!hasRelatedItems(entries)) return entries;
    // A failed read of what the reader sees masks every target (closes, never opens).
    const visible = await visibility.definitions(session).catch(() => undefined);
    return maskHiddenTargets(entries, visible);
  };

  router.get('/history/:recordType/:alias/:id', async (c) => {
    const { session, region } = scope(c);
    const recordType = recordTypeParam(c.req.param('recordType'));
    const alias = c.req.param('alias');
    const id = c.req.param('id');
    const parsed = RecordHistoryQuerySchema.safeParse(c.req.query());
    if (!parsed.success) throw validation(parsed.error.issues);
    // Hosted: a definition the session may not see has no history for it (the description
    // names every type; extended, the upstream's read below decides alone).
    if (session.profile === 'hosted') {
      let sees: boolean;
      try {
        sees = await visibility.sees(session, recordType, alias);
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
        (client, signal) => client.getRecord(recordType, alias, id, { signal }),
        c.req.raw.signal,
      );
    } catch (error) {
      if (isApiError(error) && (error.status === 404 || error.status === 403)) throw notFound();
      throw await api.failure(error, session);
    }
    const first = parsed.data.first ?? DEFAULT_PAGE;
    const rows = await history.forRecord(
      session.region,
      { recordType, alias, recordId: id },
      { after: parsed.data.after, first: first + 1 },
    );
    const reply = page(rows, first);
    reply.items = await forReader(session, reply.items);
    return c.json(reply, 200, noStore);
  });

  return router;
}
