// Makes the database agree with the workspace file: groups exist, definition access matches.
import { randomUUID } from 'node:crypto';

import type { Db } from '../db/client.ts';
import type { Workspace } from './definitions.ts';
import { ensureDefinitionIndexes } from '../db/definition-indexes.ts';

/**
 * Upserts the workspace's groups, rewrites `definition_access`, and creates definition indexes.
 *
 * @example
 * await syncWorkspace(db, workspace, { trgm: true });
 */
export async function syncWorkspace(
  db: Db,
  workspace: Workspace,
  options: { trgm: boolean },
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
          domains: JSON.stringify(group.domains),
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
