// Bodies and replies of the BFF's saved views API (`/bff/views`), shared by the BFF (which
// validates and answers with them) and the console (which parses with them). The BFF also checks a
// filter with the RSQL parser the workspace API uses, so a view never stores a filter the list would
// then refuse. Every text is refused with NUL or unpaired surrogates (PostgreSQL cannot store the
// one, jsonb not the other), naming the field, before anything reaches the store.
import { z } from 'zod';

import { RecordTypeSchema } from './common.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a text cannot be stored, or undefined when it can.
 *
 * @example
 * unstorableText('a\u0000b'); // 'Must not contain NUL characters'
 * unstorableText('\ud800'); // 'Must not contain unpaired surrogates'
 */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'Must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'Must not contain unpaired surrogates';
  return undefined;
}

/** A string refined to text the store can keep; the issue lands on the field's own path. */
const storable = <S extends z.ZodType<string>>(schema: S) =>
  schema.superRefine((value, ctx) => {
    const problem = unstorableText(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Names are trimmed; 1..80 characters after trimming. */
export const ViewNameSchema = storable(
  z.string().trim().min(1, 'Name is required').max(80, 'Name is at most 80 characters'),
);

/**
 * An alias as the console puts it in a URL path segment (the rule of the Workspace setup page's
 * `SampleInputSchema`): whether it names a definition is checked against the session's
 * definitions by the route.
 */
export const ViewAliasSchema = storable(
  z
    .string()
    .min(1, 'Give the alias')
    .max(200)
    .regex(/^[^/?#\s]*$/, 'An alias has no slashes, spaces, ? or #'),
);

const SortSchema = storable(
  z
    .string()
    .trim()
    .max(1024)
    .refine((value) => value === '' || value.split(',').length <= 5, 'At most 5 sort fields')
    .refine(
      (value) =>
        value === '' ||
        value.split(',').every((part) => part.trim().replace(/^-/, '').trim() !== ''),
      'Every sort field needs a name: `-Created At,Title`',
    ),
);

const FilterSchema = storable(z.string().max(4096, 'The filter is at most 4,096 characters'));

const ColumnsSchema = z.array(storable(z.string().min(1).max(200))).max(200);

/** `POST /bff/views`. */
export const CreateViewSchema = z.object({
  name: ViewNameSchema,
  recordType: RecordTypeSchema,
  alias: ViewAliasSchema,
  filter: FilterSchema.default(''),
  sort: SortSchema.default(''),
  columns: ColumnsSchema.default([]),
});
/** What the console sends; `filter`, `sort` and `columns` default to empty. */
export type CreateViewInput = z.input<typeof CreateViewSchema>;

/** `PUT /bff/views/:id`: any subset; the definition of a view never changes. */
export const UpdateViewSchema = z
  .object({
    name: ViewNameSchema,
    filter: FilterSchema,
    sort: SortSchema,
    columns: ColumnsSchema,
  })
  .partial()
  .strict();
export type UpdateViewInput = z.input<typeof UpdateViewSchema>;

/** `GET /bff/views` query: both or neither of recordType and alias. */
export const ListViewsQuerySchema = z
  .object({
    recordType: RecordTypeSchema.optional(),
    alias: ViewAliasSchema.optional(),
  })
  .refine((q) => (q.recordType === undefined) === (q.alias === undefined), {
    message: 'Give both recordType and alias, or neither',
    path: ['alias'],
  });
export type ListViewsQuery = z.input<typeof ListViewsQuerySchema>;

/** At most this many groups one view is shared with (besides everyone in the region). */
export const MAX_VIEW_SHARE_GROUPS = 10;

/**
 * `PUT /bff/views/:id/shares`: who else may read the view, replacing what was there. Both empty
 * is the same as `DELETE .../shares` (private again).
 */
export const ViewSharesInputSchema = z.strictObject({
  /** Everyone signed in to the view's region. */
  everyone: z.boolean(),
  groups: z
    .array(z.uuid('A group id is a UUID'))
    .max(MAX_VIEW_SHARE_GROUPS, `At most ${MAX_VIEW_SHARE_GROUPS} groups per view`)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      message: 'A group is named twice',
    })
    .default([]),
});
export type ViewSharesInput = z.input<typeof ViewSharesInputSchema>;

/** Who a view is shared with, as its owner sees it. */
export const ViewSharesSchema = z.object({
  everyone: z.boolean(),
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type ViewShares = z.infer<typeof ViewSharesSchema>;

/** A saved view as the routes answer it (`GET /bff/views` items, and every single view). */
export const SavedViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** Checked when the view was created. */
  recordType: RecordTypeSchema,
  alias: z.string(),
  filter: z.string(),
  sort: z.string(),
  columns: z.array(z.string()),
  isDefault: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** The owner's own views: who else may read it (absent on views shared with you). */
  shares: ViewSharesSchema.optional(),
  /** Views shared with you (read-only): the name of who shared it. Absent on your own. */
  sharedBy: z.string().optional(),
  /**
   * How verified `sharedBy` is (ADR 0026): an IdentitySource (`api`, `operator`, `self`, `none`;
   * read any other value as `self`). A `self` name is an email typed at sign-in and already ends
   * in `(unverified)`. Absent on your own views. A plain string here: the console's first load
   * parses this schema and needs only `sharedBy`.
   */
  sharedByIdentity: z.string().optional(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

/** `GET /bff/views`. */
export const SavedViewListSchema = z.object({ items: z.array(SavedViewSchema) });
export type SavedViewList = z.infer<typeof SavedViewListSchema>;

/** `GET /bff/views/shared`: other people's views shared with the session, read-only. */
export const SharedViewListSchema = z.object({
  items: z.array(SavedViewSchema),
  /**
   * Whether views shared with a group can reach this session (and whether it may share with
   * groups): only when the BFF knows the person's user id for sure; otherwise `reason` says why
   * and only "everyone in the region" applies.
   */
  groupSharing: z.object({ available: z.boolean(), reason: z.string().optional() }),
});
export type SharedViewList = z.infer<typeof SharedViewListSchema>;
