import { z } from 'zod';

import { enumText, optionalText, pagedListSchema, RecordTypeSchema, requiredId } from './common.ts';

/** A field value as text: null is empty, numbers and booleans their text, lists comma-joined. */
const FieldValueSchema = z.unknown().transform((value): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((item) => String(item)).join(',');
  return JSON.stringify(value);
});

/**
 * A record: a flat object of strings keyed by the definition's field names (names may contain
 * spaces). Our API adds `id` (the handle) and the system fields `Created At`, `Created By`,
 * `Updated At`, `Updated By`; the hosted API promises none of them (see {@link recordHandle}).
 * Values that are not strings (null, numbers) are read as text rather than failing the page.
 */
export const RecordSchema = z.record(z.string(), FieldValueSchema);
export type RecordData = z.output<typeof RecordSchema>;

/** Write bodies: values must be strings; the server reports non-strings as 422 per field. */
export const RecordInputSchema = z.record(z.string(), z.unknown());
export type RecordInput = Record<string, string>;

export const RecordListItemSchema = z.object({
  cursor: optionalText(),
  data: RecordSchema.nullish().transform((data) => data ?? {}),
});
export type RecordListItem = z.output<typeof RecordListItemSchema>;

export const RecordPagedListSchema = pagedListSchema(RecordListItemSchema);
export type RecordPagedList = z.output<typeof RecordPagedListSchema>;

/** Elementum's AspectFieldType. */
export const FieldTypeSchema = z.enum([
  'ATTACHMENT_ID',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'DECIMAL',
  'GROUP_ID',
  'HANDLE',
  'HTML',
  'JSON',
  'MULTI_PICKLIST',
  'NUMBER',
  'PICKLIST',
  'TEXT',
  'USER_ID',
]);
export type FieldType = z.infer<typeof FieldTypeSchema>;

export const FieldSchema = z.object({
  name: z.string().min(1),
  type: FieldTypeSchema,
  required: z.boolean().default(false),
  values: z.array(z.string()).optional(),
  /** Never writable: our API's system fields, or a hosted record's handle and audit fields. */
  readOnly: z.boolean().optional(),
});
export type Field = z.output<typeof FieldSchema>;

/**
 * A record definition as the console uses it: `GET /v1/definitions` of our API (extension) and
 * `GET /bff/definitions` of the BFF in both profiles.
 */
export const DefinitionSchema = z.object({
  recordType: RecordTypeSchema,
  alias: z.string().min(1),
  name: z.string().min(1),
  handle: z.string(),
  /** The field that holds a record's handle (`id` in our API); absent: records carry none. */
  handleField: z.string().optional(),
  /** The field shown as the record's title in lists and pickers. */
  titleField: z.string().optional(),
  /**
   * False where the server cannot list these records: the hosted API's `GET /elements/{alias}`
   * is getElement, so elements open by handle only. Absent means true.
   */
  listable: z.boolean().optional(),
  fields: z.array(FieldSchema),
});
export type Definition = z.output<typeof DefinitionSchema>;

export const DefinitionListSchema = z.object({ items: z.array(DefinitionSchema) });
export type DefinitionList = z.output<typeof DefinitionListSchema>;

/**
 * A record's handle (`SUP-42`, the id in its URL): `data.id` when the server sends it (our API),
 * else the definition's `handleField`. `undefined` when neither has a value: such a record can be
 * listed but not opened.
 *
 * @example
 * recordHandle({ id: 'SUP-42', Title: 'Printer' }); // 'SUP-42'
 * recordHandle({ 'Ticket ID': 'SUP-42' }, { handleField: 'Ticket ID' }); // 'SUP-42'
 * recordHandle({ Title: 'Printer' }, { handleField: undefined }); // undefined
 */
export function recordHandle(
  data: RecordData,
  definition?: Pick<Definition, 'handleField'>,
): string | undefined {
  const id = data['id'];
  if (id) return id;
  const field = definition?.handleField;
  return field ? data[field] || undefined : undefined;
}

export const RecordTypeUpperSchema = z.enum(['APP', 'ELEMENT', 'TASK', 'TRANSACTION']);
export type RecordTypeUpper = z.infer<typeof RecordTypeUpperSchema>;

/** A related record: `id` (its handle) is needed; `type` is upper-cased text (`TASK`). */
export const RelatedItemSchema = z.object({
  id: requiredId(),
  type: enumText().transform((value) => value ?? ''),
  alias: optionalText(),
  cursor: optionalText(),
});
export type RelatedItem = z.output<typeof RelatedItemSchema>;

export const RelatedPagedListSchema = pagedListSchema(RelatedItemSchema);
export type RelatedPagedList = z.output<typeof RelatedPagedListSchema>;

export const RelatedItemInputSchema = z.object({
  id: z.string().min(1),
  alias: z.string().min(1).optional(),
});
export type RelatedItemInput = z.infer<typeof RelatedItemInputSchema>;

/** Query of `GET /{recordType}/{alias}`: paging plus RSQL `filter` and `sort` (extension). */
export const RecordSearchQuerySchema = z.object({
  filter: z.string().optional(),
  sort: z.string().optional(),
});
export type RecordSearchQuery = z.infer<typeof RecordSearchQuerySchema>;

/**
 * `GET /elements/{alias}` of the published contract (getElement): an element definition's
 * metadata. Nothing is required.
 */
export const AspectSchema = z.looseObject({
  id: optionalText(),
  name: optionalText(),
  handle: optionalText(),
  namespace: optionalText(),
  description: optionalText(),
});
export type Aspect = z.output<typeof AspectSchema>;
