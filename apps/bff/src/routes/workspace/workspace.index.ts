// The Workspace setup page's routes (hosted profile only): the region's workspace description,
// sampling records of a record type to propose a definition, and saving or removing definitions
// in the BFF's store. In the extended profile the definitions come from the workspace API itself.
import type { Context } from 'hono';
import type { z } from 'zod';
import { createMiddleware } from 'hono/factory';

import type { RecordType, SampleResult, Workspace, WorkspaceEntry } from '@wsc/api-client';
import { DefinitionSchema, isApiError, SampleInputSchema } from '@wsc/api-client';

import type { SessionRecord } from '../../db/store.ts';
import type { AppEnv } from '../../lib/app-env.ts';
import type { Authority } from '../../lib/authority.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BffConfig } from '../../lib/config.ts';
import type { Region } from '../../lib/region.ts';
import type { SessionApi } from '../../lib/session-api.ts';
import type { Sessions } from '../../lib/sessions.ts';
import type { StoredDefinition, WorkspaceStore } from '../../lib/workspace-store.ts';
import { createRouter } from '../../lib/create-app.ts';
import { fieldProblems, ProblemException, readJsonBody } from '../../lib/errors.ts';
import { definitionKey, definitionProblems, forHosted } from '../../lib/workspace-definitions.ts';
import { jsonBodyLimit } from '../../middlewares/body-limit.ts';
import { csrf } from '../../middlewares/csrf.ts';
import { requireAuth, unauthenticated } from '../../middlewares/require-auth.ts';
import { sessionMiddleware } from '../../middlewares/session.ts';
import { elementProposal, inferDefinition } from './infer-definition.ts';

const noStore = { 'cache-control': 'no-store' };

/** Records read to propose a definition: one page of the published list. */
export const SAMPLE_SIZE = 100;

/** Why a session may not edit, when an identities file decides who administers the console. */
export const NOT_ADMIN_REASON =
  "Only administrators named in the BFF's identities file may change the workspace description.";

/**
 * May this session change the region's stored definitions? With an identities file, only its
 * ADMIN identities as the file is now (operator configuration, never a typed email); without one,
 * the operator has left it to every signed-in user of the region (docs/bff.md). `edit`: the
 * answer is about to be acted on, so a credential the upstream refuses must not pass either
 * (ADR 0027). Throws what the authority throws.
 *
 * @example
 * await editPermission(authority, session, { edit: true }); // { editable: true }
 */
export async function editPermission(
  authority: Authority,
  session: SessionRecord,
  options: { edit?: boolean } = {},
): Promise<{ editable: boolean; reason?: string }> {
  if (!(await authority.identitiesConfigured())) {
    if (options.edit) await authority.verifyCredential(session);
    return { editable: true };
  }
  if ((await authority.currentRole(session)) === 'ADMIN') return { editable: true };
  return { editable: false, reason: NOT_ADMIN_REASON };
}

/** Who saved a definition: a verified email, else the client id (a typed email is unverified). */
function updatedBy(session: SessionRecord): string {
  const verified = session.user.identity === 'api' || session.user.identity === 'operator';
  return verified && session.user.email ? session.user.email : session.user.clientId;
}

function storeEntry(entry: StoredDefinition): WorkspaceEntry {
  return {
    definition: forHosted(entry.definition),
    source: 'store',
    updatedAt: new Date(entry.updatedAt).toISOString(),
    updatedBy: entry.updatedBy,
  };
}

function validation(
  status: 400 | 422,
  detail: string,
  issues: z.core.$ZodIssue[],
): ProblemException {
  return new ProblemException({
    status,
    code: 'validation',
    title: status === 400 ? 'Bad Request' : 'Unprocessable Content',
    detail,
    errors: fieldProblems(issues),
  });
}

type Scope = { session: SessionRecord; region: Region };

/**
 * The `/bff/workspace` router (mounted under `/bff`).
 *
 * @example
 * app.route('/bff', createWorkspaceRouter({ config, sessions, workspace, api, clock, authority }));
 */
export function createWorkspaceRouter(deps: {
  config: BffConfig;
  sessions: Sessions;
  workspace: WorkspaceStore;
  api: SessionApi;
  clock: Clock;
  /** Who administers the console now (the identities file as it is, ADR 0027). */
  authority: Authority;
}) {
  const { config, sessions, workspace, api, clock, authority } = deps;
  const router = createRouter();

  const hostedOnly = createMiddleware<AppEnv>(async (c, next) => {
    const session = c.var.session;
    if (!session) throw unauthenticated(false);
    if (!config.regions.some((r) => r.id === session.region)) {
      await sessions.destroy(session.idHash);
      throw unauthenticated(true);
    }
    if (session.profile !== 'hosted') {
      throw new ProblemException({
        status: 409,
        code: 'not_hosted',
        title: 'Conflict',
        detail:
          "This region's definitions come from the workspace API; there is nothing to set up here.",
      });
    }
    return next();
  });

  // Order matters: CSRF before the session is read, the profile before any handler.
  router.use(
    '/workspace/*',
    csrf({ unsafeOnly: true }),
    sessionMiddleware(sessions),
    requireAuth,
    hostedOnly,
  );
  const limit = jsonBodyLimit(config.maxJsonBodyBytes);

  const scope = (c: Context<AppEnv>): Scope => {
    const session = c.var.session;
    const region = config.regions.find((r) => r.id === session?.region);
    if (!session || !region) throw new Error('hostedOnly let a request without a region through');
    return { session, region };
  };

  /** The path's record type and alias, checked like the sample body: 400 naming the part. */
  const pathKey = (c: Context<AppEnv>) =>
    SampleInputSchema.safeParse({
      recordType: c.req.param('recordType'),
      alias: c.req.param('alias'),
    });

  /** The permission now; a refused credential ends the session, an unreachable API closes. */
  const permission = async (session: SessionRecord, edit: boolean) => {
    try {
      return await editPermission(authority, session, { edit });
    } catch (error) {
      throw await api.failure(error, session);
    }
  };

  /** Edits only: 403 (with the reason) for anyone who may not change the description now. */
  const mayEdit = async (session: SessionRecord) => {
    const allowed = await permission(session, true);
    if (!allowed.editable) {
      throw new ProblemException({
        status: 403,
        code: 'forbidden',
        title: 'Forbidden',
        detail: allowed.reason ?? 'You may not change the workspace description',
      });
    }
  };

  router.get('/workspace', async (c) => {
    const { session, region } = scope(c);
    const fromFile = new Set(region.workspace.map((d) => definitionKey(d.recordType, d.alias)));
    const stored = await workspace.list(region.id);
    const reply: Workspace = {
      ...(await permission(session, false)),
      items: [
        ...region.workspace.map((definition): WorkspaceEntry => ({
          definition: forHosted(definition),
          source: 'file',
        })),
        ...stored
          .filter((e) => !fromFile.has(definitionKey(e.definition.recordType, e.definition.alias)))
          .map(storeEntry),
      ],
    };
    return c.json(reply, 200, noStore);
  });

  router.post('/workspace/sample', limit, async (c) => {
    const { session, region } = scope(c);
    const parsed = SampleInputSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) {
      throw validation(400, 'Give the record type and alias to sample', parsed.error.issues);
    }
    const { recordType, alias } = parsed.data;
    try {
      const result: SampleResult = await api.run(
        session,
        region,
        'hosted',
        async (client, signal) => {
          // The published `GET /elements/{alias}` is getElement: name and handle, no records.
          if (recordType === 'elements') {
            return elementProposal(alias, await client.getElement(alias, { signal }));
          }
          const page = await client.searchRecords(recordType, alias, {
            first: SAMPLE_SIZE,
            signal,
          });
          return inferDefinition({
            recordType,
            alias,
            records: page.items.map((item) => item.data),
            total: page.total,
          });
        },
        c.req.raw.signal,
      );
      return c.json(result, 200, noStore);
    } catch (error) {
      if (isApiError(error)) {
        if (error.status === 403) {
          throw new ProblemException({
            status: 403,
            code: 'upstream_forbidden',
            title: 'Forbidden',
            detail: `Your credential may not read ${recordType}/${alias}`,
          });
        }
        if (error.status === 404) {
          throw new ProblemException({
            status: 404,
            code: 'upstream_not_found',
            title: 'Not Found',
            detail: `No ${recordType} with alias ${alias}`,
          });
        }
        if (error.status === 400 || error.status === 422) {
          throw new ProblemException({
            status: error.status,
            code: 'upstream_refused',
            title: error.status === 400 ? 'Bad Request' : 'Unprocessable Content',
            detail: `The service refused to list ${recordType}/${alias}: ${error.detail ?? error.title}`,
            ...(error.errors.length > 0 ? { errors: error.errors } : {}),
          });
        }
      }
      throw await api.failure(error, session);
    }
  });

  router.put('/workspace/definitions/:recordType/:alias', limit, async (c) => {
    const { session, region } = scope(c);
    await mayEdit(session);
    const key = pathKey(c);
    if (!key.success) throw validation(400, 'Not a record type and alias', key.error.issues);
    const parsed = DefinitionSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) {
      throw validation(400, 'The definition has problems', parsed.error.issues);
    }
    const definition = parsed.data;
    const mismatch = (['recordType', 'alias'] as const)
      .filter((part) => definition[part] !== key.data[part])
      .map((part) => ({ field: part, message: `Must be "${key.data[part]}", as in the path` }));
    const problems = [...mismatch, ...definitionProblems(definition, { limits: true })];
    if (problems.length > 0) {
      throw new ProblemException({
        status: 422,
        code: 'validation',
        title: 'Unprocessable Content',
        detail: 'The definition has problems',
        errors: problems,
      });
    }
    const recordType: RecordType = key.data.recordType;
    if (region.workspace.some((d) => d.recordType === recordType && d.alias === key.data.alias)) {
      throw new ProblemException({
        status: 409,
        code: 'defined_in_file',
        title: 'Conflict',
        detail: `${recordType}/${key.data.alias} is defined in the operator's workspace file; change it there`,
      });
    }
    const existing = await workspace.get(region.id, recordType, key.data.alias);
    if (!existing && (await workspace.count(region.id)) >= config.maxStoredDefinitions) {
      throw new ProblemException({
        status: 422,
        code: 'too_many_definitions',
        title: 'Unprocessable Content',
        detail: `At most ${config.maxStoredDefinitions} record types per region; remove one first`,
      });
    }
    const entry: StoredDefinition = {
      definition,
      updatedAt: clock.now(),
      updatedBy: updatedBy(session),
    };
    await workspace.save(region.id, entry);
    return c.json(storeEntry(entry), 200, noStore);
  });

  router.delete('/workspace/definitions/:recordType/:alias', async (c) => {
    const { session, region } = scope(c);
    await mayEdit(session);
    const key = pathKey(c);
    if (!key.success) throw validation(400, 'Not a record type and alias', key.error.issues);
    const { recordType, alias } = key.data;
    if (await workspace.remove(region.id, recordType, alias)) return c.body(null, 204, noStore);
    if (region.workspace.some((d) => d.recordType === recordType && d.alias === alias)) {
      throw new ProblemException({
        status: 409,
        code: 'defined_in_file',
        title: 'Conflict',
        detail: `${recordType}/${alias} is defined in the operator's workspace file; remove it there`,
      });
    }
    throw new ProblemException({
      status: 404,
      code: 'not_found',
      title: 'Not Found',
      detail: `No stored definition for ${recordType}/${alias}`,
    });
  });

  return router;
}
