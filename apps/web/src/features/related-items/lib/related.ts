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

/** The related items list as cached: its rows and how many there are. */
export interface RelatedList {
  rows: RelatedRow[];
  total: number;
}

const UPPER: Record<RecordType, string> = {
  apps: 'APP',
  elements: 'ELEMENT',
  tasks: 'TASK',
  transactions: 'TRANSACTION',
};

/**
 * The row a record just related shows as, before the list is read again.
 *
 * @example
 * relatedRowFor(tasksDefinition, 'TSK-3', 'Replace toner');
 */
export function relatedRowFor(
  definition: Definition,
  id: string,
  title: string | undefined,
): RelatedRow {
  const recordType = definition.recordType as RecordType;
  const type = UPPER[recordType];
  return { id, type, alias: definition.alias, cursor: undefined, recordType, definition, title };
}

/**
 * The list with `row` added (at the end; once only).
 *
 * @example
 * withRelated(list, relatedRowFor(tasksDefinition, 'TSK-3', 'Replace toner'));
 */
export function withRelated(list: RelatedList, row: RelatedRow): RelatedList {
  if (list.rows.some((r) => r.id === row.id)) return list;
  return { rows: [...list.rows, row], total: list.total + 1 };
}

/**
 * The list without the related record `id`.
 *
 * @example
 * withoutRelated(list, 'TSK-3');
 */
export function withoutRelated(list: RelatedList, id: string): RelatedList {
  const rows = list.rows.filter((r) => r.id !== id);
  return { rows, total: list.total - (list.rows.length - rows.length) };
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
