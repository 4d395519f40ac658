// Bodies and replies of the BFF's bulk runs API (`/bff/bulk-runs`): what a bulk change wrote and
// what each record held before, kept per user and region for 7 days so the run can be undone after
// a reload. Shared by the BFF (which validates and answers with them) and the console (which parses
// with them). The store never holds a secret: field values the user could read anyway, and handles.
import { z } from 'zod';

import { ListViewsQuerySchema, unstorableText, ViewAliasSchema } from './bff-saved-views.ts';
import { RecordTypeSchema } from './common.ts';

/** Records one stored run keeps at most: a larger run runs, but cannot be undone from here. */
export const MAX_BULK_RUN_RECORDS = 5_000;
/** Fields one run sets at most (a definition has fewer editable ones in practice). */
export const MAX_BULK_RUN_FIELDS = 50;

/** Text PostgreSQL's jsonb can keep (no NUL, no unpaired surrogate); named on its own path. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = unstorableText(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const FieldNameSchema = text(200).pipe(z.string().min(1, 'A field name is required'));
/** One field's value as the console reads and writes it (text; empty clears). */
const ValueSchema = text(100_000);
const ValuesSchema = z.record(FieldNameSchema, ValueSchema);

/** One record of a run: its handle and the values of the run's fields before the run. */
export const BulkRunRecordSchema = z.object({
  id: text(200).pipe(z.string().min(1, 'A record handle is required')),
  before: ValuesSchema,
});
export type BulkRunRecord = z.infer<typeof BulkRunRecordSchema>;

/** `POST /bff/bulk-runs`: stored before the run writes anything, so an interrupted run is undoable. */
export const CreateBulkRunSchema = z
  .object({
    recordType: RecordTypeSchema,
    alias: ViewAliasSchema,
    /** The values the run writes. */
    changes: ValuesSchema.refine(
      (v) => Object.keys(v).length > 0,
      'Give at least one field',
    ).refine(
      (v) => Object.keys(v).length <= MAX_BULK_RUN_FIELDS,
      `At most ${MAX_BULK_RUN_FIELDS} fields`,
    ),
    records: z
      .array(BulkRunRecordSchema)
      .min(1, 'Give at least one record')
      .max(MAX_BULK_RUN_RECORDS, `At most ${MAX_BULK_RUN_RECORDS} records per run`),
  })
  .strict()
  .superRefine((run, ctx) => {
    const fields = new Set(Object.keys(run.changes));
    const seen = new Set<string>();
    run.records.forEach((record, index) => {
      if (seen.has(record.id)) {
        ctx.addIssue({ code: 'custom', path: ['records', index, 'id'], message: 'Listed twice' });
      }
      seen.add(record.id);
      for (const name of Object.keys(record.before)) {
        if (!fields.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: ['records', index, 'before', name],
            message: 'Not a field the run changes',
          });
        }
      }
    });
  });
export type CreateBulkRunInput = z.input<typeof CreateBulkRunSchema>;

/** `PUT /bff/bulk-runs/{id}/undo`: how the last undo went (the console does the writes). */
export const BulkUndoResultSchema = z
  .object({
    restored: z.int().min(0).max(MAX_BULK_RUN_RECORDS),
    /** Changed by someone else since the run: left as they are. */
    conflicts: z.int().min(0).max(MAX_BULK_RUN_RECORDS),
    /** Already back at their previous values (or never written): nothing to do. */
    skipped: z.int().min(0).max(MAX_BULK_RUN_RECORDS),
    failed: z.int().min(0).max(MAX_BULK_RUN_RECORDS),
  })
  .strict();
export type BulkUndoResult = z.infer<typeof BulkUndoResultSchema>;

/** A run as listed: no records. */
export const BulkRunSummarySchema = z.object({
  id: z.uuid(),
  recordType: RecordTypeSchema,
  alias: z.string(),
  changes: z.record(z.string(), z.string()),
  /** How many records the run covers. */
  count: z.int(),
  createdAt: z.iso.datetime(),
  /** When the BFF forgets it (7 days after it was made). */
  expiresAt: z.iso.datetime(),
  /** The last undo of this run, if any. */
  undo: BulkUndoResultSchema.extend({ at: z.iso.datetime() }).nullable(),
});
export type BulkRunSummary = z.infer<typeof BulkRunSummarySchema>;

/** `GET /bff/bulk-runs/{id}`: the run with every record's previous values. */
export const BulkRunSchema = BulkRunSummarySchema.extend({
  records: z.array(BulkRunRecordSchema),
});
export type BulkRun = z.infer<typeof BulkRunSchema>;

/** `GET /bff/bulk-runs` query: one definition's runs, or all (both or neither, as for views). */
export const ListBulkRunsQuerySchema = ListViewsQuerySchema;
export type ListBulkRunsQuery = z.input<typeof ListBulkRunsQuerySchema>;

/** `GET /bff/bulk-runs`: newest first. */
export const BulkRunListSchema = z.object({ items: z.array(BulkRunSummarySchema) });
export type BulkRunList = z.infer<typeof BulkRunListSchema>;
