import { z } from 'zod';

import { pagedListSchema, RecordTypeSchema } from './common.ts';

/**
 * A record: a flat object of strings keyed by the definition's field names (names may contain
 * spaces). Always carries `id` and the read-only system fields on responses.
 */
export const RecordSchema = z.record(z.string(), z.string());
export type RecordData = z.infer<typeof RecordSchema>;

/** A record as returned by get/create/update: `id` and system fields are always present. */
export const StoredRecordSchema = RecordSchema.and(
  z.object({
    id: z.string(),
    'Created At': z.string(),
    'Created By': z.string(),
    'Updated At': z.string(),
    'Updated By': z.string(),
  }),
);
export type StoredRecord = z.infer<typeof StoredRecordSchema>;

/** Write bodies: values must be strings; the server reports non-strings as 422 per field. */
export const RecordInputSchema = z.record(z.string(), z.unknown());
export type RecordInput = Record<string, string>;

export const RecordListItemSchema = z.object({
  cursor: z.string(),
  data: RecordSchema,
});
export type RecordListItem = z.infer<typeof RecordListItemSchema>;

export const RecordPagedListSchema = pagedListSchema(RecordListItemSchema);
export type RecordPagedList = z.infer<typeof RecordPagedListSchema>;

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
  name: z.string(),
  type: FieldTypeSchema,
  required: z.boolean(),
  values: z.array(z.string()).optional(),
  /** True for the system fields (`id`, `Created At`, ...): never writable. */
  readOnly: z.boolean().optional(),
});
export type Field = z.infer<typeof FieldSchema>;

export const DefinitionSchema = z.object({
  recordType: RecordTypeSchema,
  alias: z.string(),
  name: z.string(),
  handle: z.string(),
  /** The field shown as the record's title in lists and pickers. */
  titleField: z.string().optional(),
  fields: z.array(FieldSchema),
});
export type Definition = z.infer<typeof DefinitionSchema>;

/** `GET /v1/definitions` (extension). */
export const DefinitionListSchema = z.object({ items: z.array(DefinitionSchema) });
export type DefinitionList = z.infer<typeof DefinitionListSchema>;

export const RecordTypeUpperSchema = z.enum(['APP', 'ELEMENT', 'TASK', 'TRANSACTION']);
export type RecordTypeUpper = z.infer<typeof RecordTypeUpperSchema>;

export const RelatedItemSchema = z.object({
  id: z.string(),
  type: RecordTypeUpperSchema,
  alias: z.string(),
  cursor: z.string(),
});
export type RelatedItem = z.infer<typeof RelatedItemSchema>;

export const RelatedPagedListSchema = pagedListSchema(RelatedItemSchema);
export type RelatedPagedList = z.infer<typeof RelatedPagedListSchema>;

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
