// The saved views' handlers: validate, check the filter and the definition, apply the caps, and
// answer; every refusal is a thrown problem the app's onError renders. Rows are read and written
// through the store (saved-views.store.ts).
import type { Context } from 'hono';

import type { Definition, SavedView, SavedViewList, SharedViewList } from '@wsc/api-client';
import {
  CreateViewSchema,
  IdentitySourceSchema,
  isApiError,
  ListViewsQuerySchema,
  UpdateViewSchema,
  ViewSharesInputSchema,
} from '@wsc/api-client';
import { isRsqlError, parse } from '@wsc/rsql';

import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { ProblemInit } from '../../lib/errors.ts';
import type { Region } from '../../lib/region.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { Visibility } from '../../lib/visible-definitions.ts';
import type { WorkspaceStore } from '../../lib/workspace-store.ts';
import type { GroupMembership } from './group-membership.ts';
import type { ViewSharesStore } from './saved-views.shares.ts';
import type { SavedViewsStore, ViewOwner, ViewRow } from './saved-views.store.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { actorOf } from '../../lib/people.ts';
import { sessionDefinitions } from '../../lib/session-definitions.ts';
import { unauthenticated } from '../../middlewares/require-auth.ts';
import { groupSharingUnavailable } from './group-membership.ts';
import { ownViewsReader, withShares } from './saved-views.own.ts';
import { EVERYONE, MAX_SHARED_VIEWS_PER_USER, sharesOf } from './saved-views.shares.ts';
import {
  isUniqueViolation,
  MAX_VIEW_BYTES,
  MAX_VIEWS_PER_DEFINITION,
  MAX_VIEWS_PER_USER,
  toView,
  UUID,
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
 * A shared view as its readers get it: no default flag of the owner's, and who shared it with
 * how verified that name is (the name others see comes from lib/people.ts, ADR 0026).
 */
function sharedView(row: ViewRow): SavedView {
  const identity = IdentitySourceSchema.safeParse(row.shared_by_identity);
  return {
    ...toView(row),
    isDefault: false,
    sharedBy: row.shared_by ?? 'Someone',
    ...(identity.success ? { sharedByIdentity: identity.data } : {}),
  };
}

/**
 * The handlers of `/bff/views` (the router in saved-views.index.ts mounts them).
 *
 * @example
 * router.get('/views', savedViewsHandlers(deps).list);
 */
export function savedViewsHandlers(deps: {
  views: SavedViewsStore;
  shares: ViewSharesStore;
  membership: GroupMembership;
  sessions: Sessions;
  clock: Clock;
  config: BffConfig;
  workspace: WorkspaceStore;
  api: SessionApi;
  /** What the reader may see: others' views of any other definition are not theirs to read. */
  visibility: Visibility;
}) {
  const { views, shares, membership, clock, config, workspace, api } = deps;

  /** The definitions the reader may see now (ADR 0027); failures answer as the API's do. */
  async function readableDefinitions(session: SessionRecord): Promise<Definition[]> {
    try {
      return await deps.visibility.definitions(session);
    } catch (error) {
      throw await api.failure(error, session);
    }
  }

  async function owned(c: Context<AppEnv>): Promise<ViewRow> {
    const row = await views.findOwned(ownerOf(sessionOf(c)), c.req.param('id') ?? '');
    if (!row) throw notFound();
    return row;
  }

  const ownView = async (row: ViewRow) => (await withShares(shares, [row]))[0] as SavedView;
  const listOwn = ownViewsReader({ views, shares });

  /** The session's region, or the session ends (a region removed from the configuration). */
  async function regionOf(session: SessionRecord): Promise<Region> {
    const region = config.regions.find((r) => r.id === session.region);
    if (!region) {
      await deps.sessions.destroy(session.idHash);
      throw unauthenticated(true);
    }
    return region;
  }

  /**
   * The groups the session's person is in among `candidates`, by default every group others
   * shared views with in the region.
   */
  async function myGroups(
    c: Context<AppEnv>,
    session: SessionRecord,
    only?: readonly string[],
  ): Promise<string[]> {
    if (groupSharingUnavailable(session) || only?.length === 0) return [];
    const region = await regionOf(session);
    const candidates = only ?? (await shares.groupsSharedWith(ownerOf(session)));
    try {
      return await membership.memberOf(session, region, candidates, c.req.raw.signal);
    } catch (error) {
      throw await api.failure(error, session);
    }
  }

  /** Each group must exist for the sharer; answers their names, or a 422 naming the field. */
  async function checkGroups(
    c: Context<AppEnv>,
    session: SessionRecord,
    ids: readonly string[],
  ): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    const unavailable = groupSharingUnavailable(session);
    if (unavailable) {
      throw problem({
        status: 422,
        code: 'group_sharing_unavailable',
        title: 'Unprocessable Content',
        detail: unavailable,
        errors: [{ field: 'groups', message: 'Share with everyone in the region instead' }],
      });
    }
    const region = await regionOf(session);
    const found: { id: string; name: string }[] = [];
    const missing: { field: string; message: string }[] = [];
    for (const [index, id] of ids.entries()) {
      try {
        const group = await api.run(
          session,
          region,
          session.profile,
          (client, signal) => client.getGroup(id, { signal }),
          c.req.raw.signal,
        );
        found.push({ id: id.toLowerCase(), name: group.name ?? id });
      } catch (error) {
        if (isApiError(error) && (error.status === 404 || error.status === 403)) {
          missing.push({ field: `groups.${index}`, message: `No group ${id}` });
        } else {
          throw await api.failure(error, session);
        }
      }
    }
    if (missing.length > 0) {
      throw problem({
        status: 422,
        code: 'unknown_group',
        title: 'Unprocessable Content',
        detail: 'Some groups do not exist or are not visible to you; nothing was shared',
        errors: missing,
      });
    }
    return found;
  }

  /** The view must be of a definition this session can see (the list /bff/definitions gives). */
  async function checkDefinition(
    c: Context<AppEnv>,
    session: SessionRecord,
    input: { recordType: string; alias: string },
  ): Promise<void> {
    const region = await regionOf(session);
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
      const items = await listOwn(
        ownerOf(session),
        recordType && alias ? { recordType, alias } : undefined,
      );
      const reply: SavedViewList = { items };
      return c.json(reply, 200, noStore);
    },

    listShared: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const query = ListViewsQuerySchema.safeParse(c.req.query());
      if (!query.success) throw validationProblem(query.error.issues);
      const { recordType, alias } = query.data;
      const definitions = await readableDefinitions(session);
      const wanted = recordType && alias ? { definition: { recordType, alias } } : {};
      // Nothing the reader may see: no membership check needs to be spent on it.
      const rows =
        definitions.length === 0
          ? []
          : await shares.visible(ownerOf(session), await myGroups(c, session), {
              ...wanted,
              definitions,
            });
      const unavailable = groupSharingUnavailable(session);
      const reply: SharedViewList = {
        items: rows.map(sharedView),
        groupSharing: unavailable ? { available: false, reason: unavailable } : { available: true },
      };
      return c.json(reply, 200, noStore);
    },

    share: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const row = await owned(c);
      const parsed = ViewSharesInputSchema.safeParse(await readJsonBody(c));
      if (!parsed.success) throw validationProblem(parsed.error.issues);
      const groups = await checkGroups(c, session, parsed.data.groups);
      const result = await shares.replace(
        ownerOf(session),
        row,
        { everyone: parsed.data.everyone, groups },
        actorOf(session),
        clock.now(),
      );
      if (result === 'too_many') {
        throw problem({
          status: 422,
          code: 'too_many_shared_views',
          title: 'Unprocessable Content',
          detail: `At most ${MAX_SHARED_VIEWS_PER_USER} of your views can be shared; unshare one first`,
          errors: [{ field: 'everyone', message: 'Too many shared views' }],
        });
      }
      return c.json({ ...toView(row), shares: sharesOf(result) }, 200, noStore);
    },

    unshare: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const row = await owned(c);
      const nobody = { everyone: false, groups: [] };
      await shares.replace(ownerOf(session), row, nobody, actorOf(session), clock.now());
      return c.json({ ...toView(row), shares: sharesOf([]) }, 200, noStore);
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
      return c.json({ ...toView(result), shares: sharesOf([]) }, 201, {
        ...noStore,
        location: `/bff/views/${result.id}`,
      });
    },

    /** Own views, and views shared with the session; any other id is a 404 (never a 403). */
    get: async (c: Context<AppEnv>) => {
      const session = sessionOf(c);
      const id = c.req.param('id') ?? '';
      const own = await views.findOwned(ownerOf(session), id);
      if (own) return c.json(await ownView(own), 200, noStore);
      if (!UUID.test(id)) throw notFound();
      // Only the groups this view is shared with are asked about: an id shared with nobody
      // costs no upstream call, and answers exactly like one that never existed.
      const audience = await shares.audienceOf(ownerOf(session), id);
      const groups = audience.filter((g) => g !== EVERYONE);
      const readable =
        audience.includes(EVERYONE) || (await myGroups(c, session, groups)).length > 0;
      const [row] = readable
        ? await shares.visible(ownerOf(session), groups, {
            id,
            definitions: await readableDefinitions(session),
          })
        : [];
      if (!row) throw notFound();
      return c.json(sharedView(row), 200, noStore);
    },

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
        return c.json(await ownView(updated), 200, noStore);
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
        return c.json(await ownView(updated), 200, noStore);
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
      return c.json(await ownView(await views.clearDefault(row.id)), 200, noStore);
    },
  };
}
