import { z } from 'zod';

/** Timestamps on the wire: `YYYY-MM-DDTHH:MM:SS.SSSZ` (UTC, millisecond precision). */
export const TimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'Expected YYYY-MM-DDTHH:MM:SS.SSSZ');

/** Cursor paging state; keys are snake_case as in the hosted API's `PagingState`. */
export const PagingSchema = z.object({
  has_previous_page: z.boolean(),
  start_cursor: z.string().nullable(),
  end_cursor: z.string().nullable(),
  has_next_page: z.boolean(),
});
export type Paging = z.infer<typeof PagingSchema>;

/**
 * The paged envelope every list endpoint returns.
 *
 * @example
 * const UserPagedListSchema = pagedListSchema(UserSchema);
 */
export function pagedListSchema<T extends z.ZodType>(item: T) {
  return z.object({
    paging: PagingSchema,
    total: z.number().int().nonnegative(),
    items: z.array(item),
  });
}
export type PagedList<T> = { paging: Paging; total: number; items: T[] };

/** Query parameters shared by every paged list: `first`/`after` forwards, `last`/`before` backwards. */
export const PageQuerySchema = z.object({
  first: z.coerce.number().int().min(1).max(1000).optional(),
  after: z.string().min(1).optional(),
  last: z.coerce.number().int().min(1).max(1000).optional(),
  before: z.string().min(1).optional(),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

export const RecordTypeSchema = z.enum(['apps', 'elements', 'tasks', 'transactions']);
export type RecordType = z.infer<typeof RecordTypeSchema>;
