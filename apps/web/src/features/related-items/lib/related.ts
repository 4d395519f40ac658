import type { Definition, RecordType, RecordTypeUpper, RelatedItem } from '@wsc/api-client';
import { eq, ilike, inList, or, serialize } from '@wsc/rsql';

const LOWER: Record<RecordTypeUpper, RecordType> = {
  APP: 'apps',
  ELEMENT: 'elements',
  TASK: 'tasks',
  TRANSACTION: 'transactions',
};

/**
 * The URL/path form of a related item's upper-case type.
 *
 * @example
 * recordTypePath('TASK'); // 'tasks'
 */
export function recordTypePath(type: RecordTypeUpper): RecordType {
  return LOWER[type];
}

/** A related item with what the list shows about it. */
export interface RelatedRow extends RelatedItem {
  recordType: RecordType;
  definition: Definition | undefined;
  /** The related record's title, or undefined when it could not be read. */
  title: string | undefined;
}

/** One batched title lookup: a definition and the ids to read from it. */
export interface TitleLookup {
  definition: Definition;
  filter: string;
  ids: string[];
}

/**
 * Groups related items by definition and builds one `id=in=(...)` search per definition, so the
 * titles of a whole list cost one request per definition rather than one per item.
 *
 * @example
 * titleLookups(items, definitions);
 * // [{ definition: tasks, ids: ['TSK-1', 'TSK-4'], filter: 'id=in=(TSK-1,TSK-4)' }]
 */
export function titleLookups(items: RelatedItem[], definitions: Definition[]): TitleLookup[] {
  const groups = new Map<Definition, string[]>();
  for (const item of items) {
    const definition = findRelatedDefinition(item, definitions);
    if (!definition) continue;
    groups.set(definition, [...(groups.get(definition) ?? []), item.id]);
  }
  return [...groups].map(([definition, ids]) => ({
    definition,
    ids,
    filter: serialize(inList('id', ids)),
  }));
}

/**
 * The definition a related item belongs to.
 *
 * @example
 * findRelatedDefinition({ id: 'TSK-1', type: 'TASK', alias: 'tasks', cursor: 'x' }, definitions);
 */
export function findRelatedDefinition(
  item: Pick<RelatedItem, 'type' | 'alias'>,
  definitions: Definition[],
): Definition | undefined {
  const recordType = recordTypePath(item.type);
  return definitions.find((d) => d.recordType === recordType && d.alias === item.alias);
}

/**
 * The RSQL filter of the add-relation picker: the definition's title field contains the term
 * (case-insensitive), or the id is exactly the term, so both `printer` and `SUP-12` find records.
 * Built with the RSQL builder, so whatever is typed stays a value.
 *
 * @example
 * pickerFilter(ticketsDefinition, 'printer'); // 'Title=lki=printer'
 * pickerFilter(ticketsDefinition, 'SUP-12'); // 'Title=lki=SUP-12,id==SUP-12'
 */
export function pickerFilter(definition: Definition, term: string): string | undefined {
  const trimmed = term.trim();
  if (!trimmed) return undefined;
  const titleField = definition.titleField ?? 'id';
  const byTitle = ilike(titleField, trimmed);
  const idPattern = new RegExp(`^${definition.handle}-\\d+$`, 'i');
  if (!idPattern.test(trimmed)) return serialize(byTitle);
  return serialize(or(byTitle, eq('id', trimmed.toUpperCase())));
}
