import { z } from 'zod';

// Apart from the tabs' components: the route's config (validateSearch) is in the first-load
// route tree, while its component, and with it every tab, is split into a lazy chunk.

export const RECORD_TABS = [
  'details',
  'related',
  'attachments',
  'watchers',
  'comments',
  'history',
] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

/** The open record's tab lives in the URL (`?tab=comments`); absent means Details. */
export const RecordPanelSearchSchema = z.object({
  tab: z.enum(RECORD_TABS).optional().catch(undefined),
});
