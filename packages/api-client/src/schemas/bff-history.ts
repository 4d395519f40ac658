// Replies and queries of the BFF's record history (`/bff/history`): every change made through the
// console, written by the BFF's proxy after the upstream accepted it (ADR 0024). The API has no
// history of its own, so changes made elsewhere are not in it. Shared by the BFF (which validates
// and answers with them) and the console (which parses with them).
import { z } from 'zod';

import { unstorableText } from './bff-saved-views.ts';
import { RecordTypeSchema } from './common.ts';
import { RecordChangeKindSchema } from './record-change-kind.ts';
import { ShownIdentitySchema } from './shown-identity.ts';

/** The header row of `GET /bff/history/export.csv`, one column per entry member. */
export const HISTORY_CSV_HEADER = [
  'At (UTC)',
  'User id',
  'User',
  'Record type',
  'Alias',
  'Record',
  'Kind',
  'Field',
  'Before',
  'After',
  'Source',
  // Last, so that a reader of the columns before it (by position) is not thrown off.
  'Identity',
] as const;

/** Entries one page holds at most (the default is 50). */
export const MAX_HISTORY_PAGE = 200;

/**
 * Where in the console a change was made, as the console names it in `X-Change-Source`:
 * `editor`, `triage`, `create`, `comments`, `related-items`, `attachments`, `watchers`,
 * `bulk-run:<run id>` (`bulk-run` for a run too large to keep for undo), `undo:<run id>`; `console`
 * when the header was missing or not one of these.
 */
export const CHANGE_SOURCE_PATTERN =
  /^(?:console|editor|triage|create|comments|related-items|attachments|watchers|bulk-run|(?:bulk-run|undo):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** What kind of change an entry records (the proxy's classification of the write). */
export const HistoryKindSchema = RecordChangeKindSchema;
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

/**
 * The `field` of the one entry kept for a change past its author's daily history budget (with
 * `notKept: true`): the change happened, its values were not kept.
 */
export const NOT_KEPT_FIELD = '(not kept: daily history budget used up)';

/**
 * What a related-item entry shows instead of its target when the reader cannot see the target's
 * definition (the per-record history masks it at read time; the administrators' log does not).
 */
export const HIDDEN_RELATED_ITEM = '(a record you cannot see)';

/**
 * One entry: one field of one change (a change of three fields is three entries with one
 * `changeId`). `before`/`after` are the values as the API sent them (text, usually), null where
 * there was none; a value longer than the BFF keeps ends in `… [truncated]`. `actor.id` is the
 * stable id of who made it (the one the `user` filter takes); `actor.name` is only as verified as
 * `identity` says (ADR 0026): `self` names are an email typed at sign-in, marked `(unverified)`.
 * `source` is where the console said the change was made: a hint the browser chose, not evidence.
 */
export const HistoryEntrySchema = z.object({
  id: z.string(),
  changeId: z.string(),
  at: z.iso.datetime(),
  actor: z.object({ id: z.string(), name: z.string() }),
  identity: ShownIdentitySchema,
  recordType: RecordTypeSchema,
  alias: z.string(),
  recordId: z.string(),
  kind: HistoryKindSchema,
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  source: z.string(),
  /** Present (true) on the one entry kept for a change past its author's daily budget. */
  notKept: z.literal(true).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** A page, newest first; `next` is the cursor of the following (older) page, null at the end. */
export const HistoryPageSchema = z.object({
  items: z.array(HistoryEntrySchema),
  next: z.string().nullable(),
});
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

const CursorSchema = z.string().regex(/^[1-9]\d{0,17}$/, 'Not a cursor this list gave');
const FirstSchema = z.coerce.number().int().min(1).max(MAX_HISTORY_PAGE);

/** `GET /bff/history/{recordType}/{alias}/{id}` query. */
export const RecordHistoryQuerySchema = z
  .object({ after: CursorSchema.optional(), first: FirstSchema.optional() })
  .strict();
export type RecordHistoryQuery = { after?: string; first?: number };

/** Query text the store can hold: a NUL or a lone surrogate is a 400 naming the parameter. */
const QueryTextSchema = z
  .string()
  .min(1)
  .max(200)
  .superRefine((value, ctx) => {
    const problem = unstorableText(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** `GET /bff/history` and `GET /bff/history/export.csv` query (administrators). */
export const HistoryQuerySchema = z
  .object({
    /**
     * An actor id as entries carry it (`actor.id`): people are matched by their stable id only,
     * never by a name, which anyone signing in with a typed email could imitate.
     */
    user: QueryTextSchema.optional(),
    recordType: RecordTypeSchema.optional(),
    alias: QueryTextSchema.optional(),
    /** ISO 8601 times; `from` inclusive, `to` exclusive. */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    after: CursorSchema.optional(),
    first: FirstSchema.optional(),
  })
  .strict()
  .refine((q) => !(q.from && q.to) || Date.parse(q.from) <= Date.parse(q.to), {
    path: ['to'],
    message: 'Must not be before from',
  });
export type HistoryQuery = Omit<z.input<typeof HistoryQuerySchema>, 'first'> & { first?: number };

/** Someone the history names: their stable id, their latest name and how verified it is. */
export const HistoryActorSchema = z.object({
  id: z.string(),
  name: z.string(),
  identity: ShownIdentitySchema,
});
export type HistoryActor = z.infer<typeof HistoryActorSchema>;

/** `GET /bff/history/actors` (administrators): the people the region's history names. */
export const HistoryActorListSchema = z.object({ items: z.array(HistoryActorSchema) });
export type HistoryActorList = z.infer<typeof HistoryActorListSchema>;

/** `DELETE /bff/history/{recordType}/{alias}/{id}` (administrators): the entries erased. */
export const RecordHistoryErasedSchema = z.object({ history: z.number().int().nonnegative() });
export type RecordHistoryErased = z.infer<typeof RecordHistoryErasedSchema>;

/**
 * `DELETE /bff/history/people/{ownerId}` (administrators): what was erased of one person in the
 * region, per kind (a right-to-erasure request; docs/security.md says what is not).
 */
export const PersonErasedSchema = z.object({
  history: z.number().int().nonnegative(),
  presence: z.number().int().nonnegative(),
  savedViews: z.number().int().nonnegative(),
  bulkRuns: z.number().int().nonnegative(),
  preferences: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  budget: z.number().int().nonnegative(),
});
export type PersonErased = z.infer<typeof PersonErasedSchema>;

/** The path parameter of an owner id: any id the history may name, storable. */
export const OwnerIdSchema = QueryTextSchema;
