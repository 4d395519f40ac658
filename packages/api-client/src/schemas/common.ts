import { z } from 'zod';

// The reply schemas of this entry point accept every reply the hosted API's published OpenAPI
// allows: that document marks no response property as required, so none is here unless a client
// cannot work without it, and then the parse error names it. Missing keys get neutral defaults,
// `null` counts as missing, enums are upper-cased text (an unknown value shows as text). The exact
// shapes our own API promises are in `@wsc/api-client/strict`.

/**
 * A text property: missing or null becomes `fallback`; numbers and booleans become their text.
 *
 * @example
 * z.object({ name: text() }).parse({}); // { name: '' }
 */
export function text(fallback = '') {
  return z
    .union([z.string(), z.number(), z.boolean()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? fallback : String(value)));
}

/**
 * A text property that stays `undefined` when missing or null (for values with no neutral default).
 *
 * @example
 * z.object({ jobTitle: optionalText() }).parse({ jobTitle: null }); // { jobTitle: undefined }
 */
export function optionalText() {
  return z
    .union([z.string(), z.number(), z.boolean()])
    .nullish()
    .transform((value) => (value === null || value === undefined ? undefined : String(value)));
}

/**
 * An enum-like property as upper-case text (`processing` -> `PROCESSING`), `undefined` when missing.
 *
 * @example
 * z.object({ state: enumText() }).parse({ state: 'valid' }); // { state: 'VALID' }
 */
export function enumText() {
  return z
    .string()
    .nullish()
    .transform((value) => (value ? value.toUpperCase() : undefined));
}

/**
 * A flag: missing or null is `fallback` (false unless given).
 *
 * @example
 * z.object({ dynamic: flag() }).parse({}); // { dynamic: false }
 */
export function flag(fallback = false) {
  return z
    .boolean()
    .nullish()
    .transform((value) => value ?? fallback);
}

/**
 * A property the console cannot work without (an id it links or writes by): must be non-empty
 * text; the parse error names the key.
 *
 * @example
 * z.object({ id: requiredId() }).safeParse({}).success; // false: "id: Required"
 */
export function requiredId() {
  return z.union([z.string().min(1), z.number()]).transform((value) => String(value));
}

/** Cursor paging state; keys are snake_case as in the hosted API's `PagingState`. */
export const PagingSchema = z
  .object({
    has_previous_page: flag(),
    start_cursor: z
      .string()
      .nullish()
      .transform((value) => value || null),
    end_cursor: z
      .string()
      .nullish()
      .transform((value) => value || null),
    has_next_page: flag(),
  })
  .nullish()
  .transform(
    (paging) =>
      paging ?? {
        has_previous_page: false,
        start_cursor: null,
        end_cursor: null,
        has_next_page: false,
      },
  );
export type Paging = z.output<typeof PagingSchema>;

/**
 * Items of a list, each parsed on its own: an item the console cannot use (one without the id it
 * links by) is left out and counted instead of failing the whole page, with the first reason kept
 * so the page can say what was wrong.
 *
 * @example
 * const UsersSchema = itemsOf(UserSchema); // { items: User[], skipped: number, skippedReason?: string }
 */
export function itemsOf<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown())
    .nullish()
    .transform((raw) => {
      const items: z.output<T>[] = [];
      let skipped = 0;
      let skippedReason: string | undefined;
      for (const [index, value] of (raw ?? []).entries()) {
        const parsed = item.safeParse(value);
        if (parsed.success) {
          items.push(parsed.data);
          continue;
        }
        skipped++;
        const issue = parsed.error.issues[0];
        skippedReason ??= `item ${index}: ${issue ? `${issue.path.join('.') || '(item)'}: ${issue.message}` : 'unreadable'}`;
      }
      return { items, skipped, skippedReason };
    });
}

/**
 * The paged envelope every list endpoint returns. `total` is `undefined` when the reply has none
 * (the published contract does not promise it): show "100+" rather than a made-up count. Items
 * that cannot be used are left out and counted in `skipped` (see {@link itemsOf}).
 *
 * @example
 * const UserPagedListSchema = pagedListSchema(UserSchema);
 */
export function pagedListSchema<T extends z.ZodType>(item: T) {
  return z
    .object({
      paging: PagingSchema,
      total: z
        .number()
        .nullish()
        .transform((value) =>
          value !== null && value !== undefined && Number.isInteger(value) && value >= 0
            ? value
            : undefined,
        ),
      items: itemsOf(item),
    })
    .transform(({ paging, total, items }) => ({
      paging,
      total,
      items: items.items,
      skipped: items.skipped,
      ...(items.skippedReason === undefined ? {} : { skippedReason: items.skippedReason }),
    }));
}
export type PagedList<T> = {
  paging: Paging;
  total: number | undefined;
  items: T[];
  /** Items left out because they lacked what the console needs (e.g. an id). */
  skipped: number;
  skippedReason?: string;
};

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
