// What the proxy calls once the upstream accepted a record-changing write: keep the change in the
// record history, then announce it on the change bus. Keeping it may fail (the store is down): that
// is logged and counted, and the user's write still succeeds. ADR 0024.
import { randomUUID } from 'node:crypto';

import type { Logger } from '../../lib/logger.ts';
import type { BffMetrics } from '../../lib/metrics.ts';
import type { RecordChange, RecordChangeBus } from '../../lib/record-changes.ts';
import type { HistoryStore } from './history.store.ts';
import { boundedValue } from './history.store.ts';

/**
 * The recorder the proxy is given.
 *
 * @example
 * createProxyRouter({ ..., recordChange: createHistoryRecorder({ history, bus, logger, metrics }) });
 */
export function createHistoryRecorder(deps: {
  history: HistoryStore;
  bus: RecordChangeBus;
  logger: Logger;
  metrics: BffMetrics;
}): (change: RecordChange) => Promise<void> {
  return async (change) => {
    try {
      const { outcome } = await deps.history.append(change, randomUUID());
      if (outcome !== 'kept') {
        deps.metrics.historyNotKept.inc({ kept: outcome });
        deps.logger.debug('record history budget used up', {
          recordType: change.recordType,
          alias: change.alias,
          recordId: change.recordId,
          kept: outcome,
        });
      }
    } catch (error) {
      deps.metrics.historyWriteFailures.inc();
      deps.logger.error('record history write failed', {
        recordType: change.recordType,
        alias: change.alias,
        recordId: change.recordId,
        kind: change.kind,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    // Listeners get the values as the history keeps them: bounded, whatever the record holds.
    deps.bus.publish({
      ...change,
      fields: change.fields.map((f) => ({
        field: f.field,
        before: boundedValue(f.before),
        after: boundedValue(f.after),
      })),
    });
  };
}
