import type { Definition, RecordType, RelatedItem } from '@wsc/api-client';
import { eq, ilike, inList, or, serialize } from '@wsc/rsql';

const LOWER: Record<string, RecordType> = {
  APP: 'apps',
  ELEMENT: 'elements',
  TASK: 'tasks',
  TRANSACTION: 'transactions',
};

/**
 * The URL/path form of a related item's upper-case type; undefined for a type the console does not
 * know (the published contract leaves `type` free text).
 *
 * @example
 * recordTypePath('TASK'); // 'tasks'
 */
export function recordTypePath(type: string): RecordType | undefined {
  return LOWER[type.toUpperCase()];
}

/** A related item with what the list shows about it. */
export interface RelatedRow extends RelatedItem {
  /** Where it opens; undefined when neither its type nor its handle names a known definition. */
  recordType: RecordType | undefined;
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
 * Groups related items by definition and builds one `<handle field>=in=(...)` search per
 * definition, so the titles of a whole list cost one request per definition rather than one per
 * item. Definitions whose records have no handle field, or that cannot be listed, get none.
 *
 * @example
 * titleLookups(items, definitions);
 * // [{ definition: tasks, ids: ['TSK-1', 'TSK-4'], filter: 'id=in=(TSK-1,TSK-4)' }]
 */
export function titleLookups(items: RelatedItem[], definitions: Definition[]): TitleLookup[] {
  const groups = new Map<Definition, string[]>();
  for (const item of items) {
    const definition = findRelatedDefinition(item, definitions);
    if (!definition?.handleField || !definition.titleField || definition.listable === false) {
      continue;
    }
    groups.set(definition, [...(groups.get(definition) ?? []), item.id]);
  }
  return [...groups].map(([definition, ids]) => ({
    definition,
    ids,
    filter: serialize(inList(definition.handleField ?? 'id', ids)),
  }));
}

/**
 * The definition a related item belongs to: by its type and alias, else (the published contract
 * does not promise `alias`) by the handle prefix of its id.
 *
 * @example
 * findRelatedDefinition({ id: 'TSK-1', type: 'TASK', alias: 'tasks' }, definitions);
 * findRelatedDefinition({ id: 'TSK-1', type: 'TASK', alias: undefined }, definitions);
 */
export function findRelatedDefinition(
  item: Pick<RelatedItem, 'id' | 'type' | 'alias'>,
  definitions: Definition[],
): Definition | undefined {
  const recordType = recordTypePath(item.type);
  const byAlias = definitions.find((d) => d.recordType === recordType && d.alias === item.alias);
  if (byAlias) return byAlias;
  const prefix = /^([A-Za-z][A-Za-z0-9]*)-\d+$/.exec(item.id)?.[1]?.toUpperCase();
  return definitions.find(
    (d) =>
      d.handle.toUpperCase() === prefix &&
      (recordType === undefined || d.recordType === recordType),
  );
}

/**
 * The RSQL filter of the add-relation picker: the definition's title field contains the term
 * (case-insensitive), or the handle field is exactly the term, so both `printer` and `SUP-12` find
 * records. Built with the RSQL builder, so whatever is typed stays a value.
 *
 * @example
 * pickerFilter(ticketsDefinition, 'printer'); // 'Title=lki=printer'
 * pickerFilter(ticketsDefinition, 'SUP-12'); // 'Title=lki=SUP-12,id==SUP-12'
 */
export function pickerFilter(definition: Definition, term: string): string | undefined {
  const trimmed = term.trim();
  if (!trimmed) return undefined;
  const handleField = definition.handleField;
  const titleField = definition.titleField ?? handleField;
  if (!titleField) return undefined;
  const byTitle = ilike(titleField, trimmed);
  const idPattern = new RegExp(`^${definition.handle}-\\d+$`, 'i');
  if (!handleField || !idPattern.test(trimmed)) return serialize(byTitle);
  return serialize(or(byTitle, eq(handleField, trimmed.toUpperCase())));
}
