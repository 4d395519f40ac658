// Makes the database agree with the workspace file: groups exist, definition access matches.
import { createHash, randomUUID } from 'node:crypto';

import type { Db } from '../db/client.ts';
import type { IndexFeatures } from '../db/definition-indexes.ts';
import type { Workspace } from './definitions.ts';
import { ensureDefinitionIndexes } from '../db/definition-indexes.ts';

/**
 * A stable id for a group's email domain rule (the published GroupDomain is `{id, domain}`): a
 * name-based UUID (version 5 layout) of the group name and the domain, so that it is the same at
 * every start and in every region, and changes only when the rule does.
 *
 * @example
 * domainRuleId('Support Tier 1', 'example.com'); // '6f1c...-...'
 */
export function domainRuleId(groupName: string, domain: string): string {
  const bytes = createHash('sha1').update(`group-domain\u0000${groupName}\u0000${domain}`).digest();
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Upserts the workspace's groups, rewrites `definition_access`, and creates definition indexes.
 *
 * @example
 * await syncWorkspace(db, workspace, { trgm: true, btreeGin: true });
 */
export async function syncWorkspace(
  db: Db,
  workspace: Workspace,
  options: IndexFeatures,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    for (const group of workspace.groups) {
      await trx
        .insertInto('groups')
        .values({
          id: randomUUID(),
          name: group.name,
          assignable: group.assignable,
          watchable: group.watchable,
          mentionable: group.mentionable,
          managed: group.managed,
          dynamic: group.dynamic,
          // Every domain rule carries an id: the file's, else a stable one.
          domains: JSON.stringify(
            group.domains.map((rule) => ({
              id: rule.id ?? domainRuleId(group.name, rule.domain ?? ''),
              domain: rule.domain ?? '',
            })),
          ),
          created_at: now,
        })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({
            assignable: eb.ref('excluded.assignable'),
            watchable: eb.ref('excluded.watchable'),
            mentionable: eb.ref('excluded.mentionable'),
            managed: eb.ref('excluded.managed'),
            dynamic: eb.ref('excluded.dynamic'),
            domains: eb.ref('excluded.domains'),
          })),
        )
        .execute();
    }
    const groups = await trx.selectFrom('groups').select(['id', 'name']).execute();
    const idByName = new Map(groups.map((group) => [group.name, group.id]));
    await trx.deleteFrom('definition_access').execute();
    const rows = workspace.definitions.flatMap((definition) =>
      definition.groups.flatMap((name) => {
        const groupId = idByName.get(name);
        return groupId ? [{ alias: definition.alias, group_id: groupId }] : [];
      }),
    );
    if (rows.length > 0) await trx.insertInto('definition_access').values(rows).execute();
  });
  await ensureDefinitionIndexes(db, workspace.definitions, options);
}
