import type { Definition, RecordType, WorkspaceEntry } from '@wsc/api-client';
import { RecordTypeSchema } from '@wsc/api-client';

/**
 * The key of a definition in the description (and in the BFF's URLs).
 *
 * @example
 * entryKey({ recordType: 'apps', alias: 'support' }); // 'apps/support'
 */
export function entryKey(definition: Pick<Definition, 'recordType' | 'alias'>): string {
  return `${definition.recordType}/${definition.alias}`;
}

/**
 * The entries grouped by record type, in the console's order (apps, elements, tasks,
 * transactions), each group sorted by name; empty groups are left out.
 *
 * @example
 * groupByRecordType(workspace.items); // [['apps', [...]], ['tasks', [...]]]
 */
export function groupByRecordType(items: WorkspaceEntry[]): [RecordType, WorkspaceEntry[]][] {
  return RecordTypeSchema.options.flatMap((recordType): [RecordType, WorkspaceEntry[]][] => {
    const entries = items
      .filter((entry) => entry.definition.recordType === recordType)
      .sort((a, b) => a.definition.name.localeCompare(b.definition.name));
    return entries.length > 0 ? [[recordType, entries]] : [];
  });
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * Where a definition comes from, in words.
 *
 * @example
 * sourceText({ source: 'file', definition }); // "From the operator's file (read-only)"
 * sourceText({ source: 'store', definition, updatedBy: 'ana@example.com', updatedAt: '2025-03-02T10:00:00.000Z' });
 * // 'Added here by ana@example.com on Mar 2, 2025'
 */
export function sourceText(entry: WorkspaceEntry): string {
  if (entry.source === 'file') return "From the operator's file (read-only)";
  const time = entry.updatedAt ? Date.parse(entry.updatedAt) : Number.NaN;
  const by = entry.updatedBy ? ` by ${entry.updatedBy}` : '';
  const on = Number.isNaN(time) ? '' : ` on ${dayFormat.format(time)}`;
  return `Added here${by}${on}`;
}
