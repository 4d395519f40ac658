// Bodies and replies of the saved views API. The filter is checked with the same RSQL parser the
// workspace API uses, so a view never stores a filter the list would then refuse.
import { z } from 'zod';

import { RecordTypeSchema } from '@wsc/api-client';

/** Names are trimmed; 1..80 characters after trimming. */
export const ViewNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(80, 'Name is at most 80 characters');

const SortSchema = z
  .string()
  .trim()
  .max(1024)
  .refine((value) => value === '' || value.split(',').length <= 5, 'At most 5 sort fields')
  .refine(
    (value) =>
      value === '' || value.split(',').every((part) => part.trim().replace(/^-/, '').trim() !== ''),
    'Every sort field needs a name: `-Created At,Title`',
  );

const ColumnsSchema = z.array(z.string().min(1).max(200)).max(200);

/** `POST /bff/views`. */
export const CreateViewSchema = z.object({
  name: ViewNameSchema,
  recordType: RecordTypeSchema,
  alias: z.string().min(1).max(200),
  filter: z.string().max(4096, 'The filter is at most 4,096 characters').default(''),
  sort: SortSchema.default(''),
  columns: ColumnsSchema.default([]),
});
export type CreateViewInput = z.infer<typeof CreateViewSchema>;

/** `PUT /bff/views/:id`: any subset; the definition of a view never changes. */
export const UpdateViewSchema = z
  .object({
    name: ViewNameSchema,
    filter: z.string().max(4096, 'The filter is at most 4,096 characters'),
    sort: SortSchema,
    columns: ColumnsSchema,
  })
  .partial()
  .strict();
export type UpdateViewInput = z.infer<typeof UpdateViewSchema>;

/** `GET /bff/views` query: both or neither of recordType and alias. */
export const ListViewsQuerySchema = z
  .object({
    recordType: RecordTypeSchema.optional(),
    alias: z.string().min(1).max(200).optional(),
  })
  .refine((q) => (q.recordType === undefined) === (q.alias === undefined), {
    message: 'Give both recordType and alias, or neither',
    path: ['alias'],
  });

/** What the `search` jsonb column holds. */
export const StoredSearchSchema = z.object({
  filter: z.string().catch(''),
  sort: z.string().catch(''),
  columns: z.array(z.string()).catch([]),
});

export type SavedView = {
  id: string;
  name: string;
  recordType: string;
  alias: string;
  filter: string;
  sort: string;
  columns: string[];
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
};
