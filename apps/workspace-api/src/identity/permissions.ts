// Who may do what: ADMIN everything; MEMBER reads users and groups and uses the definitions open to
// one of their groups.
import type { Context } from 'hono';

import type { RecordRow } from '../db/schema.ts';
import type { AppEnv } from '../lib/types.ts';
import type { WorkspaceDefinition } from '../workspace/definitions.ts';
import { forbidden, notFound } from '../lib/errors.ts';

/**
 * Throws 403 unless the caller is an ADMIN.
 *
 * @example
 * requireAdmin(c, 'Only administrators may create users');
 */
export function requireAdmin(c: Context<AppEnv>, detail = 'Only administrators may do this'): void {
  if (c.var.principal.role !== 'ADMIN') throw forbidden(detail);
}

/**
 * The aliases the caller may read and write (cached for the request).
 *
 * @example
 * const aliases = await allowedAliases(c);
 */
export async function allowedAliases(c: Context<AppEnv>): Promise<Set<string>> {
  const cached = c.get('allowedAliases');
  if (cached) return cached;
  const { deps, principal } = c.var;
  let aliases: Set<string>;
  if (principal.role === 'ADMIN') {
    aliases = new Set(deps.workspace.definitions.map((definition) => definition.alias));
  } else {
    const rows = await deps.db
      .selectFrom('definition_access')
      .innerJoin('group_members', 'group_members.group_id', 'definition_access.group_id')
      .select('definition_access.alias')
      .distinct()
      .where('group_members.user_id', '=', principal.userId)
      .execute();
    aliases = new Set(rows.map((row) => row.alias));
  }
  c.set('allowedAliases', aliases);
  return aliases;
}

/**
 * The definition for `{recordType}/{alias}`: 404 when unknown, 403 when closed to the caller.
 *
 * @example
 * const { recordType, alias } = request.params();
 * const definition = await resolveDefinition(c, recordType, alias);
 */
export async function resolveDefinition(
  c: Context<AppEnv>,
  recordType: string,
  alias: string,
): Promise<WorkspaceDefinition> {
  const definition = c.var.deps.workspace.find(recordType, alias);
  if (!definition) throw notFound(`No definition ${recordType}/${alias}`);
  if (!(await allowedAliases(c)).has(definition.alias)) {
    throw forbidden(`You have no access to ${recordType}/${alias}`);
  }
  return definition;
}

/**
 * Loads one record of a definition the caller may use; 404 when absent.
 *
 * @example
 * const { definition, record } = await resolveRecord(c, 'apps', 'support-tickets', 'SUP-1');
 */
export async function resolveRecord(
  c: Context<AppEnv>,
  recordType: string,
  alias: string,
  id: string,
): Promise<{ definition: WorkspaceDefinition; record: RecordRow }> {
  const definition = await resolveDefinition(c, recordType, alias);
  const record = await c.var.deps.db
    .selectFrom('records')
    .selectAll()
    .where('id', '=', id)
    .where('alias', '=', definition.alias)
    .executeTakeFirst();
  if (!record) throw notFound(`No record ${id} in ${recordType}/${alias}`);
  return { definition, record };
}

/**
 * The definition and record for a bare record id (e.g. a related item's `{id}`), checking access.
 *
 * @example
 * const target = await resolveRecordById(c, 'CUS-7'); // 404 unknown, 403 closed
 */
export async function resolveRecordById(
  c: Context<AppEnv>,
  id: string,
): Promise<{ definition: WorkspaceDefinition; record: RecordRow } | undefined> {
  const definition = c.var.deps.workspace.findByRecordId(id);
  if (!definition) return undefined;
  const record = await c.var.deps.db
    .selectFrom('records')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!record) return undefined;
  if (!(await allowedAliases(c)).has(definition.alias))
    throw forbidden(`You have no access to ${id}`);
  return { definition, record };
}
