// What kind of change a write made to a record, as the BFF's proxy classifies it: shared by the
// record history (`bff-history`) and the live events (`bff-events`), which are subpaths of their
// own so that neither enters the console's first load.
import { z } from 'zod';

export const RecordChangeKindSchema = z.enum([
  'created',
  'updated',
  'related-item-added',
  'related-item-removed',
  'attachment-added',
  'attachment-removed',
  'watchers-changed',
  'comment-added',
]);
export type RecordChangeKind = z.infer<typeof RecordChangeKindSchema>;
