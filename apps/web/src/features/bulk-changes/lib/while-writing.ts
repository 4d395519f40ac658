// What a bulk run and a bulk undo both do while their writes go out: the outcomes reach the dialog
// in batches, not one render (and layout) of it per record, and the definition's lists hold their
// re-reads, news-triggered and polled (each write comes back as news; the dialog refreshes them
// when done).
import { batchedAppend } from '@/lib/batched-append.ts';
import { holdLiveQueue } from '@/queries/live-queue.ts';

import type { BulkOutcome } from './scheduler.ts';

/**
 * How often a run's progress renders at most. Per outcome, the dialog (its counter, bar and list
 * of results) rendered and laid out 100 times in a 100-record run: most of the browser's share of
 * the run's time (docs/benchmarks.md, Remote).
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Runs `write` with an `onOutcome` that hands outcomes to `append` in batches; every outcome is
 * handed over, and the lists let go, when it ends (or fails).
 *
 * @example
 * await whileWriting(definition, (items) => setOutcomes((c) => [...c, ...items]), (onOutcome) =>
 *   runBulk(items, write, { concurrency: 5, onOutcome }),
 * );
 */
export async function whileWriting<T>(
  definition: { recordType: string; alias: string },
  append: (outcomes: BulkOutcome[]) => void,
  write: (onOutcome: (outcome: BulkOutcome) => void) => Promise<T>,
): Promise<T> {
  const incoming = batchedAppend(append, PROGRESS_INTERVAL_MS);
  const release = holdLiveQueue(definition.recordType, definition.alias);
  try {
    return await write(incoming.push);
  } finally {
    incoming.flush();
    release();
  }
}
