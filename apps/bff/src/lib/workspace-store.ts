// Definitions saved on the Workspace setup page, per region, in the BFF's store (table
// workspace_definitions, migration 0004), and the region's whole description: file + store.
import type { Kysely, Selectable } from 'kysely';

import type { Definition, RecordType } from '@wsc/api-client';
import { DefinitionSchema } from '@wsc/api-client';

import type { BffDatabase, WorkspaceDefinitionsTable } from '../db/schema.ts';
import type { Region, RegionId } from './region.ts';
import { definitionKey, forHosted } from './workspace-definitions.ts';

export type StoredDefinition = {
  definition: Definition;
  updatedAt: number;
  updatedBy: string;
};

function toStored(row: Selectable<WorkspaceDefinitionsTable>): StoredDefinition | undefined {
  const raw: unknown =
    typeof row.definition === 'string' ? JSON.parse(row.definition) : row.definition;
  // Checked before writing; a row that no longer parses (a schema change) is left out, not a 500.
  const parsed = DefinitionSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  return {
    definition: parsed.data,
    updatedAt: Number(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/**
 * The store's side of the workspace description.
 *
 * @example
 * const store = workspaceStore(db);
 * const saved = await store.list('default');
 */
export function workspaceStore(db: Kysely<BffDatabase>) {
  return {
    /** Stored definitions of a region, by record type and alias. */
    async list(region: RegionId): Promise<StoredDefinition[]> {
      const rows = await db
        .selectFrom('workspace_definitions')
        .selectAll()
        .where('region', '=', region)
        .orderBy('record_type')
        .orderBy('alias')
        .execute();
      return rows.map(toStored).filter((entry) => entry !== undefined);
    },

    async get(
      region: RegionId,
      recordType: RecordType,
      alias: string,
    ): Promise<StoredDefinition | undefined> {
      const row = await db
        .selectFrom('workspace_definitions')
        .selectAll()
        .where('region', '=', region)
        .where('record_type', '=', recordType)
        .where('alias', '=', alias)
        .executeTakeFirst();
      return row ? toStored(row) : undefined;
    },

    async count(region: RegionId): Promise<number> {
      const row = await db
        .selectFrom('workspace_definitions')
        .select(({ fn }) => fn.countAll<number | string>().as('n'))
        .where('region', '=', region)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Insert or replace one definition (keyed by region, record type and alias). */
    async save(region: RegionId, entry: StoredDefinition): Promise<void> {
      const values = {
        region,
        record_type: entry.definition.recordType,
        alias: entry.definition.alias,
        definition: JSON.stringify(entry.definition),
        updated_at: entry.updatedAt,
        updated_by: entry.updatedBy,
      };
      await db
        .insertInto('workspace_definitions')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['region', 'record_type', 'alias']).doUpdateSet({
            definition: values.definition,
            updated_at: values.updated_at,
            updated_by: values.updated_by,
          }),
        )
        .execute();
    },

    /** True when a definition was removed. */
    async remove(region: RegionId, recordType: RecordType, alias: string): Promise<boolean> {
      const result = await db
        .deleteFrom('workspace_definitions')
        .where('region', '=', region)
        .where('record_type', '=', recordType)
        .where('alias', '=', alias)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type WorkspaceStore = ReturnType<typeof workspaceStore>;

/**
 * A hosted region's definitions: the operator's file first (in file order), then the stored ones.
 * Elements are marked not listable.
 *
 * @example
 * const { items } = { items: await hostedDefinitions(store, region) };
 */
export async function hostedDefinitions(
  store: WorkspaceStore,
  region: Region,
): Promise<Definition[]> {
  const stored = await store.list(region.id);
  const fromFile = new Set(region.workspace.map((d) => definitionKey(d.recordType, d.alias)));
  return [
    ...region.workspace,
    // A file definition cannot be saved over (409), but one may have been stored before the
    // operator added it to the file: the file wins.
    ...stored
      .map((entry) => entry.definition)
      .filter((d) => !fromFile.has(definitionKey(d.recordType, d.alias))),
  ].map(forHosted);
}
